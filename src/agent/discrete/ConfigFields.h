// JSON reading and writing for the algorithm configs: each config lists its
// fields once, as (key, member) pairs, and these templates do the rest.
#ifndef RLOPT_SRC_AGENT_DISCRETE_CONFIGFIELDS_H
#define RLOPT_SRC_AGENT_DISCRETE_CONFIGFIELDS_H

#include "rlopt/agent/discrete/NetworkConfig.h"
#include "rlopt/core/Json.h"

#include <set>
#include <type_traits>

namespace rlopt::agent::discrete {

/// `visitFields(config, visit)` calls `visit(key, member)` for every field.
template <typename Config, typename VisitFields>
nlohmann::json configToJson(const Config &config, VisitFields visitFields) {
  nlohmann::json json = nlohmann::json::object();
  Config copy = config;
  visitFields(copy, [&](const char *key, auto &field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, NetworkConfig>)
      json[key] = field.toJson();
    else
      json[key] = field;
  });
  return json;
}

/// Reads the fields present in `json` over the defaults; an unknown key or
/// a value of the wrong type is an error naming it.
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
    if (!status)
      return;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>,
                                 NetworkConfig>) {
      if (!json.contains(key))
        return;
      auto network = NetworkConfig::fromJson(json[key], where + ": " + key);
      if (network)
        field = *network;
      else
        status = network.error();
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

} // namespace rlopt::agent::discrete

#endif
