#include "rlopt/agent/discrete/NetworkConfig.h"

#include "rlopt/agent/Limits.h"
#include "rlopt/core/ConfigFields.h"

namespace rlopt::agent::discrete {

using agent::kMaxLayerSize;

template <typename Visit>
static void visitFields(NetworkConfig &c, Visit &&visit) {
  visit("hidden", c.hidden);
  visit("normalization", c.normalization);
}

static Status checkFields(const NetworkConfig &c, const std::string &where) {
  if (c.hidden.empty())
    return makeError(where + ": hidden: needs at least one layer");
  for (int size : c.hidden)
    if (size < 1 || size > kMaxLayerSize)
      return makeError(where + ": hidden: layer sizes must be in 1.." +
                       std::to_string(kMaxLayerSize));
  if (c.normalization != "log1p" && c.normalization != "none")
    return makeError(where +
                     ": normalization: expected \"log1p\" or "
                     "\"none\", got \"" +
                     c.normalization + "\"");
  return Status::success();
}

RLOPT_CONFIG_JSON_FROM_FIELDS(NetworkConfig)

} // namespace rlopt::agent::discrete
