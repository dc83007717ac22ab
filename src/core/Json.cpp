#include "rlopt/core/Json.h"
#include "rlopt/core/File.h"

#include <fstream>

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

Result<nlohmann::json> keepRecordsUpToIteration(const std::string &path,
                                                int iteration) {
  std::ifstream in(path);
  std::string line, kept;
  nlohmann::json last = nlohmann::json::object();
  while (std::getline(in, line)) {
    auto record = nlohmann::json::parse(line, nullptr, false);
    // A line cut short by a killed run, or not a record, is dropped.
    if (!record.is_object() || !record.contains("iteration") ||
        !record["iteration"].is_number_integer() ||
        record["iteration"].get<int64_t>() > iteration)
      continue;
    kept += line + "\n";
    last = std::move(record);
  }
  in.close();
  if (Status s = writeFileAtomically(path, kept); !s)
    return s.error();
  return last;
}

Result<nlohmann::json> readJsonFile(const std::string &path) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  return parseJson(*text, path);
}

} // namespace rlopt
