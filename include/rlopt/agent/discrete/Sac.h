#ifndef RLOPT_AGENT_DISCRETE_SAC_H
#define RLOPT_AGENT_DISCRETE_SAC_H

#include "rlopt/agent/discrete/DiscreteTrainerConfig.h"
#include "rlopt/agent/discrete/Training.h"
#include "rlopt/core/Env.h"

#include <vector>

namespace rlopt::agent::discrete {

/// Every discrete-SAC hyperparameter, named once, with the value of
/// Christodoulou 2019 ("Soft Actor-Critic for Discrete Action Settings");
/// the paper's value is beside those scaled down for short episodes.
struct SacConfig : DiscreteTrainerConfig {
  static constexpr const char *algorithm = "sac";

  double policyLearningRate = 3e-4; ///< Adam, as every learning rate here
  double qLearningRate = 3e-4;
  double alphaLearningRate = 3e-4;
  double adamEpsilon = 1e-4; ///< CleanRL's discrete SAC
  double gamma = 0.99;
  /// Polyak averaging of the target Q-networks after every update (the
  /// continuous SAC paper's); the discrete paper copies every 8000 steps.
  double tau = 0.005;
  int bufferSize = 100000; ///< paper: 1000000
  int batchSize = 64;
  int learningStarts = 1000; ///< paper: 20000
  int trainEvery = 4;        ///< environment steps between updates
  /// Rewards summed before bootstrapping (n-step returns); the soft value
  /// of the steps in between is left out, as in discrete SAC with n-step
  /// targets commonly. 1: the paper's one-step target.
  int returnSteps = 1;
  /// Target entropy = scale · log(allowed actions): the paper's
  /// 0.98 · −log(1/|A|), counting only the actions the mask allows.
  double targetEntropyScale = 0.98;
  bool autotuneAlpha = true;
  double alpha = 1.0;       ///< the temperature: fixed, or the start when tuned
  double rewardScale = 1.0; ///< rewards are multiplied by this

  nlohmann::json toJson() const;
  static Result<SacConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
};

} // namespace rlopt::agent::discrete

#endif
