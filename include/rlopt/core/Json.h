#ifndef RLOPT_CORE_JSON_H
#define RLOPT_CORE_JSON_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rlopt {

/// Reads a JSON file; errors name the file and, for syntax errors, the byte
/// offset: `config.json: parse error at byte 17: ...`.
Result<nlohmann::json> readJsonFile(const std::string &path);

/// Reads `key` of `object` into `out` if present. Errors name the path:
/// `config.json: steps_per_op: expected an integer, got "x"`.
template <typename T>
Status readField(const nlohmann::json &object, const std::string &key, T &out,
                 const std::string &where) {
  auto it = object.find(key);
  if (it == object.end())
    return Status::success();
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception &) {
    return makeError(where + ": " + key + ": wrong type (got " + it->dump() +
                     ")");
  }
  return Status::success();
}

} // namespace rlopt

#endif
