// rlopt search FILE [--episodes N] [--seed S] [--config C] [--db PATH]
//                   [--threads N] [--json]: random search over the
// environment's masked action space; prints the best measured schedule.
#include "Args.h"
#include "Commands.h"

#include "rlopt/agent/RandomSearch.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace rlopt::tool {

int runSearch(int argc, char **argv) {
  Args args({"episodes", "seed", "config", "db", "threads"}, {"json"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("search: " + *error);
  if (args.positional().size() != 1)
    return fail("search: expected one FILE");
  std::string error;
  long episodes = args.getInt("episodes", 16, 1, 1000000, error);
  long seed = args.getInt("seed", 0, 0, 1l << 40, error);
  long threads = args.getInt("threads", 1, 1, 1024, error);
  if (!error.empty())
    return fail("search: " + error);

  linalg::EnvConfig config;
  if (args.has("config")) {
    auto loaded = linalg::EnvConfig::load(args.get("config"));
    if (!loaded)
      return fail(loaded.error().message);
    config = *loaded;
  }
  if (args.has("db"))
    config.cachePath = args.get("db");
  if (args.has("threads"))
    config.measure.threads = threads;

  linalg::LinalgEnv env(config);
  BenchmarkRef benchmark{args.positional()[0]};
  env.reset(benchmark, seed);
  if (env.lastError())
    return fail(env.lastError()->message);

  bool json = args.has("json");
  auto report = [&](int e, const agent::EpisodeOutcome &outcome) {
    if (json)
      return;
    const Info &info = outcome.info;
    std::string schedule = info.value("schedule", std::string());
    if (info.contains("error"))
      std::printf("  episode %3d  failed: %s\n", e,
                  info["error"].get<std::string>().c_str());
    else
      std::printf("  episode %3d  %7.2fx  %s\n", e, std::exp(outcome.reward),
                  schedule.empty() ? "(empty)" : schedule.c_str());
    std::fflush(stdout);
  };
  auto result = agent::randomSearch(env, benchmark, episodes, seed, report);
  if (!result)
    return fail(result.error().message, ExitFailure);
  const agent::EpisodeOutcome &best = result->best;
  int failures = 0;
  for (const auto &e : result->episodes)
    failures += e.info.contains("error");
  if (json) {
    std::cout
        << nlohmann::json{{"best_schedule", best.info.value("schedule", "")},
                          {"speedup", std::exp(best.reward)},
                          {"measurement",
                           best.info.value("measurement", nlohmann::json())},
                          {"episodes", episodes},
                          {"failures", failures}}
               .dump(2)
        << "\n";
  } else {
    std::printf("best of %ld episodes: %.2fx  %s  (%d failed)\n", episodes,
                std::exp(best.reward),
                best.info.value("schedule", std::string()).c_str(), failures);
  }
  return ExitOk;
}

} // namespace rlopt::tool
