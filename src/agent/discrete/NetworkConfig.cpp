#include "rlopt/agent/discrete/NetworkConfig.h"

#include "rlopt/agent/Limits.h"
#include "rlopt/core/Json.h"

namespace rlopt::agent::discrete {

using agent::kMaxLayerSize;

nlohmann::json NetworkConfig::toJson() const {
  return {{"hidden", hidden}, {"normalization", normalization}};
}

Result<NetworkConfig> NetworkConfig::fromJson(const nlohmann::json &json,
                                              const std::string &where) {
  if (!json.is_object())
    return makeError(where + ": expected a JSON object");
  for (auto it = json.begin(); it != json.end(); ++it)
    if (it.key() != "hidden" && it.key() != "normalization")
      return makeError(where + ": unknown key '" + it.key() + "'");
  NetworkConfig c;
  for (Status s : {readField(json, "hidden", c.hidden, where),
                   readField(json, "normalization", c.normalization, where)})
    if (!s)
      return s.error();
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
  return c;
}

} // namespace rlopt::agent::discrete
