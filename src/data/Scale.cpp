#include "rlopt/data/Suite.h"

namespace rlopt::data {

const char *scaleName(Scale scale) {
  return scale == Scale::Small ? "small" : "full";
}

Result<Scale> parseScale(const std::string &text) {
  if (text == "small")
    return Scale::Small;
  if (text == "full")
    return Scale::Full;
  return makeError("unknown scale '" + text + "' (expected small or full)");
}

} // namespace rlopt::data
