#ifndef RLOPT_CORE_JSON_H
#define RLOPT_CORE_JSON_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace rlopt {

/// Reads a JSON file; errors name the file and, for syntax errors, the byte
/// offset: `config.json: parse error at byte 17: ...`. Nesting deeper than
/// kMaxJsonDepth and numbers out of range are errors, never a crash.
Result<nlohmann::json> readJsonFile(const std::string &path);

/// Parses JSON text with the same limits; `where` names it in errors.
Result<nlohmann::json> parseJson(const std::string &text,
                                 const std::string &where);

/// Keeps the records of the JSON-lines file `path` (a training run's
/// metrics or episodes) whose "iteration" is at most `iteration`, rewriting
/// the file atomically, and returns the last record kept (an empty object
/// when none is). A resumed run writes the later iterations again.
Result<nlohmann::json> keepRecordsUpToIteration(const std::string &path,
                                                int iteration);

/// No config rlopt reads nests anywhere near this deep.
constexpr int kMaxJsonDepth = 256;

namespace detail {

template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type {};

/// Converts `value` to T without the silent conversions nlohmann allows
/// (true as 1, -1 as 2^64-1, 4294967297 as 1, 2.5 as 2); false if it does
/// not fit.
template <typename T>
bool convertStrictly(const nlohmann::json &value, T &out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean())
      return false;
    out = value.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (value.is_number_unsigned()) {
      uint64_t v = value.get<uint64_t>();
      if (v > static_cast<uint64_t>(std::numeric_limits<T>::max()))
        return false;
      out = static_cast<T>(v);
    } else if (value.is_number_integer()) {
      int64_t v = value.get<int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        if (v < 0)
          return false;
      } else if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
                 v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        return false;
      }
      out = static_cast<T>(v);
    } else {
      return false;
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!value.is_number() || !std::isfinite(value.get<double>()))
      return false;
    out = value.get<T>();
  } else if constexpr (IsVector<T>::value) {
    if (!value.is_array())
      return false;
    T items;
    for (const auto &item : value) {
      typename T::value_type converted{};
      if (!convertStrictly(item, converted))
        return false;
      items.push_back(std::move(converted));
    }
    out = std::move(items);
  } else {
    try {
      out = value.get<T>();
    } catch (const nlohmann::json::exception &) {
      return false;
    }
  }
  return true;
}

/// What a T must be, as a record error says it.
template <typename T> const char *kindOf() {
  if constexpr (std::is_same_v<T, bool>)
    return "true or false";
  else if constexpr (std::is_integral_v<T>)
    return "an integer";
  else if constexpr (std::is_floating_point_v<T>)
    return "a number";
  else {
    static_assert(std::is_same_v<T, std::string>,
                  "a record field is a bool, a number or a string");
    return "a string";
  }
}

} // namespace detail

/// Reads `key` of `object` into `out` if present. Errors name the path:
/// `config.json: steps_per_op: wrong type (got "x")`; an integer out of the
/// field's range is a wrong type too.
template <typename T>
Status readField(const nlohmann::json &object, const std::string &key, T &out,
                 const std::string &where) {
  auto it = object.find(key);
  if (it == object.end())
    return Status::success();
  if (!detail::convertStrictly(*it, out))
    return makeError(where + ": " + key + ": wrong type (got " + it->dump() +
                     ")");
  return Status::success();
}

/// Like readField, for records rlopt wrote (results.json rows, metrics
/// lines) rather than configs: null, how JSON writes a NaN, reads as NaN
/// into a floating-point field and as absent into any other, and an absent
/// `required` field is an error. Errors read
/// `results.json: results[0]: "speedup" must be a number`.
template <typename T>
Status readRecordField(const nlohmann::json &object, const std::string &key,
                       T &out, const std::string &where,
                       bool required = false) {
  auto it = object.find(key);
  if constexpr (std::is_floating_point_v<T>)
    if (it != object.end() && it->is_null()) {
      out = std::numeric_limits<T>::quiet_NaN();
      return Status::success();
    }
  if (it == object.end() || it->is_null()) {
    if (required)
      return makeError(where + ": \"" + key + "\" is missing");
    return Status::success();
  }
  if (!detail::convertStrictly(*it, out))
    return makeError(where + ": \"" + key + "\" must be " +
                     detail::kindOf<T>());
  return Status::success();
}

} // namespace rlopt

#endif
