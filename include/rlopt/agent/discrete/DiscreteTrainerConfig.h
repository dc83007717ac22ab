// The settings every discrete trainer's config shares: how long it runs,
// how often it checkpoints, its seed and its network.
#ifndef RLOPT_AGENT_DISCRETE_DISCRETETRAINERCONFIG_H
#define RLOPT_AGENT_DISCRETE_DISCRETETRAINERCONFIG_H

#include "rlopt/agent/discrete/NetworkConfig.h"

#include <cstdint>

namespace rlopt::agent::discrete {

struct DiscreteTrainerConfig {
  /// Whole episodes are collected until at least this many steps.
  int stepsPerIteration = 256;
  int iterations = 100;
  int maxEpisodeSteps = 0; ///< 0: the environment ends every episode
  double rewardClip = 0;   ///< rewards learnt from lie in [-c, c]; 0: off
  int keepBestEvery = 0;   ///< policy.pt: the best greedy policy; 0: the last
  int checkpointEvery = 10;
  uint64_t seed = 0;
  NetworkConfig network;
};

} // namespace rlopt::agent::discrete

#endif
