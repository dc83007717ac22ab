// The run directory every discrete trainer writes, and the bookkeeping
// around its iterations:
//   config.json    the config, with its "algorithm" (AgentConfig::load)
//   metrics.jsonl  one IterationMetrics line per iteration
//   checkpoint.pt  all a resumed run needs: every checkpointEvery
//                  iterations, after the last one and when stopped
//   policy.pt      the trained policy (DiscretePolicy::load)
#ifndef RLOPT_SRC_AGENT_DISCRETE_TRAININGRUN_H
#define RLOPT_SRC_AGENT_DISCRETE_TRAININGRUN_H

#include "rlopt/agent/discrete/Network.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/agent/discrete/Training.h"
#include "rlopt/core/Progress.h"

#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <optional>
#include <random>

namespace rlopt::agent::discrete {

/// What TrainingRun needs of an algorithm's config; every config has these.
struct RunSettings {
  std::string algorithm;
  nlohmann::json config; ///< the algorithm's config, with its "algorithm"
  int iterations = 0, checkpointEvery = 1;
  uint64_t seed = 0;
  NetworkConfig network;

  template <typename Config> static RunSettings of(const Config &c) {
    nlohmann::json json = c.toJson();
    json["algorithm"] = Config::algorithm;
    return {Config::algorithm, json,   c.iterations,
            c.checkpointEvery, c.seed, c.network};
  }
};

class TrainingRun {
public:
  /// Creates `runDir` and writes config.json. With `options.resume` and a
  /// checkpoint present, refuses it if it was written by another
  /// algorithm, for another environment shape or with another config
  /// (`iterations` and `checkpoint_every` may change).
  static Result<std::unique_ptr<TrainingRun>> open(const std::string &runDir,
                                                   RunSettings settings,
                                                   DiscreteShape shape,
                                                   const TrainOptions &options);

  int firstIteration() const { return resumedIteration + 1; }
  int lastIteration() const { return settings.iterations; }
  /// The checkpoint to resume from, or null on a fresh run.
  torch::serialize::InputArchive *resumed() { return resumedArchive.get(); }
  /// The algorithm's state saved with the checkpoint (null on a fresh run).
  const nlohmann::json &resumedState() const { return savedState; }
  std::string checkpointPath() const { return dir + "/checkpoint.pt"; }
  /// Environment steps before the current iteration.
  int64_t totalSteps() const { return steps; }

  /// Seeds torch and returns the iteration's RNG. Seeding per iteration
  /// makes a resumed run draw what an uninterrupted one would have.
  std::mt19937_64 beginIteration(int iteration);

  /// Writes the algorithm's tensors into the checkpoint and returns its
  /// state as JSON.
  using StateWriter =
      std::function<nlohmann::json(torch::serialize::OutputArchive &)>;
  /// Fills in the totals and times of `metrics`, appends its line,
  /// checkpoints when due and reports progress. True when a stop was
  /// requested.
  Result<bool> endIteration(IterationMetrics &metrics,
                            const StateWriter &writeState);

  /// Writes policy.pt: `net` scores every action.
  Status savePolicy(Mlp net);

  ~TrainingRun();

private:
  TrainingRun() = default;
  Status saveCheckpoint(int iteration, const StateWriter &writeState);

  std::string dir;
  RunSettings settings;
  DiscreteShape shape;
  TrainOptions options;
  int resumedIteration = 0;
  int64_t steps = 0;
  double elapsedBefore = 0; ///< seconds spent by the runs resumed from
  std::chrono::steady_clock::time_point start;
  // A pointer, not std::optional: clang cannot instantiate an optional of
  // an archive, whose copy constructor takes a non-const reference.
  std::unique_ptr<torch::serialize::InputArchive> resumedArchive;
  nlohmann::json savedState;
  std::unique_ptr<ProgressBar> progress;
};

/// Module parameters and buffers, and optimizer state, under `prefix`.
void writeModule(torch::serialize::OutputArchive &archive,
                 const std::string &prefix, const torch::nn::Module &module);
Status readModule(torch::serialize::InputArchive &archive,
                  const std::string &prefix, torch::nn::Module &module,
                  const std::string &where);
void writeOptimizer(torch::serialize::OutputArchive &archive,
                    const std::string &key,
                    const torch::optim::Optimizer &optimizer);
Status readOptimizer(torch::serialize::InputArchive &archive,
                     const std::string &key, torch::optim::Optimizer &optimizer,
                     const std::string &where);

} // namespace rlopt::agent::discrete

#endif
