// The discrete trainers' side of the run directory (agent/TrainingRun.h):
// config.json holds the config with its "algorithm" (AgentConfig::load) and
// the environment's settings; checkpoint.pt holds the networks, the
// optimizers and the algorithm's state; policy.pt loads with
// DiscretePolicy::load.
#ifndef RLOPT_SRC_AGENT_DISCRETE_DISCRETERUN_H
#define RLOPT_SRC_AGENT_DISCRETE_DISCRETERUN_H

#include "rlopt/agent/TrainingRun.h"
#include "rlopt/agent/discrete/Network.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/agent/discrete/Training.h"

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <random>

namespace rlopt::agent::discrete {

/// What DiscreteRun needs of an algorithm's config; every config has these.
struct RunSettings {
  std::string algorithm;
  nlohmann::json config; ///< the algorithm's config, with its "algorithm"
  int iterations = 0, checkpointEvery = 1;
  uint64_t seed = 0;
  NetworkConfig network;

  /// The config of `c` with the environment's settings `env` (if any).
  template <typename Config>
  static RunSettings of(const Config &c, const nlohmann::json &env) {
    nlohmann::json json = c.toJson();
    json["algorithm"] = Config::algorithm;
    if (!env.is_null())
      json["env"] = env;
    return {Config::algorithm, json,   c.iterations,
            c.checkpointEvery, c.seed, c.network};
  }
};

class DiscreteRun {
public:
  /// Opens the run directory `runDir`. With `options.resume` and a
  /// checkpoint present, refuses it if it was written by another
  /// algorithm, for another environment shape or with another config or
  /// environment (`iterations` and `checkpoint_every` may change).
  static Result<std::unique_ptr<DiscreteRun>> open(const std::string &runDir,
                                                   RunSettings settings,
                                                   DiscreteShape shape,
                                                   const TrainOptions &options);

  int firstIteration() const { return run->firstIteration(); }
  int lastIteration() const { return run->lastIteration(); }
  /// The checkpoint to resume from, or null on a fresh run.
  torch::serialize::InputArchive *resumed() { return resumedArchive.get(); }
  /// The algorithm's state saved with the checkpoint (null on a fresh run).
  const nlohmann::json &resumedState() const { return savedState; }
  std::string checkpointPath() const { return run->path("checkpoint.pt"); }
  /// Environment steps before the current iteration.
  int64_t totalSteps() const { return run->totalSteps(); }

  /// Seeds torch and returns the iteration's RNG. Seeding per iteration
  /// makes a resumed run draw what an uninterrupted one would have.
  std::mt19937_64 beginIteration(int iteration);

  /// Writes the algorithm's tensors into the checkpoint and returns its
  /// state as JSON.
  using StateWriter =
      std::function<nlohmann::json(torch::serialize::OutputArchive &)>;
  /// Appends the iteration's lines and checkpoints when due
  /// (TrainingRun::endIteration). True when a stop was requested.
  Result<bool> endIteration(IterationMetrics &metrics,
                            const std::vector<nlohmann::json> &episodes,
                            const StateWriter &writeState);

  /// Writes policy.pt: `net` scores every action.
  Status savePolicy(Mlp net);
  /// Checkpoints now, e.g. before a distributed run stops on a lost rank.
  Status saveCheckpoint(int iteration, const StateWriter &writeState);

private:
  DiscreteRun() = default;

  std::unique_ptr<TrainingRun> run;
  RunSettings settings;
  DiscreteShape shape;
  // A pointer, not std::optional: clang cannot instantiate an optional of
  // an archive, whose copy constructor takes a non-const reference.
  std::unique_ptr<torch::serialize::InputArchive> resumedArchive;
  nlohmann::json savedState;
};

/// What every trainer checks first: an action space a discrete policy can
/// score, and benchmarks to train on.
Result<DiscreteShape>
trainingShape(const Env &env, const std::vector<BenchmarkRef> &benchmarks);

/// Opens the run of `config` (DiscreteRun::open) and seeds torch from the
/// config, so the networks built next start the same on every run.
template <typename Config>
Result<std::unique_ptr<DiscreteRun>>
openRun(const Config &config, const DiscreteShape &shape,
        const std::string &runDir, const TrainOptions &options) {
  auto opened = DiscreteRun::open(runDir, RunSettings::of(config, options.env),
                                  shape, options);
  if (opened)
    torch::manual_seed(config.seed);
  return opened;
}

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
