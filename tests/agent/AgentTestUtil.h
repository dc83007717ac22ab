// Shared helpers for the agent tests: the environment's action layout, a
// tiny policy config, fast PPO configs and JSON-lines readers.
#ifndef RLOPT_TESTS_AGENT_AGENTTESTUTIL_H
#define RLOPT_TESTS_AGENT_AGENTTESTUTIL_H

#include "../tools/ToolTestUtil.h"

#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/agent/linalg/Ppo.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace rlopt::agent::testing {

namespace fs = std::filesystem;
using rlopt::tool::testing::fixturePath;
using rlopt::tool::testing::readFile;
using rlopt::tool::testing::readJsonLines;
using rlopt::tool::testing::ScratchDir;
using rlopt::tool::testing::writeFile;

/// The layout of the environment with its default config: what `rlopt
/// train` and `rlopt optimize` use.
inline linalg::ActionLayout defaultLayout() {
  return linalg::LinalgEnv(linalg::EnvConfig()).actionLayout();
}

inline PolicyConfig tinyPolicyConfig() {
  PolicyConfig config;
  config.embedding = 16;
  config.lstm = 16;
  config.dense = {16};
  return config;
}

/// PPO with a tiny network and a one-repetition timing protocol, measuring
/// into `cache`.
inline PpoConfig tinyPpoConfig(const std::string &cache) {
  PpoConfig config;
  config.policy = tinyPolicyConfig();
  config.workers = 2;
  config.programsPerIteration = 4;
  config.iterations = 2;
  config.evalEvery = 0;
  config.env.measure.timing.repetitions = 1;
  config.env.measure.timing.maxRounds = 1;
  config.env.measure.timing.minSampleMs = 0.1;
  config.env.cachePath = cache;
  return config;
}

/// Three small training programs: two ops, one op, and a chain of four.
inline std::vector<std::string> tinyTrainPrograms() {
  return {fixturePath("matmul"), fixturePath("add"), fixturePath("chain")};
}

/// A training run of `tinyTrainPrograms` in `runDir`.
inline TrainOptions tinyTrainOptions(const fs::path &runDir) {
  TrainOptions options;
  options.runDir = runDir.string();
  options.trainPrograms = tinyTrainPrograms();
  return options;
}

} // namespace rlopt::agent::testing

#endif
