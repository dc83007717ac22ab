#ifndef RLOPT_AGENT_DISCRETE_TRAINING_H
#define RLOPT_AGENT_DISCRETE_TRAINING_H

#include "rlopt/agent/TrainingRun.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <string>

namespace rlopt::agent::discrete {

/// One line of metrics.jsonl: the same record as every trainer's.
using agent::IterationMetrics;

struct TrainOptions {
  /// The environment's settings, recorded in config.json as "env" so that
  /// the policy is evaluated, and the run resumed, in the same environment.
  nlohmann::json env;
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
