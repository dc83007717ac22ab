#include "rlopt/core/Json.h"

#include <fstream>
#include <sstream>

namespace rlopt {

Result<nlohmann::json> readJsonFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return makeError(path + ": cannot read file");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error &e) {
    return makeError(path + ": parse error at byte " + std::to_string(e.byte) +
                     ": not valid JSON");
  }
}

} // namespace rlopt
