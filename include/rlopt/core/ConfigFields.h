// JSON reading and writing for configs: each config lists its fields once,
// as (key, member) pairs in a visitFields function, and these templates do
// the rest. A member whose type has its own fromJson/toJson (a nested
// config) is read and written through them.
#ifndef RLOPT_CORE_CONFIGFIELDS_H
#define RLOPT_CORE_CONFIGFIELDS_H

#include "rlopt/core/Json.h"

#include <initializer_list>
#include <set>
#include <type_traits>

namespace rlopt {

namespace detail {

template <typename T, typename = void>
struct IsNestedConfig : std::false_type {};
template <typename T>
struct IsNestedConfig<
    T, std::void_t<decltype(T::fromJson(std::declval<const nlohmann::json &>(),
                                        std::declval<const std::string &>()))>>
    : std::true_type {};

} // namespace detail

/// `visitFields(config, visit)` calls `visit(key, member)` for every field.
template <typename Config, typename VisitFields>
nlohmann::json configToJson(const Config &config, VisitFields visitFields) {
  nlohmann::json json = nlohmann::json::object();
  Config copy = config;
  visitFields(copy, [&](const char *key, auto &field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (detail::IsNestedConfig<Field>::value)
      json[key] = field.toJson();
    else
      json[key] = field;
  });
  return json;
}

/// Reads the fields present in `json` over the defaults; an unknown key or
/// a value of the wrong type is an error naming it and `where`.
template <typename Config, typename VisitFields>
Result<Config> configFromJson(const nlohmann::json &json,
                              const std::string &where,
                              VisitFields visitFields) {
  if (!json.is_object())
    return makeError(where + ": expected a JSON object");
  Config config;
  std::set<std::string> known;
  visitFields(config, [&](const char *key, auto &) { known.insert(key); });
  for (auto it = json.begin(); it != json.end(); ++it)
    if (!known.count(it.key()))
      return makeError(where + ": unknown key '" + it.key() + "'");
  Status status;
  visitFields(config, [&](const char *key, auto &field) {
    using Field = std::decay_t<decltype(field)>;
    if (!status)
      return;
    if constexpr (detail::IsNestedConfig<Field>::value) {
      auto it = json.find(key);
      if (it == json.end())
        return;
      auto nested = Field::fromJson(*it, where + ": " + key);
      if (nested)
        field = *nested;
      else
        status = nested.error();
    } else {
      status = readField(json, key, field, where);
    }
  });
  if (!status)
    return status.error();
  return config;
}

/// An error naming `key` unless `ok`.
inline Status require(bool ok, const std::string &where, const char *key,
                      const char *expected) {
  if (ok)
    return Status::success();
  return makeError(where + ": " + key + ": must be " + expected);
}

/// The first failed status of `checks`, or success.
inline Status firstError(std::initializer_list<Status> checks) {
  for (const Status &s : checks)
    if (!s)
      return s;
  return Status::success();
}

/// The JSON form of a config whose fields a free `visitFields(Config &,
/// visit)` lists (found by argument-dependent lookup, so a `static` function
/// in the config's namespace).
template <typename Config> nlohmann::json fieldsToJson(const Config &config) {
  return configToJson(config,
                      [](Config &c, auto &&visit) { visitFields(c, visit); });
}

/// configFromJson through the free `visitFields`.
template <typename Config>
Result<Config> fieldsFromJson(const nlohmann::json &json,
                              const std::string &where) {
  return configFromJson<Config>(
      json, where, [](Config &c, auto &&visit) { visitFields(c, visit); });
}

/// fieldsFromJson, then the free `checkFields(config, where)`, which says
/// which value is out of range.
template <typename Config>
Result<Config> checkedFromJson(const nlohmann::json &json,
                               const std::string &where) {
  auto config = fieldsFromJson<Config>(json, where);
  if (!config)
    return config;
  if (Status s = checkFields(*config, where); !s)
    return s.error();
  return config;
}

/// Defines `Config::toJson` and `Config::fromJson` (checkedFromJson) from
/// the free `visitFields` and `checkFields` of the config's source file.
#define RLOPT_CONFIG_JSON_FROM_FIELDS(Config)                                  \
  nlohmann::json Config::toJson() const { return fieldsToJson(*this); }        \
  Result<Config> Config::fromJson(const nlohmann::json &json,                  \
                                  const std::string &where) {                  \
    return checkedFromJson<Config>(json, where);                               \
  }

/// `Config::fromJson` on the JSON file at `path`; errors name the file.
template <typename Config> Result<Config> loadConfig(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  return Config::fromJson(*json, path);
}

} // namespace rlopt

#endif
