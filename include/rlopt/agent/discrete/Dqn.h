#ifndef RLOPT_AGENT_DISCRETE_DQN_H
#define RLOPT_AGENT_DISCRETE_DQN_H

#include "rlopt/agent/discrete/DiscreteTrainerConfig.h"
#include "rlopt/agent/discrete/Training.h"
#include "rlopt/core/Env.h"

#include <vector>

namespace rlopt::agent::discrete {

/// Every DQN hyperparameter, named once. Defaults are the Nature DQN
/// paper's (Mnih et al. 2015) where they do not depend on the scale of
/// Atari; the paper's value is beside those scaled down for compiler
/// episodes of tens of steps.
struct DqnConfig : DiscreteTrainerConfig {
  static constexpr const char *algorithm = "dqn";

  double learningRate = 2.5e-4; ///< paper (with RMSprop); Adam here
  double gamma = 0.99;
  int bufferSize = 100000; ///< paper: 1000000
  int batchSize = 32;
  int learningStarts = 1000;    ///< paper: 50000
  int trainEvery = 4;           ///< environment steps between updates
  int targetUpdateEvery = 1000; ///< environment steps; paper: 10000 updates
  double startEpsilon = 1.0;
  double endEpsilon = 0.05;     ///< paper: 0.1 (CleanRL: 0.05)
  int explorationSteps = 10000; ///< linear ε decay; paper: 1000000
  double huberDelta = 1.0;      ///< the paper's error clipping to [-1, 1]
  /// Double DQN: the online network picks the next action, the target
  /// network values it. Off: the 2015 paper's max over the target network.
  bool doubleQ = true;
  /// Rewards summed before bootstrapping (n-step returns, as in Rainbow;
  /// Hessel et al. 2018). 1: the paper's one-step target.
  int returnSteps = 1;

  nlohmann::json toJson() const;
  static Result<DqnConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
};

} // namespace rlopt::agent::discrete

#endif
