#include "rlopt/agent/discrete/Ppo.h"

#include "rlopt/core/ConfigFields.h"

namespace rlopt::agent::discrete {

namespace {

template <typename Visit> void visitFields(PpoConfig &c, Visit &&visit) {
  visit("learning_rate", c.learningRate);
  visit("adam_epsilon", c.adamEpsilon);
  visit("gamma", c.gamma);
  visit("gae_lambda", c.gaeLambda);
  visit("clip", c.clip);
  visit("value_coef", c.valueCoef);
  visit("entropy_coef", c.entropyCoef);
  visit("max_grad_norm", c.maxGradNorm);
  visit("epochs", c.epochs);
  visit("minibatch_size", c.minibatchSize);
  visit("normalize_advantages", c.normalizeAdvantages);
  visit("steps_per_iteration", c.stepsPerIteration);
  visit("iterations", c.iterations);
  visit("max_episode_steps", c.maxEpisodeSteps);
  visit("rank_timeout_seconds", c.rankTimeoutSeconds);
  visit("checkpoint_every", c.checkpointEvery);
  visit("seed", c.seed);
  visit("network", c.network);
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
      require(c.learningRate > 0, where, "learning_rate", "positive"),
      require(c.adamEpsilon > 0, where, "adam_epsilon", "positive"),
      require(c.gamma >= 0 && c.gamma <= 1, where, "gamma", "in [0, 1]"),
      require(c.gaeLambda >= 0 && c.gaeLambda <= 1, where, "gae_lambda",
              "in [0, 1]"),
      require(c.clip > 0, where, "clip", "positive"),
      require(c.valueCoef >= 0, where, "value_coef", "not negative"),
      require(c.entropyCoef >= 0, where, "entropy_coef", "not negative"),
      require(c.maxGradNorm > 0, where, "max_grad_norm", "positive"),
      require(c.epochs >= 1, where, "epochs", "at least 1"),
      require(c.minibatchSize >= 1, where, "minibatch_size", "at least 1"),
      require(c.stepsPerIteration >= 1, where, "steps_per_iteration",
              "at least 1"),
      require(c.iterations >= 1, where, "iterations", "at least 1"),
      require(c.maxEpisodeSteps >= 0, where, "max_episode_steps",
              "not negative"),
      require(c.checkpointEvery >= 1, where, "checkpoint_every", "at least 1"),
      require(c.rankTimeoutSeconds > 0, where, "rank_timeout_seconds",
              "positive"),
  });
  if (!s)
    return s.error();
  return config;
}

Result<PpoConfig> PpoConfig::load(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  return fromJson(*json, path);
}

} // namespace rlopt::agent::discrete
