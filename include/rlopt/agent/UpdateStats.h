#ifndef RLOPT_AGENT_UPDATESTATS_H
#define RLOPT_AGENT_UPDATESTATS_H

// A trainer's learning diagnostics for metrics.jsonl: named statistics
// summed over an iteration's gradient updates and reported as means, and
// the seconds those updates took. Free of torch, so every trainer can keep
// one whatever it learns with.

#include "rlopt/agent/TrainingRun.h"

#include <chrono>
#include <map>
#include <string>

namespace rlopt::agent {

class UpdateStats {
public:
  using Clock = std::chrono::steady_clock;

  /// Adds `value` to the statistic `name` of the current update.
  void add(const std::string &name, double value) { sums[name] += value; }

  /// Ends an update: one more to average over.
  void endUpdate() { ++updates; }

  /// Ends an update that began at `start`, and counts its time as learning.
  void endUpdate(Clock::time_point start) {
    endUpdate();
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
  }

  /// Each statistic's mean over the updates into `learning`; nothing
  /// without updates.
  void writeInto(std::map<std::string, double> &learning) const {
    if (updates == 0)
      return;
    for (const auto &[name, sum] : sums)
      learning[name] = sum / updates;
  }

  /// The means into `metrics.learning` and the timed updates' seconds into
  /// `metrics.learnSeconds`.
  void writeInto(IterationMetrics &metrics) const {
    writeInto(metrics.learning);
    metrics.learnSeconds = seconds;
  }

private:
  std::map<std::string, double> sums;
  int updates = 0;
  double seconds = 0;
};

} // namespace rlopt::agent

#endif
