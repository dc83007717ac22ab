// rlopt train --config C --suite DIR[,DIR...] --out RUN_DIR [--resume]
#include "Args.h"
#include "Commands.h"
#include "CostModelOption.h"

#include "rlopt/agent/Cluster.h"
#include "rlopt/agent/linalg/Ppo.h"
#include "rlopt/data/Suite.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>

namespace rlopt::tool {

static std::atomic<bool> stopRequested{false};

static void requestStop(int) { stopRequested = true; }

int runTrain(int argc, char **argv) {
  Args args({"config", "suite", "out", "workers", "iterations"}, {"resume"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("train: " + *error);
  if (!args.positional().empty())
    return fail("train: unexpected argument '" + args.positional()[0] + "'");
  for (const char *required : {"suite", "out"})
    if (!args.has(required))
      return fail(std::string("train: --") + required + " is required");
  agent::PpoConfig config;
  if (args.has("config")) {
    auto loaded = agent::PpoConfig::load(args.get("config"));
    if (!loaded)
      return fail(loaded.error().message);
    config = *loaded;
  }
  std::string error;
  config.workers = args.getInt("workers", config.workers, 1, 64, error);
  config.iterations =
      args.getInt("iterations", config.iterations, 1, 1000000, error);
  if (!error.empty())
    return fail("train: " + error);
  if (config.imitationEpochs > 0 && config.imitationSearchBudget > 0 &&
      config.imitationDemonstrations.empty()) {
    auto model = costModelPath(config.imitationCostModel,
                               "\"imitation_cost_model\": \"none\"");
    if (!model)
      return fail("train: " + args.get("config") + ": " +
                  model.error().message);
    config.imitationCostModel = model->empty() ? "none" : *model;
  }

  agent::TrainOptions options;
  options.runDir = args.get("out");
  options.resume = args.has("resume");
  options.stopRequested = &stopRequested;
  // Several suites train one policy on the union of their train splits, so
  // a recipe can mix the table's layers with random shapes.
  std::vector<std::string> dirs = splitList(args.get("suite"));
  if (dirs.empty())
    return fail("train: --suite names no suite");
  for (size_t i = 0; i < dirs.size(); ++i) {
    if (std::find(dirs.begin(), dirs.begin() + i, dirs[i]) != dirs.begin() + i)
      return fail("train: --suite: '" + dirs[i] + "' is given twice");
    auto suite = data::loadSuite(dirs[i]);
    if (!suite)
      return fail(suite.error().message);
    size_t before = options.trainPrograms.size();
    for (const data::BenchmarkSpec &b : suite->benchmarks) {
      if (b.split == "train")
        options.trainPrograms.push_back(suite->path(b));
      else if (b.split == "validation")
        options.validationPrograms.push_back(suite->path(b));
    }
    if (options.trainPrograms.size() == before)
      return fail(dirs[i] + ": no program in the train split");
  }
  std::string teacher =
      !config.imitationDemonstrations.empty() ? "saved"
      : config.imitationSearchBudget > 0
          ? "search:" + std::to_string(config.imitationSearchBudget)
          : "heuristic";
  options.onImitation = [&teacher](const agent::ImitationReport &r) {
    std::fprintf(stderr,
                 "imitation: %d %s schedules (geomean %.2fx, %d failed "
                 "and left out), %d steps; demonstrated actions now have "
                 "probability %.2f  (%.0fs measuring, %.0fs learning)\n",
                 r.demonstrations, teacher.c_str(), r.demonstrationGeomean,
                 r.skipped, r.steps, r.actionProbability, r.collectSeconds,
                 r.learnSeconds);
  };
  std::signal(SIGINT, requestStop);
  std::signal(SIGTERM, requestStop);
  // Under mpirun only the learner (rank 0) speaks and writes the run; the
  // other ranks roll out episodes with `workers` environment processes each.
  agent::Cluster &cluster = agent::Cluster::get();
  std::string ranks = cluster.distributed()
                          ? " on each of " +
                                std::to_string(cluster.size() - 1) +
                                " rollout ranks"
                          : "";
  if (cluster.learner())
    std::fprintf(stderr, "train: %zu training programs, %d workers%s, run %s\n",
                 options.trainPrograms.size(), config.workers, ranks.c_str(),
                 options.runDir.c_str());
  Status status =
      agent::trainPpo(config, options, [&](const agent::IterationMetrics &m) {
        // elapsed_s is the PPO time of the run, summed across resumes.
        double perIteration = m.elapsedSeconds / m.iteration;
        double eta = perIteration * (config.iterations - m.iteration);
        char validation[32] = "";
        if (m.validationGeomean >= 0)
          std::snprintf(validation, sizeof validation, "  val %.2fx",
                        m.validationGeomean);
        // Iterations with predicted rewards measured nothing.
        bool predicted = m.geomeanSpeedup < 0;
        std::fprintf(stderr,
                     "iter %d/%d  episodes %d  reward %.3f  %s %.2fx  "
                     "entropy %.3f  pi %.3f  v %.3f%s  ETA %.0fs\n",
                     m.iteration, config.iterations, m.episodes, m.meanReward,
                     predicted ? "predicted" : "geomean",
                     predicted ? m.learned("predicted_speedup")
                               : m.geomeanSpeedup,
                     m.learned("entropy"), m.learned("policy_loss"),
                     m.learned("value_loss"), validation, eta);
      });
  if (!status)
    return cluster.finish(fail(status.error().message, ExitFailure));
  if (!cluster.learner())
    return ExitOk;
  std::fprintf(stderr, "train: %s\n",
               stopRequested ? "stopped; checkpoint saved (--resume continues)"
                             : "done");
  return ExitOk;
}

} // namespace rlopt::tool
