#include "TrainingRun.h"

#include "PolicyImpl.h"
#include "rlopt/agent/Archive.h"
#include "rlopt/core/Json.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace rlopt::agent::discrete {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char *kCheckpointFormat = "rlopt-discrete-checkpoint";

/// Config keys a resumed run may change: neither alters what is learned.
bool mayChangeOnResume(const std::string &key) {
  return key == "iterations" || key == "checkpoint_every";
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

std::string progressLabel(const IterationMetrics &m) {
  char text[64];
  std::snprintf(text, sizeof(text), "return %.4g", m.meanReward);
  std::string label = text;
  for (const char *key : {"entropy", "value_loss", "epsilon", "alpha"}) {
    auto it = m.learning.find(key);
    if (it == m.learning.end())
      continue;
    std::snprintf(text, sizeof(text), "  %s %.3g", key, it->second);
    label += text;
  }
  return label;
}

} // namespace

Result<std::unique_ptr<TrainingRun>>
TrainingRun::open(const std::string &runDir, RunSettings settings,
                  DiscreteShape shape, const TrainOptions &options) {
  std::error_code ec;
  fs::create_directories(runDir, ec);
  if (ec)
    return makeError(runDir + ": cannot create the run directory");
  std::unique_ptr<TrainingRun> run(new TrainingRun());
  run->dir = runDir;
  run->settings = std::move(settings);
  run->shape = shape;
  run->options = options;
  std::string metricsPath = runDir + "/metrics.jsonl";
  std::string path = run->checkpointPath();
  // A run killed while saving left its temporary files behind.
  for (const std::string &saved :
       {path, runDir + "/policy.pt", metricsPath, runDir + "/config.json",
        runDir + "/env.json"})
    removeLeftoverTemporaries(saved);

  if (options.resume && fs::exists(path)) {
    run->resumedArchive = std::make_unique<torch::serialize::InputArchive>();
    if (Status s = loadArchive(*run->resumedArchive, path, "checkpoint"); !s)
      return s.error();
    c10::IValue metaValue;
    if (!run->resumedArchive->try_read("meta", metaValue) ||
        !metaValue.isString())
      return makeError(path + ": not an rlopt checkpoint (no metadata)");
    auto meta = nlohmann::json::parse(metaValue.toStringRef(), nullptr, false);
    if (meta.is_discarded() || meta.value("format", "") != kCheckpointFormat)
      return makeError(path + ": not a discrete-agent checkpoint");
    std::string algorithm = meta.value("algorithm", "");
    if (algorithm != run->settings.algorithm)
      return makeError(path + ": written by a " + algorithm +
                       " run, but the config says " + run->settings.algorithm);
    if (meta.value("observation_size", -1) != shape.observationSize ||
        meta.value("action_count", -1) != shape.actionCount)
      return makeError(path + ": trained with " +
                       meta["observation_size"].dump() + " features and " +
                       meta["action_count"].dump() +
                       " actions; this environment has " +
                       std::to_string(shape.observationSize) + " and " +
                       std::to_string(shape.actionCount));
    std::string difference =
        firstDifference(meta["config"], run->settings.config);
    if (!difference.empty())
      return makeError(path + ": written with another config (" + difference +
                       "); resume with the run's config.json");
    run->resumedIteration = meta.value("iteration", 0);
    run->steps = meta.value("total_steps", int64_t(0));
    run->elapsedBefore = meta.value("elapsed_s", 0.0);
    run->savedState = meta["state"];
    if (auto kept =
            keepRecordsUpToIteration(metricsPath, run->resumedIteration);
        !kept)
      return kept.error();
  } else if (Status s = writeFileAtomically(metricsPath, ""); !s) {
    return s.error();
  }
  if (Status s = writeFileAtomically(runDir + "/config.json",
                                     run->settings.config.dump(2) + "\n");
      !s)
    return s.error();
  if (options.showProgress)
    run->progress = std::make_unique<ProgressBar>(run->settings.algorithm,
                                                  run->settings.iterations);
  run->start = Clock::now();
  return run;
}

TrainingRun::~TrainingRun() {
  if (progress)
    progress->finish();
}

std::mt19937_64 TrainingRun::beginIteration(int iteration) {
  uint64_t seed = settings.seed * 1000003 + iteration;
  torch::manual_seed(seed);
  return std::mt19937_64(seed);
}

Result<bool> TrainingRun::endIteration(IterationMetrics &metrics,
                                       const StateWriter &writeState) {
  steps += metrics.steps;
  metrics.totalSteps = steps;
  metrics.elapsedSeconds =
      elapsedBefore +
      std::chrono::duration<double>(Clock::now() - start).count();
  std::string metricsPath = dir + "/metrics.jsonl";
  {
    std::ofstream out(metricsPath, std::ios::app);
    out << metrics.toJson().dump() << "\n";
    if (!out)
      return makeError(metricsPath + ": cannot append the iteration's line");
  }
  if (progress)
    progress->update(metrics.iteration, progressLabel(metrics));
  if (options.onIteration)
    options.onIteration(metrics);
  bool stopping = options.stopRequested && options.stopRequested->load();
  if (metrics.iteration % settings.checkpointEvery == 0 ||
      metrics.iteration >= settings.iterations || stopping)
    if (Status s = saveCheckpoint(metrics.iteration, writeState); !s)
      return s.error();
  return stopping;
}

Status TrainingRun::saveCheckpoint(int iteration,
                                   const StateWriter &writeState) {
  torch::serialize::OutputArchive archive;
  nlohmann::json state = writeState(archive);
  nlohmann::json meta = {
      {"format", kCheckpointFormat},
      {"algorithm", settings.algorithm},
      {"config", settings.config},
      {"observation_size", shape.observationSize},
      {"action_count", shape.actionCount},
      {"iteration", iteration},
      {"total_steps", steps},
      {"elapsed_s",
       elapsedBefore +
           std::chrono::duration<double>(Clock::now() - start).count()},
      {"state", state}};
  archive.write("meta", c10::IValue(meta.dump()));
  return saveArchive(archive, checkpointPath(), "checkpoint");
}

Status TrainingRun::savePolicy(Mlp net) {
  auto impl = std::make_unique<DiscretePolicy::Impl>();
  impl->net = net;
  impl->shape = shape;
  impl->network = settings.network;
  impl->algorithm = settings.algorithm;
  impl->config = settings.config;
  return DiscretePolicy(std::move(impl)).save(dir + "/policy.pt");
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
  } catch (const c10::Error &) {
    return makeError(where + ": the " + key + " state does not fit");
  }
  return Status::success();
}

} // namespace rlopt::agent::discrete
