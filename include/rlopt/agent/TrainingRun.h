// The run directory every trainer writes, Linalg PPO and the discrete
// agents alike, and the bookkeeping around its iterations:
//   config.json     the trainer's config, the environment inside ("env")
//   metrics.jsonl   one IterationMetrics line per iteration
//   episodes.jsonl  one line per training episode, with its iteration
//   checkpoint.pt   all a resumed run needs (the trainer's state files): every
//                   checkpoint_every iterations, after the last one and when
//                   stopped
//   policy.pt       the trained policy
//   run.lock        held while a process trains in the directory
// so that `rlopt report` draws any run and `--resume` continues any run.
#ifndef RLOPT_AGENT_TRAININGRUN_H
#define RLOPT_AGENT_TRAININGRUN_H

#include "rlopt/core/FileLock.h"
#include "rlopt/core/Progress.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rlopt::agent {

/// What one iteration reports: one line of metrics.jsonl.
struct IterationMetrics {
  int iteration = 0;
  int episodes = 0;
  int failures = 0;       ///< episodes whose last step reported an error
  int64_t steps = 0;      ///< environment steps in this iteration
  int64_t totalSteps = 0; ///< environment steps since the run started
  double meanReward = 0;  ///< mean episode return
  double bestReturn = 0;  ///< highest episode return of the iteration
  /// Geometric mean of the speedups measured at the ends of the episodes;
  /// -1 when the environment reports none.
  double geomeanSpeedup = -1;
  /// The same over the validation programs; -1 when not evaluated.
  double validationGeomean = -1;
  /// The algorithm's learning statistics, averaged over the iteration's
  /// updates: entropy, policy_loss, value_loss, approx_kl, epsilon, alpha...
  std::map<std::string, double> learning;
  /// Seconds spent in the environment and in learning; inference and
  /// compilation are reported apart by trainers that time them (-1: not).
  double environmentSeconds = 0, learnSeconds = 0, elapsedSeconds = 0;
  double inferenceSeconds = -1, compileSeconds = -1;

  /// The learning statistic `key`, NaN when the algorithm has none.
  double learned(const std::string &key) const;
  nlohmann::json toJson() const;
};

/// What the run directory needs of a trainer.
struct RunSettings {
  nlohmann::json config; ///< written to config.json
  int iterations = 0, checkpointEvery = 1;
  /// The trainer's checkpoint files, relative to the run directory: their
  /// leftover temporaries are removed, and a fresh run deletes them.
  std::vector<std::string> stateFiles = {"checkpoint.pt"};
  /// Title of a progress bar on stderr; empty for none.
  std::string progressTitle;
  const std::atomic<bool> *stopRequested = nullptr;
  /// Called after every iteration, once its lines are written.
  std::function<void(const IterationMetrics &)> onIteration;
};

class TrainingRun {
public:
  /// Creates `dir`, locks it against a second training process, and removes
  /// what a run killed while saving left behind.
  /// The trainer then checks its checkpoint and calls resumeAfter or
  /// startFresh, which write config.json.
  static Result<std::unique_ptr<TrainingRun>> open(const std::string &dir,
                                                   RunSettings settings);
  ~TrainingRun();

  std::string path(const std::string &file) const { return dir + "/" + file; }
  /// Whether a checkpoint exists to resume from.
  bool hasCheckpoint() const;

  /// Continues after the checkpoint of `iteration`: the later lines of
  /// metrics.jsonl and episodes.jsonl go, their step count and time carry
  /// on.
  Status resumeAfter(int iteration);
  /// Starts over: empty metrics and episodes, no checkpoint.
  Status startFresh();

  int firstIteration() const { return resumedIteration + 1; }
  int lastIteration() const { return settings.iterations; }
  /// Environment steps before the current iteration.
  int64_t totalSteps() const { return steps; }
  bool stopRequested() const {
    return settings.stopRequested && settings.stopRequested->load();
  }

  /// Fills in the totals and time of `metrics`, appends its line and the
  /// iteration's `episodes`, reports progress, then calls `saveCheckpoint`
  /// when one is due (every checkpointEvery iterations, the last one, or a
  /// stop was requested). True when a stop was requested.
  Result<bool> endIteration(IterationMetrics &metrics,
                            const std::vector<nlohmann::json> &episodes,
                            const std::function<Status(int)> &saveCheckpoint);

  /// Seconds of training, summed over the runs resumed from.
  double elapsedSeconds() const;

private:
  explicit TrainingRun(FileLock lock) : lock(std::move(lock)) {}
  Status begin();
  Status appendLines(const std::string &file, const std::string &text) const;

  FileLock lock;
  std::string dir;
  RunSettings settings;
  int resumedIteration = 0;
  int64_t steps = 0;
  double elapsedBefore = 0;
  std::chrono::steady_clock::time_point start;
  std::unique_ptr<ProgressBar> progress;
};

} // namespace rlopt::agent

#endif
