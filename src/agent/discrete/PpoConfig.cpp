#include "rlopt/agent/discrete/Ppo.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent::discrete {

namespace {

template <typename Visit> void visitFields(PpoConfig &c, Visit &&visit) {
  visitPpoUpdateFields(c, visit);
  visitDiscreteRunFields(c, visit);
  visit("adam_epsilon", c.adamEpsilon);
  visit("minibatch_size", c.minibatchSize);
  visit("normalize_advantages", c.normalizeAdvantages);
  visit("rank_timeout_seconds", c.rankTimeoutSeconds);
}

} // namespace

nlohmann::json PpoConfig::toJson() const {
  return configToJson(
      *this, [](PpoConfig &c, auto &&visit) { visitFields(c, visit); });
}

Result<PpoConfig> PpoConfig::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  auto config = configFromJson<PpoConfig>(
      json, where, [](PpoConfig &c, auto &&visit) { visitFields(c, visit); });
  if (!config)
    return config;
  const PpoConfig &c = *config;
  Status s = firstError({
      checkPpoUpdateFields(c, where),
      checkDiscreteRunFields(c, where),
      require(c.adamEpsilon > 0, where, "adam_epsilon", "positive"),
      require(c.minibatchSize >= 1, where, "minibatch_size", "at least 1"),
      require(c.rankTimeoutSeconds > 0, where, "rank_timeout_seconds",
              "positive"),
  });
  if (!s)
    return s.error();
  return config;
}

Result<PpoConfig> PpoConfig::load(const std::string &path) {
  return loadConfig<PpoConfig>(path);
}

} // namespace rlopt::agent::discrete
