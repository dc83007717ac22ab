#ifndef RLOPT_EVAL_PASSESEVAL_H
#define RLOPT_EVAL_PASSESEVAL_H

#include "rlopt/core/Result.h"
#include "rlopt/passes/PassesEnv.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::eval {

/// One benchmark's instruction counts under an agent, against LLVM's
/// pipelines.
struct PassesOutcome {
  std::string uri;
  std::vector<std::string> passes; ///< the agent's pass list
  double ic0 = 0, icOz = 0, icO3 = 0, ic = 0;
  double seconds = 0; ///< the agent's wall time
  bool validated = false;
  std::string checked;    ///< what validation compared
  std::string notChecked; ///< why the program's output was not compared
  std::string error;      ///< empty when the agent ran and validated

  /// CompilerGym's leaderboard metric: (IC0 - IC) / (IC0 - IC_Oz).
  double leaderboard() const;
  /// The plain ratio IC_Oz / IC (> 1: smaller than -Oz).
  double ozRatio() const { return ic > 0 ? icOz / ic : 0; }
  nlohmann::json toJson() const;
};

/// Agents: "Oz" and "O3" (LLVM's pipelines), "random:SECONDS" (random
/// search with a time budget per benchmark), "greedy", or
/// "policy:PATH" (a trained discrete-action policy, greedy).
struct PassesEvalOptions {
  std::string agent = "greedy";
  passes::PassesEnvConfig env;
  passes::BenchmarkSources sources;
  uint64_t seed = 0;
  bool validate = true; ///< replay each result, and run it as `validation`
  passes::ValidationMode validation = passes::ValidationMode::Auto;
  bool progress = true;
};

Result<std::vector<PassesOutcome>>
evaluatePasses(const std::vector<std::string> &uris,
               const PassesEvalOptions &options);

/// Geomeans over successful outcomes. The leaderboard metric is clamped
/// below at 0.001 for the geomean (it is <= 0 when the agent does worse
/// than the start); `nonPositive` counts those.
struct PassesSummary {
  double geomeanLeaderboard = 0, meanLeaderboard = 0, geomeanOzRatio = 0;
  int succeeded = 0, failed = 0, nonPositive = 0;
  nlohmann::json toJson() const;
};
PassesSummary summarize(const std::vector<PassesOutcome> &outcomes);

/// Writes passes-eval.json and passes-eval.csv into `dir`.
Status writePassesResults(const std::string &dir, const std::string &agent,
                          const std::vector<PassesOutcome> &outcomes);

} // namespace rlopt::eval

#endif
