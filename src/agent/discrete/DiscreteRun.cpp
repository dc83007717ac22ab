#include "DiscreteRun.h"

#include "PolicyImpl.h"
#include "rlopt/agent/Archive.h"
#include "rlopt/agent/discrete/Trainer.h"
#include "rlopt/core/Json.h"

#include <cmath>
#include <filesystem>

namespace rlopt::agent::discrete {

namespace {

namespace fs = std::filesystem;
constexpr const char *kCheckpointFormat = "rlopt-discrete-checkpoint";

/// Config keys a resumed run may change: none alters what is learned.
bool mayChangeOnResume(const std::string &key) {
  return key == "iterations" || key == "checkpoint_every" ||
         key == "keep_best_every";
}

/// "gamma: 0.99 in the checkpoint, 0.9 now", or empty if they agree.
std::string firstDifference(const nlohmann::json &saved,
                            const nlohmann::json &now) {
  nlohmann::json keys = nlohmann::json::object();
  for (const auto *object : {&saved, &now})
    for (auto it = object->begin(); it != object->end(); ++it)
      keys[it.key()] = true;
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    const std::string &key = it.key();
    nlohmann::json a = saved.value(key, nlohmann::json());
    nlohmann::json b = now.value(key, nlohmann::json());
    if (!mayChangeOnResume(key) && a != b)
      return key + ": " + a.dump() + " in the checkpoint, " + b.dump() + " now";
  }
  return "";
}

/// Runs written before the environment's settings moved into config.json
/// kept them in env.json: they count as the checkpoint's.
Status addEnvOfEarlierRuns(nlohmann::json &savedConfig,
                           const std::string &runDir) {
  std::string path = runDir + "/env.json";
  std::error_code ec;
  if (savedConfig.contains("env") || !fs::is_regular_file(path, ec))
    return Status::success();
  auto env = readJsonFile(path);
  if (!env)
    return env.error();
  savedConfig["env"] = *env;
  return Status::success();
}

} // namespace

Result<std::unique_ptr<DiscreteRun>>
DiscreteRun::open(const std::string &runDir, RunSettings settings,
                  DiscreteShape shape, const TrainOptions &options) {
  agent::RunSettings files;
  files.config = settings.config;
  files.iterations = settings.iterations;
  files.checkpointEvery = settings.checkpointEvery;
  if (options.showProgress)
    files.progressTitle = settings.algorithm;
  files.stopRequested = options.stopRequested;
  files.onIteration = options.onIteration;
  auto opened = TrainingRun::open(runDir, std::move(files));
  if (!opened)
    return opened.error();
  std::unique_ptr<DiscreteRun> run(new DiscreteRun());
  run->run = std::move(*opened);
  run->settings = std::move(settings);
  run->envShape = shape;
  if (!options.resume || !run->run->hasCheckpoint()) {
    if (Status s = run->run->startFresh(); !s)
      return s.error();
    return run;
  }

  std::string path = run->checkpointPath();
  run->resumedArchive = std::make_unique<torch::serialize::InputArchive>();
  auto loaded =
      loadArchiveWithMeta(*run->resumedArchive, path, "checkpoint",
                          kCheckpointFormat, "not a discrete-agent checkpoint");
  if (!loaded)
    return loaded.error();
  nlohmann::json &meta = *loaded;
  std::string algorithm;
  int64_t observationSize = -1, actionCount = -1;
  int iteration = 0;
  for (Status s : {readField(meta, "algorithm", algorithm, path),
                   readField(meta, "observation_size", observationSize, path),
                   readField(meta, "action_count", actionCount, path),
                   readField(meta, "iteration", iteration, path)})
    if (!s)
      return makeError(s.error().message + " in the checkpoint's metadata");
  if (!meta["config"].is_object())
    return makeError(path + ": the checkpoint's metadata has no config");
  if (algorithm != run->settings.algorithm)
    return makeError(path + ": written by a " + algorithm +
                     " run, but the config says " + run->settings.algorithm);
  if (observationSize != shape.observationSize ||
      actionCount != shape.actionCount)
    return makeError(path + ": trained with " +
                     std::to_string(observationSize) + " features and " +
                     std::to_string(actionCount) +
                     " actions; this environment has " +
                     std::to_string(shape.observationSize) + " and " +
                     std::to_string(shape.actionCount));
  nlohmann::json &saved = meta["config"];
  if (Status s = addEnvOfEarlierRuns(saved, runDir); !s)
    return s.error();
  // Keys added to the config since the run was written take their defaults.
  if (auto earlier = AgentConfig::fromJson(saved, path)) {
    nlohmann::json env = saved.value("env", nlohmann::json());
    saved = earlier->toJson();
    if (!env.is_null())
      saved["env"] = std::move(env);
  }
  std::string difference = firstDifference(saved, run->settings.config);
  if (!difference.empty())
    return makeError(path + ": written with another config (" + difference +
                     "); resume with the run's config.json");
  if (meta.contains("best_greedy_return")) {
    double best = 0;
    if (Status s = readField(meta, "best_greedy_return", best, path); !s)
      return makeError(s.error().message + " in the checkpoint's metadata");
    run->bestGreedyReturn = best;
  }
  if (Status s = run->run->resumeAfter(iteration); !s)
    return s.error();
  return run;
}

