#include "rlopt/agent/discrete/Dqn.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent::discrete {

template <typename Visit> static void visitFields(DqnConfig &c, Visit &&visit) {
  visitDiscreteRunFields(c, visit);
  visitReplayFields(c, visit);
  visit("learning_rate", c.learningRate);
  visit("gamma", c.gamma);
  visit("target_update_every", c.targetUpdateEvery);
  visit("start_epsilon", c.startEpsilon);
  visit("end_epsilon", c.endEpsilon);
  visit("exploration_steps", c.explorationSteps);
  visit("huber_delta", c.huberDelta);
  visit("double_q", c.doubleQ);
}

static Status checkFields(const DqnConfig &c, const std::string &where) {
  return firstError({
      checkDiscreteRunFields(c, where),
      checkReplayFields(c, where),
      require(c.learningRate > 0, where, "learning_rate", "positive"),
      require(c.gamma >= 0 && c.gamma <= 1, where, "gamma", "in [0, 1]"),
      require(c.targetUpdateEvery >= 1, where, "target_update_every",
              "at least 1"),
      require(c.startEpsilon >= 0 && c.startEpsilon <= 1, where,
              "start_epsilon", "in [0, 1]"),
      require(c.endEpsilon >= 0 && c.endEpsilon <= 1, where, "end_epsilon",
              "in [0, 1]"),
      require(c.explorationSteps >= 1, where, "exploration_steps",
              "at least 1"),
      require(c.huberDelta > 0, where, "huber_delta", "positive"),
  });
}

RLOPT_CONFIG_JSON_FROM_FIELDS(DqnConfig)

} // namespace rlopt::agent::discrete
