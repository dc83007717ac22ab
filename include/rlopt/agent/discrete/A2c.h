#ifndef RLOPT_AGENT_DISCRETE_A2C_H
#define RLOPT_AGENT_DISCRETE_A2C_H

#include "rlopt/agent/discrete/DiscreteTrainerConfig.h"
#include "rlopt/agent/discrete/Training.h"
#include "rlopt/core/Env.h"

#include <vector>

namespace rlopt::agent::discrete {

/// Every A2C hyperparameter, named once, with the value of the A3C paper
/// (Mnih et al. 2016) or, where it names none, Stable-Baselines3's A2C.
struct A2cConfig : DiscreteTrainerConfig {
  static constexpr const char *algorithm = "a2c";

  std::string optimizer = "rmsprop"; ///< the paper's; or "adam"
  double learningRate = 7e-4;
  double rmspropAlpha = 0.99;
  double optimizerEpsilon = 1e-5;
  double gamma = 0.99;
  int nSteps = 5; ///< the paper's t_max: steps between updates
  double valueCoef = 0.5;
  double entropyCoef = 0.01;
  double maxGradNorm = 0.5;

  nlohmann::json toJson() const;
  static Result<A2cConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
};

} // namespace rlopt::agent::discrete

#endif
