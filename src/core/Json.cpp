#include "rlopt/core/Json.h"
#include "rlopt/core/File.h"

namespace rlopt {

namespace {

/// The deepest nesting of arrays and objects in `text`, outside strings;
/// stops counting once past `limit`. Checked before parsing because the
/// parsed value's recursive destructor overflows the stack on deep input.
int nestingDepth(const std::string &text, int limit) {
  int depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

} // namespace

Result<nlohmann::json> parseJson(const std::string &text,
                                 const std::string &where) {
  if (nestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth)
    return makeError(where + ": nested deeper than " +
                     std::to_string(kMaxJsonDepth) + " levels");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error &e) {
    return makeError(where + ": parse error at byte " + std::to_string(e.byte) +
                     ": not valid JSON");
  } catch (const nlohmann::json::exception &) {
    // out_of_range: a number such as 1e400 that no double holds.
    return makeError(where + ": a number is out of range");
  }
}

Result<nlohmann::json> readJsonFile(const std::string &path) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  return parseJson(*text, path);
}

} // namespace rlopt
