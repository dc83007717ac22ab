#ifndef RLOPT_AGENT_LINALG_ROLLOUT_H
#define RLOPT_AGENT_LINALG_ROLLOUT_H

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

namespace rlopt::agent {

/// One episode's transitions.
struct Trajectory {
  std::string program, schedule;
  std::vector<std::vector<float>> observations;
  std::vector<std::vector<uint8_t>> masks; ///< heads concatenated
  std::vector<std::vector<int64_t>> actions;
  std::vector<float> logProbs, values, rewards;
  double speedup = 0; ///< measured at the end; 0 = failed
  bool failed = false;

  /// Exact round trip (floats stay float32 in a binary encoding).
  nlohmann::json toJson() const;
  static Result<Trajectory> fromJson(const nlohmann::json &json);
};

struct RolloutResult {
  std::vector<Trajectory> trajectories;
  double inferenceSeconds = 0, environmentSeconds = 0, compileSeconds = 0;
};

/// Runs `episodes` episodes over the servers in lock-step: one batched
/// policy call per step for all running episodes. Programs are drawn with
/// `rng`, or taken in order when `sequential`.
Result<RolloutResult> rollout(std::vector<EnvServer> &servers,
                              LinalgPolicy &policy,
                              const std::vector<std::string> &programs,
                              int episodes, std::mt19937_64 &rng, bool greedy,
                              bool sequential);

} // namespace rlopt::agent

#endif
