#include "rlopt/agent/linalg/Ppo.h"

#include "rlopt/core/Json.h"

#include <set>

namespace rlopt::agent {

nlohmann::json PpoConfig::toJson() const {
  return {{"learning_rate", learningRate},
          {"gamma", gamma},
          {"gae_lambda", gaeLambda},
          {"clip", clip},
          {"value_coef", valueCoef},
          {"entropy_coef", entropyCoef},
          {"max_grad_norm", maxGradNorm},
          {"epochs", epochs},
          {"minibatches", minibatches},
          {"programs_per_iteration", programsPerIteration},
          {"iterations", iterations},
          {"workers", workers},
          {"checkpoint_every", checkpointEvery},
          {"eval_every", evalEvery},
          {"eval_programs", evalPrograms},
          {"seed", seed},
          {"imitation_epochs", imitationEpochs},
          {"imitation_learning_rate", imitationLearningRate},
          {"imitation_minibatch_size", imitationMinibatchSize},
          {"policy", policy.toJson()},
          {"env", env.toJson()}};
}

Result<PpoConfig> PpoConfig::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  if (!json.is_object())
    return makeError(where + ": expected a JSON object");
  static const std::set<std::string> known = {"learning_rate",
                                              "gamma",
                                              "gae_lambda",
                                              "clip",
                                              "value_coef",
                                              "entropy_coef",
                                              "max_grad_norm",
                                              "epochs",
                                              "minibatches",
                                              "programs_per_iteration",
                                              "iterations",
                                              "workers",
                                              "checkpoint_every",
                                              "eval_every",
                                              "eval_programs",
                                              "seed",
                                              "imitation_epochs",
                                              "imitation_learning_rate",
                                              "imitation_minibatch_size",
                                              "policy",
                                              "env"};
  for (auto it = json.begin(); it != json.end(); ++it)
    if (!known.count(it.key()))
      return makeError(where + ": unknown key '" + it.key() + "'");
  PpoConfig c;
  for (Status s :
       {readField(json, "learning_rate", c.learningRate, where),
        readField(json, "gamma", c.gamma, where),
        readField(json, "gae_lambda", c.gaeLambda, where),
        readField(json, "clip", c.clip, where),
        readField(json, "value_coef", c.valueCoef, where),
        readField(json, "entropy_coef", c.entropyCoef, where),
        readField(json, "max_grad_norm", c.maxGradNorm, where),
        readField(json, "epochs", c.epochs, where),
        readField(json, "minibatches", c.minibatches, where),
        readField(json, "programs_per_iteration", c.programsPerIteration,
                  where),
        readField(json, "iterations", c.iterations, where),
        readField(json, "workers", c.workers, where),
        readField(json, "checkpoint_every", c.checkpointEvery, where),
        readField(json, "eval_every", c.evalEvery, where),
        readField(json, "eval_programs", c.evalPrograms, where),
        readField(json, "seed", c.seed, where),
        readField(json, "imitation_epochs", c.imitationEpochs, where),
        readField(json, "imitation_learning_rate", c.imitationLearningRate,
                  where),
        readField(json, "imitation_minibatch_size", c.imitationMinibatchSize,
                  where)})
    if (!s)
      return s.error();
  if (json.contains("policy")) {
    auto policy = PolicyConfig::fromJson(json["policy"], where + ": policy");
    if (!policy)
      return policy.error();
    c.policy = *policy;
  }
  if (json.contains("env")) {
    auto env = linalg::EnvConfig::fromJson(json["env"], where + ": env");
    if (!env)
      return env.error();
    c.env = *env;
  }
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
      {c.evalEvery >= 0, "eval_every must not be negative"},
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

nlohmann::json IterationMetrics::toJson() const {
  nlohmann::json j = {{"iteration", iteration},
                      {"episodes", episodes},
                      {"failures", failures},
                      {"steps", steps},
                      {"mean_reward", meanReward},
                      {"geomean_speedup", geomeanSpeedup},
                      {"entropy", entropy},
                      {"policy_loss", policyLoss},
                      {"value_loss", valueLoss},
                      {"approx_kl", approxKl},
                      {"clip_fraction", clipFraction},
                      {"time",
                       {{"inference_s", inferenceSeconds},
                        {"environment_s", environmentSeconds},
                        {"compile_s", compileSeconds},
                        {"learn_s", learnSeconds},
                        {"elapsed_s", elapsedSeconds}}}};
  if (validationGeomean >= 0)
    j["validation_geomean_speedup"] = validationGeomean;
  return j;
}

} // namespace rlopt::agent
