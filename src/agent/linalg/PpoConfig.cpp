#include "rlopt/agent/linalg/Ppo.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent {

template <typename Visit> static void visitFields(PpoConfig &c, Visit &&visit) {
  visitPpoUpdateFields(c, visit);
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
  visit("imitation_entropy_coef", c.imitationEntropyCoef);
  visit("imitation_search_budget", c.imitationSearchBudget);
  visit("imitation_cost_model", c.imitationCostModel);
  visit("imitation_demonstrations", c.imitationDemonstrations);
  visit("reward_model", c.rewardModel);
  visit("measured_every", c.measuredEvery);
  visit("refit_reward_model", c.refitRewardModel);
  visit("policy", c.policy);
  visit("env", c.env);
}

static Status checkFields(const PpoConfig &c, const std::string &where) {
  return firstError({
      checkPpoUpdateFields(c, where),
      require(c.minibatches >= 1, where, "minibatches", "at least 1"),
      require(c.programsPerIteration >= 1, where, "programs_per_iteration",
              "at least 1"),
      // 0 iterations keep the cloned policy as it is.
      require(c.iterations >= 1 || (c.iterations == 0 && c.imitationEpochs > 0),
              where, "iterations", "at least 1 (0 only with imitation_epochs)"),
      require(c.workers >= 1 && c.workers <= 64, where, "workers", "in 1..64"),
      require(c.checkpointEvery >= 1, where, "checkpoint_every", "at least 1"),
      require(c.rankTimeoutSeconds > 0, where, "rank_timeout_seconds",
              "positive"),
      require(c.evalEvery >= 0, where, "eval_every", "not negative"),
      require(c.evalPrograms >= 0, where, "eval_programs", "not negative"),
      require(c.imitationEpochs >= 0, where, "imitation_epochs",
              "not negative"),
      require(c.imitationLearningRate > 0, where, "imitation_learning_rate",
              "positive"),
      require(c.imitationMinibatchSize >= 1, where, "imitation_minibatch_size",
              "at least 1"),
      require(c.imitationEntropyCoef >= 0, where, "imitation_entropy_coef",
              "not negative"),
      require(c.imitationSearchBudget >= 0 && c.imitationSearchBudget <= 1000,
              where, "imitation_search_budget", "in 0..1000"),
      require(c.measuredEvery >= 1, where, "measured_every", "at least 1"),
      require(c.measuredEvery == 1 || !c.rewardModel.empty(), where,
              "measured_every", "1 without a reward_model"),
      require(c.measuredEvery > 1 || c.rewardModel.empty(), where,
              "measured_every",
              "above 1 with a reward_model (1 measures every iteration)"),
  });
}

RLOPT_CONFIG_JSON_FROM_FIELDS(PpoConfig)

Result<PpoConfig> PpoConfig::load(const std::string &path) {
  return loadConfig<PpoConfig>(path);
}

} // namespace rlopt::agent
