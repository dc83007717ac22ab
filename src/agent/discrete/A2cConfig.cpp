#include "rlopt/agent/discrete/A2c.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent::discrete {

template <typename Visit> static void visitFields(A2cConfig &c, Visit &&visit) {
  visitDiscreteRunFields(c, visit);
  visit("optimizer", c.optimizer);
  visit("learning_rate", c.learningRate);
  visit("rmsprop_alpha", c.rmspropAlpha);
  visit("optimizer_epsilon", c.optimizerEpsilon);
  visit("gamma", c.gamma);
  visit("n_steps", c.nSteps);
  visit("value_coef", c.valueCoef);
  visit("entropy_coef", c.entropyCoef);
  visit("max_grad_norm", c.maxGradNorm);
}

static Status checkFields(const A2cConfig &c, const std::string &where) {
  return firstError({
      checkDiscreteRunFields(c, where),
      require(c.optimizer == "rmsprop" || c.optimizer == "adam", where,
              "optimizer", "\"rmsprop\" or \"adam\""),
      require(c.learningRate > 0, where, "learning_rate", "positive"),
      require(c.rmspropAlpha > 0 && c.rmspropAlpha < 1, where, "rmsprop_alpha",
              "in (0, 1)"),
      require(c.optimizerEpsilon > 0, where, "optimizer_epsilon", "positive"),
      require(c.gamma >= 0 && c.gamma <= 1, where, "gamma", "in [0, 1]"),
      require(c.nSteps >= 1, where, "n_steps", "at least 1"),
      require(c.valueCoef >= 0, where, "value_coef", "not negative"),
      require(c.entropyCoef >= 0, where, "entropy_coef", "not negative"),
      require(c.maxGradNorm > 0, where, "max_grad_norm", "positive"),
  });
}

RLOPT_CONFIG_JSON_FROM_FIELDS(A2cConfig)

} // namespace rlopt::agent::discrete
