// rlopt optimize FILE [--policy P] [-o OUT.mlir] [--emit-schedule]
//                [--emit-transform T.mlir] [--search N] [--threads N] [--json]
// Runs the policy greedily on the program (and optionally N sampled
// schedules), measures, and keeps the best correct schedule.
#include "Args.h"
#include "Commands.h"
#include "rlopt/core/File.h"

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/agent/linalg/PolicyRunner.h"
#include "rlopt/agent/linalg/TrainedEnv.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/LinalgEnv.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <iostream>

namespace rlopt::tool {

int runOptimize(int argc, char **argv) {
  Args args(
      {"policy", "output", "emit-transform", "search", "threads", "db", "seed"},
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
  std::string policyPath =
      args.get("policy", std::string(RLOPT_DATA_DIR) + "/policies/default.pt");

  // The environment process forks before LibTorch starts.
  linalg::EnvConfig envConfig;
  envConfig.measure.threads = threads;
  if (args.has("db"))
    envConfig.cachePath = args.get("db");
  // The policy runs with the action settings it was trained with.
  auto trained = agent::withTrainedActions(policyPath, envConfig);
  if (!trained)
    return fail("optimize: " + trained.error().message);
  envConfig = *trained;
  auto server = agent::EnvServer::spawn([envConfig] {
    return std::unique_ptr<Env>(new linalg::LinalgEnv(envConfig));
  });
  if (!server)
    return fail(server.error().message, ExitFailure);

  auto policy = agent::LinalgPolicy::load(
      policyPath, linalg::LinalgEnv(envConfig).actionLayout());
  if (!policy)
    return fail(policy.error().message);

  auto found = agent::bestPolicySchedule(*server, **policy, file, search, seed);
  server->close();
  if (!found)
    return fail(file + ": " + found.error().message);
  const agent::PolicyEpisode &best = *found;

  if (args.has("output") || args.has("emit-transform")) {
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
    if (args.has("output")) {
      mlir::OwningOpRef<mlir::ModuleOp> result = program->module.get().clone();
      if (!schedule->empty())
        if (Status s = linalg::applyTransformScript(*result, *script); !s)
          return fail(file + ": " + s.error().message, ExitFailure);
      std::string ir;
      llvm::raw_string_ostream os(ir);
      result->print(os);
      if (Status s = writeFileAtomically(args.get("output"), ir); !s)
        return fail(s.error().message);
    }
  }

  if (args.has("json")) {
    std::cout << nlohmann::json{{"speedup", best.speedup},
                                {"correct", best.correct},
                                {"schedule", best.schedule},
                                {"error", best.error},
                                {"measurement", best.measurement},
                                {"sampled", search}}
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
