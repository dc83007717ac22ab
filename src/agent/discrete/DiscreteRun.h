// The discrete trainers' side of the run directory (agent/TrainingRun.h):
// config.json holds the config with its "algorithm" (AgentConfig::load) and
// the environment's settings; checkpoint.pt holds the networks, the
// optimizers and the algorithm's state; policy.pt loads with
// DiscretePolicy::load.
#ifndef RLOPT_SRC_AGENT_DISCRETE_DISCRETERUN_H
#define RLOPT_SRC_AGENT_DISCRETE_DISCRETERUN_H

#include "CheckpointPart.h"
#include "EpisodeLoop.h"
#include "rlopt/agent/TrainingRun.h"
#include "rlopt/agent/discrete/Network.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/agent/discrete/Training.h"

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace rlopt::agent::discrete {

/// What DiscreteRun needs of an algorithm's config; every config has these.
struct RunSettings {
  std::string algorithm;
  nlohmann::json config; ///< the algorithm's config, with its "algorithm"
  int iterations = 0, checkpointEvery = 1, keepBestEvery = 0;
  uint64_t seed = 0;
  NetworkConfig network;

  /// The config of `c` with the environment's settings `env` (if any).
  template <typename Config>
  static RunSettings of(const Config &c, const nlohmann::json &env) {
    nlohmann::json json = c.toJson();
    json["algorithm"] = Config::algorithm;
    if (!env.is_null())
      json["env"] = env;
    return {Config::algorithm, json,   c.iterations, c.checkpointEvery,
            c.keepBestEvery,   c.seed, c.network};
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

  /// The environment's shape the networks are built for.
  const DiscreteShape &shape() const { return envShape; }

  /// Names what the checkpoint holds; on a resumed run, reads it back now.
  Status keepInCheckpoint(std::vector<CheckpointPart> parts);

  int firstIteration() const { return run->firstIteration(); }
  /// False past the last iteration, or once a stop was requested.
  bool continues(int iteration) const {
    return !stopRequested && iteration <= run->lastIteration();
  }
  std::string checkpointPath() const { return run->path("checkpoint.pt"); }
  /// Environment steps before the current iteration.
  int64_t totalSteps() const { return run->totalSteps(); }

  /// What an iteration starts with: its RNG and its metrics record.
  struct Iteration {
    std::mt19937_64 rng;
    IterationMetrics metrics;
  };
  /// Seeds torch and the iteration's RNG. Seeding per iteration makes a
  /// resumed run draw what an uninterrupted one would have.
  Iteration beginIteration(int iteration);

  /// Appends the iteration's lines and checkpoints when due
  /// (TrainingRun::endIteration); after a requested stop, `continues` is
  /// false. With `keep_best_every` N > 0, every N iterations and at the
  /// last, `policy` first acts greedily once on each of `loop`'s programs:
  /// the mean return goes into the metrics as "greedy_return", and
  /// policy.pt is written when it is the highest so far.
  Status endIteration(IterationMetrics &metrics,
                      const std::vector<nlohmann::json> &episodes, Mlp policy,
                      EpisodeLoop &loop);
  /// endIteration with the episodes `loop` ran since the last report.
  Status endIteration(IterationMetrics &metrics, Mlp policy,
                      EpisodeLoop &loop) {
    std::vector<nlohmann::json> episodes = loop.reportInto(metrics);
    return endIteration(metrics, episodes, policy, loop);
  }

  /// Writes policy.pt: `net` scores every action. With `keep_best_every`,
  /// policy.pt keeps the best policy once one was chosen.
  Status savePolicy(Mlp net);
  /// Checkpoints now, e.g. before a distributed run stops on a lost rank.
  Status saveCheckpoint(int iteration);

private:
  DiscreteRun() = default;

  std::unique_ptr<TrainingRun> run;
  RunSettings settings;
  DiscreteShape envShape;
  // A pointer, not std::optional: clang cannot instantiate an optional of
  // an archive, whose copy constructor takes a non-const reference.
  std::unique_ptr<torch::serialize::InputArchive> resumedArchive;
  std::vector<CheckpointPart> checkpointParts;
  bool stopRequested = false;
  /// The highest greedy return so far (keep_best_every); metrics.jsonl
  /// says at which iteration.
  std::optional<double> bestGreedyReturn;

  Status keepIfBest(IterationMetrics &metrics, Mlp policy, EpisodeLoop &loop);
  Status writePolicy(Mlp net);
};

/// What every trainer checks first: an action space a discrete policy can
/// score, and benchmarks to train on.
Result<DiscreteShape>
trainingShape(const Env &env, const std::vector<BenchmarkRef> &benchmarks);

/// Checks `env` and `benchmarks` (trainingShape), opens the run of `config`
/// (DiscreteRun::open) and seeds torch from the config, so the networks
/// built next start the same on every run.
template <typename Config>
Result<std::unique_ptr<DiscreteRun>>
openRun(const Config &config, const Env &env,
        const std::vector<BenchmarkRef> &benchmarks, const std::string &runDir,
        const TrainOptions &options) {
  auto shape = trainingShape(env, benchmarks);
  if (!shape)
    return shape.error();
  auto opened = DiscreteRun::open(runDir, RunSettings::of(config, options.env),
                                  *shape, options);
  if (opened)
    torch::manual_seed(config.seed);
  return opened;
}

/// The trainers' networks for `shape`, initialized as in CleanRL. An actor
/// scores every action, its output layer scaled by 0.01 so that a fresh
/// policy is near uniform.
inline Mlp actorNetwork(const DiscreteShape &shape,
                        const NetworkConfig &network) {
  return Mlp(shape.observationSize, shape.actionCount, network, 0.01);
}
/// One state value.
inline Mlp criticNetwork(const DiscreteShape &shape,
                         const NetworkConfig &network) {
  return Mlp(shape.observationSize, 1, network, 1.0);
}
/// One Q-value per action.
inline Mlp qNetwork(const DiscreteShape &shape, const NetworkConfig &network) {
  return Mlp(shape.observationSize, shape.actionCount, network);
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
