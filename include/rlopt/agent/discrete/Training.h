#ifndef RLOPT_AGENT_DISCRETE_TRAINING_H
#define RLOPT_AGENT_DISCRETE_TRAINING_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace rlopt::agent::discrete {

/// What one iteration reports: one line of metrics.jsonl, in the keys of the
/// Linalg PPO's metrics so that `rlopt report` draws both.
struct IterationMetrics {
  int iteration = 0;
  int episodes = 0;
  int failures = 0;       ///< episodes whose last step reported an error
  int64_t steps = 0;      ///< environment steps in this iteration
  int64_t totalSteps = 0; ///< environment steps since the run started
  double meanReward = 0;  ///< mean episode return
  double bestReturn = 0;  ///< highest episode return of the iteration
  /// Geometric mean of the "speedup" the environment reports at the end of
  /// an episode; -1 when it reports none.
  double geomeanSpeedup = -1;
  /// The algorithm's learning statistics, averaged over the iteration's
  /// updates: entropy, policy_loss, value_loss, approx_kl, epsilon, alpha...
  std::map<std::string, double> learning;
  double environmentSeconds = 0, learnSeconds = 0, elapsedSeconds = 0;

  nlohmann::json toJson() const;
};

struct TrainOptions {
  /// Continue from runDir/checkpoint.pt if it exists; a checkpoint written
  /// with a different config (other than `iterations`) is refused.
  bool resume = false;
  /// Set from a signal handler: checkpoint and stop after the current
  /// iteration.
  const std::atomic<bool> *stopRequested = nullptr;
  /// Called after every iteration, once its metrics line is written.
  std::function<void(const IterationMetrics &)> onIteration;
  /// Draw a progress line on stderr.
  bool showProgress = false;
};

} // namespace rlopt::agent::discrete

#endif
