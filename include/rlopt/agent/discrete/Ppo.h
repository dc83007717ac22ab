#ifndef RLOPT_AGENT_DISCRETE_PPO_H
#define RLOPT_AGENT_DISCRETE_PPO_H

#include "rlopt/agent/discrete/DiscreteTrainerConfig.h"
#include "rlopt/agent/discrete/Training.h"
#include "rlopt/core/Env.h"

#include <vector>

namespace rlopt::agent::discrete {

/// Every PPO hyperparameter, named once, with the value of the PPO paper
/// (Schulman et al. 2017) or, where it names none, CleanRL's.
struct PpoConfig : DiscreteTrainerConfig {
  static constexpr const char *algorithm = "ppo";

  double learningRate = 3e-4; ///< Adam
  double adamEpsilon = 1e-5;  ///< CleanRL
  double gamma = 0.99;
  double gaeLambda = 0.95;
  double clip = 0.2;
  double valueCoef = 0.5;
  double entropyCoef = 0.01; ///< the XLA pass-ordering paper uses 0
  double maxGradNorm = 0.5;
  int epochs = 4;
  int minibatchSize = 64;
  bool normalizeAdvantages = true;
  /// A distributed run (mpirun) stops, with a checkpoint, when a rank
  /// sends nothing for this long.
  double rankTimeoutSeconds = 3600;

  nlohmann::json toJson() const;
  static Result<PpoConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
};

} // namespace rlopt::agent::discrete

#endif
