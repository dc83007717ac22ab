// rlopt optimize FILE [--policy P] [-o OUT.mlir] [--emit-schedule]
//                [--emit-transform T.mlir] [--search N] [--threads N] [--json]
// Runs the policy greedily on the program (and optionally N sampled
// schedules), measures, and keeps the best correct schedule.
#include "Args.h"
#include "Common.h"

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/agent/linalg/Ppo.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/LinalgEnv.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <iostream>

namespace rlopt::tool {

namespace {

struct Episode {
  double speedup = 0;
  bool correct = false;
  std::string schedule, error;
  nlohmann::json measurement;
};

Result<Episode> runEpisode(agent::EnvServer &server,
                           agent::LinalgPolicy &policy, const std::string &file,
                           bool greedy, uint64_t seed) {
  server.sendReset({file}, seed);
  auto obs = server.receiveReset();
  if (!obs)
    return obs.error();
  Observation current = *obs;
  while (true) {
    std::vector<float> features = current.features;
    std::vector<uint8_t> mask;
    for (const auto &head : current.masks)
      mask.insert(mask.end(), head.begin(), head.end());
    torch::Tensor obsT =
        torch::from_blob(features.data(), {1, (int64_t)features.size()})
            .clone();
    torch::Tensor maskT =
        torch::from_blob(mask.data(), {1, (int64_t)mask.size()}, torch::kUInt8)
            .clone();
    auto out = policy.act(obsT, maskT, greedy);
    torch::Tensor row = out.actions[0].contiguous();
    server.sendStep({std::vector<int64_t>(
        row.data_ptr<int64_t>(), row.data_ptr<int64_t>() + row.numel())});
    auto step = server.receiveStep();
    if (!step)
      return step.error();
    if (!step->terminated && !step->truncated) {
      current = std::move(step->obs);
      continue;
    }
    Episode e;
    e.schedule = step->info.value("schedule", "");
    e.error = step->info.value("error", "");
    if (step->info.contains("measurement")) {
      e.measurement = step->info["measurement"];
      e.correct = e.measurement.value("correct", false);
      e.speedup = e.measurement.value("speedup", 0.0);
    }
    return e;
  }
}

} // namespace

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
  auto server = agent::EnvServer::spawn([envConfig] {
    return std::unique_ptr<Env>(new linalg::LinalgEnv(envConfig));
  });
  if (!server)
    return fail(server.error().message, ExitFailure);

  auto policy = agent::LinalgPolicy::load(
      policyPath, linalg::LinalgEnv(envConfig).actionLayout());
  if (!policy)
    return fail(policy.error().message);

  auto greedy = runEpisode(*server, **policy, file, true, seed);
  if (!greedy)
    return fail(file + ": " + greedy.error().message);
  Episode best = *greedy;
  int correctSamples = 0;
  for (long i = 0; i < search; ++i) {
    auto sampled = runEpisode(*server, **policy, file, false, seed + 1 + i);
    if (!sampled)
      return fail(file + ": " + sampled.error().message, ExitFailure);
    correctSamples += sampled->correct;
    if (sampled->correct && (!best.correct || sampled->speedup > best.speedup))
      best = *sampled;
  }
  server->close();

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
                                {"sampled", search},
                                {"sampled_correct", correctSamples}}
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
