#include "rlopt/agent/discrete/Sac.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent::discrete {

template <typename Visit> static void visitFields(SacConfig &c, Visit &&visit) {
  visitDiscreteRunFields(c, visit);
  visitReplayFields(c, visit);
  visit("policy_learning_rate", c.policyLearningRate);
  visit("q_learning_rate", c.qLearningRate);
  visit("alpha_learning_rate", c.alphaLearningRate);
  visit("adam_epsilon", c.adamEpsilon);
  visit("gamma", c.gamma);
  visit("tau", c.tau);
  visit("target_entropy_scale", c.targetEntropyScale);
  visit("autotune_alpha", c.autotuneAlpha);
  visit("alpha", c.alpha);
  visit("reward_scale", c.rewardScale);
}

static Status checkFields(const SacConfig &c, const std::string &where) {
  return firstError({
      checkDiscreteRunFields(c, where),
      checkReplayFields(c, where),
      require(c.policyLearningRate > 0, where, "policy_learning_rate",
              "positive"),
      require(c.qLearningRate > 0, where, "q_learning_rate", "positive"),
      require(c.alphaLearningRate > 0, where, "alpha_learning_rate",
              "positive"),
      require(c.adamEpsilon > 0, where, "adam_epsilon", "positive"),
      require(c.gamma >= 0 && c.gamma <= 1, where, "gamma", "in [0, 1]"),
      require(c.tau > 0 && c.tau <= 1, where, "tau", "in (0, 1]"),
      require(c.targetEntropyScale >= 0 && c.targetEntropyScale <= 1, where,
              "target_entropy_scale", "in [0, 1]"),
      require(c.alpha > 0, where, "alpha", "positive"),
      require(c.rewardScale > 0, where, "reward_scale", "positive"),
  });
}

RLOPT_CONFIG_JSON_FROM_FIELDS(SacConfig)

} // namespace rlopt::agent::discrete
