#include "rlopt/agent/TrainingRun.h"

#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace rlopt::agent {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const char *const kMetrics = "metrics.jsonl";
const char *const kEpisodes = "episodes.jsonl";

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

double IterationMetrics::learned(const std::string &key) const {
  auto it = learning.find(key);
  return it == learning.end() ? std::nan("") : it->second;
}

nlohmann::json IterationMetrics::toJson() const {
  nlohmann::json json = {
      {"iteration", iteration},    {"episodes", episodes},
      {"failures", failures},      {"steps", steps},
      {"total_steps", totalSteps}, {"mean_reward", meanReward},
      {"best_return", bestReturn}};
  if (geomeanSpeedup >= 0)
    json["geomean_speedup"] = geomeanSpeedup;
  if (validationGeomean >= 0)
    json["validation_geomean_speedup"] = validationGeomean;
  for (const auto &[key, value] : learning)
    json[key] = value;
  nlohmann::json time = {{"environment_s", environmentSeconds},
                         {"learn_s", learnSeconds},
                         {"elapsed_s", elapsedSeconds}};
  if (inferenceSeconds >= 0)
    time["inference_s"] = inferenceSeconds;
  if (compileSeconds >= 0)
    time["compile_s"] = compileSeconds;
  json["time"] = std::move(time);
  return json;
}

Result<std::unique_ptr<TrainingRun>> TrainingRun::open(const std::string &dir,
                                                       RunSettings settings) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": cannot create the run directory");
  // Two processes in one directory would interleave their metrics and
  // overwrite each other's checkpoints.
  Result<FileLock> lock =
      FileLock::acquire(dir + "/run.lock", "run directory " + dir);
  if (!lock)
    return lock.error();
  std::unique_ptr<TrainingRun> run(new TrainingRun(lock.takeValue()));
  run->dir = dir;
  run->settings = std::move(settings);
  // A run killed while saving left its temporary files behind.
  for (const std::string &file : run->settings.stateFiles)
    removeLeftoverTemporaries(run->path(file));
  for (const char *file : {kMetrics, kEpisodes, "config.json", "policy.pt"})
    removeLeftoverTemporaries(run->path(file));
  return run;
}

TrainingRun::~TrainingRun() {
  if (progress)
    progress->finish();
}

bool TrainingRun::hasCheckpoint() const {
  std::error_code ec;
  return fs::exists(path(settings.stateFiles.front()), ec);
}

Status TrainingRun::resumeAfter(int iteration) {
  resumedIteration = iteration;
  auto last = keepRecordsUpToIteration(path(kMetrics), iteration);
  if (!last)
    return last.error();
  if (auto kept = keepRecordsUpToIteration(path(kEpisodes), iteration); !kept)
    return kept.error();
  steps = last->value("total_steps", int64_t(0));
  elapsedBefore =
      last->value(nlohmann::json::json_pointer("/time/elapsed_s"), 0.0);
  return begin();
}

Status TrainingRun::startFresh() {
  // A fresh run in a used directory: nothing of the old run may resume.
  std::error_code ec;
  for (const std::string &file : settings.stateFiles)
    fs::remove(path(file), ec);
  for (const char *file : {kMetrics, kEpisodes})
    if (Status s = writeFileAtomically(path(file), ""); !s)
      return s;
  resumedIteration = 0;
  steps = 0;
  elapsedBefore = 0;
  return begin();
}

Status TrainingRun::begin() {
  // Written only now: a resume the trainer refused keeps the run's config.
  if (Status s = writeFileAtomically(path("config.json"),
                                     settings.config.dump(2) + "\n");
      !s)
    return s;
  if (!settings.progressTitle.empty())
    progress = std::make_unique<ProgressBar>(settings.progressTitle,
                                             settings.iterations);
  start = Clock::now();
  return Status::success();
}

double TrainingRun::elapsedSeconds() const {
  return elapsedBefore +
         std::chrono::duration<double>(Clock::now() - start).count();
}

Status TrainingRun::appendLines(const std::string &file,
                                const std::string &text) const {
  std::ofstream out(path(file), std::ios::app);
  out << text;
  out.flush();
  if (!out)
    return makeError(path(file) + ": cannot append the iteration's lines");
  return Status::success();
}

Result<bool>
TrainingRun::endIteration(IterationMetrics &metrics,
                          const std::vector<nlohmann::json> &episodes,
                          const std::function<Status(int)> &saveCheckpoint) {
  steps += metrics.steps;
  metrics.totalSteps = steps;
  metrics.elapsedSeconds = elapsedSeconds();
  std::string episodeLines;
  for (const nlohmann::json &episode : episodes) {
    nlohmann::json line = episode;
    line["iteration"] = metrics.iteration;
    episodeLines += line.dump() + "\n";
  }
  if (Status s = appendLines(kEpisodes, episodeLines); !s)
    return s.error();
  if (Status s = appendLines(kMetrics, metrics.toJson().dump() + "\n"); !s)
    return s.error();
  if (progress)
    progress->update(metrics.iteration, progressLabel(metrics));
  if (settings.onIteration)
    settings.onIteration(metrics);
  bool stopping = stopRequested();
  if (metrics.iteration % std::max(1, settings.checkpointEvery) == 0 ||
      metrics.iteration >= settings.iterations || stopping)
    if (Status s = saveCheckpoint(metrics.iteration); !s)
      return s.error();
  return stopping;
}

} // namespace rlopt::agent
