// rlopt optimize FILE [--policy P] [-o OUT.mlir] [--emit-schedule]
//                [--emit-transform T.mlir] [--emit-program P.mlir]
//                [--search N] [--threads N] [--json]
//                [--budget N [--cost-model M|none]]
// Runs the policy greedily on the program (and optionally N sampled
// schedules), or with --budget the cost model's search measuring N
// schedules (with --policy, the policy's proposals among its candidates);
// keeps the best correct schedule.
#include "Args.h"
#include "Commands.h"
#include "CostModelOption.h"
#include "rlopt/core/File.h"

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/agent/linalg/PolicyRunner.h"
#include "rlopt/agent/linalg/TrainedEnv.h"
#include "rlopt/costmodel/ScheduleSearch.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/LinalgEnv.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <iostream>

namespace rlopt::tool {

namespace {

/// `--policy` (the shipped one by default) in an environment with the
/// action settings it was trained with and `reward`.
Result<agent::RunningPolicy> startPolicy(const Args &args, long threads,
                                         linalg::RewardMode reward) {
  std::string policyPath =
      args.get("policy", std::string(RLOPT_DATA_DIR) + "/policies/default.pt");
  linalg::EnvConfig envConfig;
  envConfig.measure.threads = threads;
  if (args.has("db"))
    envConfig.cachePath = args.get("db");
  auto trained = agent::withTrainedActions(policyPath, envConfig);
  if (!trained)
    return makeError("optimize: " + trained.error().message);
  trained->reward = reward;
  return agent::startPolicy(policyPath, *trained);
}

/// The policy's greedy schedule and `samples` sampled ones, the best.
Result<agent::PolicyEpisode> runPolicy(const Args &args,
                                       const std::string &file, long samples,
                                       long threads, long seed) {
  auto running = startPolicy(args, threads, linalg::RewardMode::Final);
  if (!running)
    return running.error();
  auto found = agent::bestPolicySchedule(*running->server, *running->policy,
                                         file, samples, seed);
  if (!found)
    return makeError(file + ": " + found.error().message);
  return found;
}

/// The cost model's search, measuring `budget` schedules.
Result<agent::PolicyEpisode> searchWithCostModel(const Args &args,
                                                 const std::string &file,
                                                 long budget, long threads,
                                                 long seed, int &code) {
  auto modelPath = costModelPath(args.get("cost-model", ""));
  if (!modelPath)
    return makeError("optimize: " + modelPath.error().message);
  // With --policy, the policy's proposals join the search; its episodes
  // measure nothing.
  std::optional<agent::RunningPolicy> running;
  if (args.has("policy")) {
    auto started = startPolicy(args, threads, linalg::RewardMode::None);
    if (!started)
      return started.error();
    running = std::move(*started);
  }
  std::optional<costmodel::CostModel> model;
  if (!modelPath->empty()) {
    auto loaded = costmodel::CostModel::load(*modelPath);
    if (!loaded)
      return loaded.error();
    model = std::move(*loaded);
  }
  auto context = linalg::createContext();
  auto program = linalg::loadProgram(*context, file);
  if (!program)
    return program.error();
  auto cache = measure::Cache::openOrDefault(args.get("db", ""));
  if (!cache)
    return cache.error();
  costmodel::SearchOptions search;
  search.budget = static_cast<int>(budget);
  search.seed = static_cast<uint64_t>(seed);
  search.heuristic.threads = static_cast<int>(threads);
  if (model)
    search.model = &*model;
  if (running) {
    auto proposed = agent::proposePolicySchedules(
        *running->server, *running->policy, file, agent::kSearchPolicySamples,
        static_cast<uint64_t>(seed));
    if (!proposed) {
      code = ExitFailure;
      return makeError(file + ": " + proposed.error().message);
    }
    search.proposals = std::move(*proposed);
  }
  linalg::MeasureOptions measure;
  measure.threads = static_cast<int>(threads);
  auto found =
      costmodel::searchSchedule(*program, search, measure, cache->get());
  if (!found) {
    code = ExitFailure;
    return makeError(file + ": " + found.error().message);
  }
  agent::PolicyEpisode best;
  best.schedule = found->schedule.str();
  best.speedup = found->measurement.speedup;
  best.correct = found->measurement.correct;
  best.measurement = found->measurement.toJson();
  return best;
}

} // namespace

int runOptimize(int argc, char **argv) {
  Args args({"policy", "output", "emit-transform", "emit-program", "search",
             "threads", "db", "seed", "budget", "cost-model"},
            {"emit-schedule", "json"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("optimize: " + *error);
  if (args.positional().size() != 1)
    return fail("optimize: expected one FILE");
  std::string file = args.positional()[0];
  std::string error;
  long search = args.getInt("search", 0, 0, 100000, error);
  long threads = args.getInt("threads", 1, 1, 1024, error);
  long seed = args.getInt("seed", 0, 0, 1l << 40, error);
  if (!error.empty())
    return fail("optimize: " + error);
  long budget = args.getInt("budget", 8, 1, 100000, error);
  if (!error.empty())
    return fail("optimize: " + error);
  if (args.has("budget") && args.has("search"))
    return fail("optimize: --budget searches with the cost model; it does "
                "not take --search (--policy adds the policy's proposals)");
  if (args.has("cost-model") && !args.has("budget"))
    return fail("optimize: --cost-model needs --budget N");
  int code = ExitUsage;
  auto found =
      args.has("budget")
          ? searchWithCostModel(args, file, budget, threads, seed, code)
          : runPolicy(args, file, search, threads, seed);
  if (!found)
    return fail(found.error().message, code);
  const agent::PolicyEpisode &best = *found;

  if (args.has("output") || args.has("emit-transform") ||
      args.has("emit-program")) {
    auto context = linalg::createContext();
    auto program = linalg::loadProgram(*context, file);
    if (!program)
      return fail(program.error().message);
    auto schedule = linalg::parseSchedule(best.schedule);
    auto script = schedule ? linalg::buildTransformScript(*program, *schedule)
                           : Result<std::string>(schedule.error());
    if (!script)
      return fail(file + ": " + script.error().message, ExitFailure);
    if (args.has("emit-transform"))
      if (Status s = writeFileAtomically(args.get("emit-transform"), *script);
          !s)
        return fail(s.error().message);
    if (args.has("emit-program"))
      if (Status s =
              writeFileAtomically(args.get("emit-program"),
                                  linalg::printedModule(*program->module));
          !s)
        return fail(s.error().message);
    if (args.has("output")) {
      mlir::OwningOpRef<mlir::ModuleOp> result = program->module.get().clone();
      if (!schedule->empty())
        if (Status s = linalg::applyTransformScript(*result, *script); !s)
          return fail(file + ": " + s.error().message, ExitFailure);
      if (Status s = writeFileAtomically(args.get("output"),
                                         linalg::printedModule(*result));
          !s)
        return fail(s.error().message);
    }
  }

  if (args.has("json")) {
    std::cout << nlohmann::json{{"speedup", best.speedup},
                                {"correct", best.correct},
                                {"schedule", best.schedule},
                                {"error", best.error},
                                {"measurement", best.measurement},
                                {"sampled", search},
                                {"budget", args.has("budget") ? budget : 0}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("%s\n", file.c_str());
    if (!best.schedule.empty()) {
      std::string text = best.schedule;
      size_t start = 0;
      while (start < text.size()) {
        size_t end = text.find("; ", start);
        std::printf("  %s\n", text.substr(start, end - start).c_str());
        if (end == std::string::npos)
          break;
        start = end + 2;
      }
    } else {
      std::printf("  (no transformation)\n");
    }
    if (!best.error.empty())
      std::printf("  error: %s\n", best.error.c_str());
    if (!best.measurement.is_null())
      std::printf("  baseline %.3f ms, optimized %.3f ms, speedup %.2fx, "
                  "correct %s\n",
                  best.measurement.value("baseline_ms", 0.0),
                  best.measurement.value("candidate_ms", 0.0), best.speedup,
                  best.correct ? "yes" : "NO");
    if (args.has("emit-schedule"))
      std::printf("schedule: %s\n", best.schedule.c_str());
  }
  return best.correct ? ExitOk : ExitFailure;
}

} // namespace rlopt::tool