Result<DiscreteShape>
trainingShape(const Env &env, const std::vector<BenchmarkRef> &benchmarks) {
  auto shape = discreteShape(env.spaces());
  if (!shape)
    return shape.error();
  if (benchmarks.empty())
    return makeError("no benchmarks to train on");
  return shape;
}

DiscreteRun::Iteration DiscreteRun::beginIteration(int iteration) {
  uint64_t seed = settings.seed * 1000003 + iteration;
  torch::manual_seed(seed);
  Iteration begun{std::mt19937_64(seed), IterationMetrics()};
  begun.metrics.iteration = iteration;
  return begun;
}

Status DiscreteRun::keepInCheckpoint(std::vector<CheckpointPart> parts) {
  checkpointParts = std::move(parts);
  if (!resumedArchive)
    return Status::success();
  for (const CheckpointPart &part : checkpointParts)
    if (Status s = part.read(*resumedArchive, checkpointPath()); !s)
      return s;
  resumedArchive.reset();
  return Status::success();
}

Status DiscreteRun::endIteration(IterationMetrics &metrics,
                                 const std::vector<nlohmann::json> &episodes,
                                 Mlp policy, EpisodeLoop &loop) {
  int every = settings.keepBestEvery;
  if (every > 0 && (metrics.iteration % every == 0 ||
                    metrics.iteration == run->lastIteration()))
    if (Status s = keepIfBest(metrics, policy, loop); !s)
      return s;
  auto stop = run->endIteration(metrics, episodes, [&](int iteration) {
    return saveCheckpoint(iteration);
  });
  if (!stop)
    return stop.error();
  stopRequested = *stop;
  return Status::success();
}

Status DiscreteRun::saveCheckpoint(int iteration) {
  torch::serialize::OutputArchive archive;
  for (const CheckpointPart &part : checkpointParts)
    part.write(archive);
  nlohmann::json meta = {{"format", kCheckpointFormat},
                         {"algorithm", settings.algorithm},
                         {"config", settings.config},
                         {"observation_size", envShape.observationSize},
                         {"action_count", envShape.actionCount},
                         {"iteration", iteration},
                         {"total_steps", run->totalSteps()},
                         {"elapsed_s", run->elapsedSeconds()}};
  if (bestGreedyReturn)
    meta["best_greedy_return"] = *bestGreedyReturn;
  writeArchiveMeta(archive, meta);
  return saveArchive(archive, checkpointPath(), "checkpoint");
}

namespace {

DiscretePolicy policyOf(Mlp net, const DiscreteShape &shape,
                        const RunSettings &settings) {
  auto impl = std::make_unique<DiscretePolicy::Impl>();
  impl->net = net;
  impl->shape = shape;
  impl->network = settings.network;
  impl->algorithm = settings.algorithm;
  impl->config = settings.config;
  return DiscretePolicy(std::move(impl));
}

} // namespace

