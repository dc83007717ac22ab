#include "rlopt/agent/linalg/Ppo.h"

#include "rlopt/core/ConfigFields.h"

namespace rlopt::agent {

namespace {
template <typename Visit> void visitFields(PpoConfig &c, Visit &&visit) {
  visit("learning_rate", c.learningRate);
  visit("gamma", c.gamma);
  visit("gae_lambda", c.gaeLambda);
  visit("clip", c.clip);
  visit("value_coef", c.valueCoef);
  visit("entropy_coef", c.entropyCoef);
  visit("max_grad_norm", c.maxGradNorm);
  visit("epochs", c.epochs);
  visit("minibatches", c.minibatches);
  visit("programs_per_iteration", c.programsPerIteration);
  visit("iterations", c.iterations);
  visit("workers", c.workers);
  visit("checkpoint_every", c.checkpointEvery);
  visit("rank_timeout_seconds", c.rankTimeoutSeconds);
  visit("eval_every", c.evalEvery);
  visit("eval_programs", c.evalPrograms);
  visit("seed", c.seed);
  visit("imitation_epochs", c.imitationEpochs);
  visit("imitation_learning_rate", c.imitationLearningRate);
  visit("imitation_minibatch_size", c.imitationMinibatchSize);
  visit("policy", c.policy);
  visit("env", c.env);
}
} // namespace

nlohmann::json PpoConfig::toJson() const {
  return configToJson(
      *this, [](PpoConfig &c, auto &&visit) { visitFields(c, visit); });
}

Result<PpoConfig> PpoConfig::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  auto read = configFromJson<PpoConfig>(
      json, where, [](PpoConfig &c, auto &&visit) { visitFields(c, visit); });
  if (!read)
    return read.error();
  const PpoConfig &c = *read;
  // The first key out of range, with what it must be.
  const std::pair<bool, const char *> ranges[] = {
      {c.learningRate > 0, "learning_rate must be positive"},
      {c.clip > 0, "clip must be positive"},
      {c.epochs >= 1, "epochs must be at least 1"},
      {c.minibatches >= 1, "minibatches must be at least 1"},
      {c.programsPerIteration >= 1,
       "programs_per_iteration must be at least 1"},
      {c.iterations >= 1, "iterations must be at least 1"},
      {c.workers >= 1 && c.workers <= 64, "workers must be in 1..64"},
      {c.checkpointEvery >= 1, "checkpoint_every must be at least 1"},
      {c.rankTimeoutSeconds > 0, "rank_timeout_seconds must be positive"},
      {c.evalEvery >= 0, "eval_every must not be negative"},
      {c.evalPrograms >= 0, "eval_programs must not be negative"},
      {c.imitationEpochs >= 0, "imitation_epochs must not be negative"},
      {c.imitationLearningRate > 0, "imitation_learning_rate must be positive"},
      {c.imitationMinibatchSize >= 1,
       "imitation_minibatch_size must be at least 1"},
      {c.gamma >= 0 && c.gamma <= 1, "gamma must be in [0, 1]"},
      {c.gaeLambda >= 0 && c.gaeLambda <= 1, "gae_lambda must be in [0, 1]"},
      {c.maxGradNorm > 0, "max_grad_norm must be positive"},
      {c.valueCoef >= 0, "value_coef must not be negative"},
      {c.entropyCoef >= 0, "entropy_coef must not be negative"},
  };
  for (const auto &[inRange, rule] : ranges)
    if (!inRange)
      return makeError(where + ": " + rule);
  return c;
}

Result<PpoConfig> PpoConfig::load(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  return fromJson(*json, path);
}

} // namespace rlopt::agent
