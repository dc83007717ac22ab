// Configs small enough to learn the counter environment in a few seconds.
#ifndef RLOPT_TESTS_AGENT_DISCRETE_TINYCONFIGS_H
#define RLOPT_TESTS_AGENT_DISCRETE_TINYCONFIGS_H

#include "rlopt/agent/discrete/Trainer.h"

namespace rlopt::agent::discrete::testing {

inline NetworkConfig tinyNetwork() {
  NetworkConfig network;
  network.hidden = {64, 64};
  return network;
}

inline PpoConfig tinyPpo() {
  PpoConfig c;
  c.network = tinyNetwork();
  c.learningRate = 1e-3;
  c.stepsPerIteration = 240;
  c.iterations = 20;
  c.seed = 1;
  return c;
}

inline A2cConfig tinyA2c() {
  A2cConfig c;
  c.network = tinyNetwork();
  c.learningRate = 1e-3;
  c.stepsPerIteration = 240;
  c.iterations = 20;
  c.seed = 1;
  return c;
}

inline DqnConfig tinyDqn() {
  DqnConfig c;
  c.network = tinyNetwork();
  c.learningRate = 1e-3;
  c.bufferSize = 5000;
  c.batchSize = 64;
  c.learningStarts = 240;
  c.trainEvery = 1;
  c.targetUpdateEvery = 120;
  c.explorationSteps = 1800;
  c.stepsPerIteration = 240;
  c.iterations = 12;
  c.seed = 1;
  return c;
}

inline SacConfig tinySac() {
  SacConfig c;
  c.network = tinyNetwork();
  c.policyLearningRate = 1e-3;
  c.qLearningRate = 1e-3;
  c.alphaLearningRate = 1e-3;
  c.bufferSize = 5000;
  c.learningStarts = 240;
  c.trainEvery = 1;
  c.tau = 0.01;
  // The paper's 0.98 keeps the sampling policy near uniform: its greedy
  // choice learns, but its training return barely rises.
  c.targetEntropyScale = 0.3;
  c.stepsPerIteration = 240;
  c.iterations = 12;
  c.seed = 1;
  return c;
}

/// `variant` is an algorithm's name, or "dqn_3step" and "sac_3step" for
/// the replay agents with three-step returns.
inline AgentConfig tinyConfig(const std::string &variant) {
  if (variant == "a2c")
    return {tinyA2c()};
  if (variant == "dqn" || variant == "dqn_3step") {
    DqnConfig c = tinyDqn();
    c.returnSteps = variant == "dqn" ? 1 : 3;
    return {c};
  }
  if (variant == "sac" || variant == "sac_3step") {
    SacConfig c = tinySac();
    c.returnSteps = variant == "sac" ? 1 : 3;
    return {c};
  }
  return {tinyPpo()};
}

/// The same config with `iterations` changed.
inline AgentConfig withIterations(AgentConfig config, int iterations) {
  std::visit([&](auto &c) { c.iterations = iterations; }, config.config);
  return config;
}

} // namespace rlopt::agent::discrete::testing

#endif