Status DiscreteRun::keepIfBest(IterationMetrics &metrics, Mlp policy,
                               EpisodeLoop &loop) {
  // The last iteration's policy is not always the best one: value-based
  // learners swing from one iteration to the next. Training programs
  // choose, never the ones a policy is evaluated on.
  auto greedy = loop.greedyReturn(policyOf(policy, envShape, settings));
  if (!greedy)
    return greedy.error();
  if (std::isnan(*greedy))
    return Status::success();
  metrics.learning["greedy_return"] = *greedy;
  // Of equal scores the later policy, which has trained longer.
  if (bestGreedyReturn && *greedy < *bestGreedyReturn)
    return Status::success();
  bestGreedyReturn = *greedy;
  return writePolicy(policy);
}

Status DiscreteRun::savePolicy(Mlp net) {
  if (settings.keepBestEvery > 0 && bestGreedyReturn)
    return Status::success();
  return writePolicy(net);
}

Status DiscreteRun::writePolicy(Mlp net) {
  return policyOf(net, envShape, settings).save(run->path("policy.pt"));
}

void writeModule(torch::serialize::OutputArchive &archive,
                 const std::string &prefix, const torch::nn::Module &module) {
  for (const auto &item : module.named_parameters())
    archive.write(prefix + "." + item.key(), item.value());
  for (const auto &item : module.named_buffers())
    archive.write(prefix + "." + item.key(), item.value(), /*is_buffer=*/true);
}

Status readModule(torch::serialize::InputArchive &archive,
                  const std::string &prefix, torch::nn::Module &module,
                  const std::string &where) {
  torch::NoGradGuard noGrad;
  auto read = [&](const std::string &key, torch::Tensor &target,
                  bool isBuffer) -> Status {
    torch::Tensor stored;
    if (!archive.try_read(prefix + "." + key, stored, isBuffer) ||
        !stored.sizes().equals(target.sizes()))
      return makeError(where + ": " + prefix + "." + key +
                       " is missing or has another shape");
    target.copy_(stored);
    return Status::success();
  };
  for (auto &item : module.named_parameters())
    if (Status s = read(item.key(), item.value(), false); !s)
      return s;
  for (auto &item : module.named_buffers())
    if (Status s = read(item.key(), item.value(), true); !s)
      return s;
  return Status::success();
}

void writeOptimizer(torch::serialize::OutputArchive &archive,
                    const std::string &key,
                    const torch::optim::Optimizer &optimizer) {
  torch::serialize::OutputArchive nested;
  optimizer.save(nested);
  archive.write(key, nested);
}

Status readOptimizer(torch::serialize::InputArchive &archive,
                     const std::string &key, torch::optim::Optimizer &optimizer,
                     const std::string &where) {
  torch::serialize::InputArchive nested;
  if (!archive.try_read(key, nested))
    return makeError(where + ": the checkpoint has no " + key + " state");
  try {
    optimizer.load(nested);
  } catch (const std::exception &) {
    return makeError(where + ": the " + key + " state does not fit");
  }
  return Status::success();
}

CheckpointPart moduleState(const std::string &key, torch::nn::Module &module) {
  return {[key, &module](torch::serialize::OutputArchive &archive) {
            writeModule(archive, key, module);
          },
          [key, &module](torch::serialize::InputArchive &archive,
                         const std::string &where) {
            return readModule(archive, key, module, where);
          }};
}

CheckpointPart optimizerState(const std::string &key,
                              torch::optim::Optimizer &optimizer) {
  return {[key, &optimizer](torch::serialize::OutputArchive &archive) {
            writeOptimizer(archive, key, optimizer);
          },
          [key, &optimizer](torch::serialize::InputArchive &archive,
                            const std::string &where) {
            return readOptimizer(archive, key, optimizer, where);
          }};
}

CheckpointPart tensorState(const std::string &key, torch::Tensor tensor) {
  return {[key, tensor](torch::serialize::OutputArchive &archive) {
            archive.write(key, tensor.detach());
          },
          [key, tensor](torch::serialize::InputArchive &archive,
                        const std::string &where) mutable -> Status {
            torch::Tensor stored;
            if (!archive.try_read(key, stored) ||
                !stored.sizes().equals(tensor.sizes()))
              return makeError(where + ": " + key +
                               " is missing or has another shape");
            torch::NoGradGuard noGrad;
            tensor.copy_(stored);
            return Status::success();
          }};
}

} // namespace rlopt::agent::discrete
