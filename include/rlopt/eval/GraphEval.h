#ifndef RLOPT_EVAL_GRAPHEVAL_H
#define RLOPT_EVAL_GRAPHEVAL_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/GraphEnv.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::eval {

/// One graph under an agent, against XLA's default pipeline (rebuilt).
struct GraphOutcome {
  std::string uri;
  std::vector<std::string> passes; ///< the agent's pass list
  int64_t initial = 0;             ///< I: op count at the start
  int64_t pipeline = 0;            ///< D: after the default pipeline
  int64_t agent = 0;               ///< R: after the agent's passes
  /// The run times of I, D and R estimated on the roofline; 0 when the
  /// evaluation has none (an op-count reward).
  double initialTime = 0, pipelineTime = 0, agentTime = 0;
  double seconds = 0;
  std::string error;

  /// The XLA pass-ordering paper's metric (I - R) / (I - D); 0 when the
  /// default pipeline removes nothing.
  double paperMetric() const;
  /// The estimated speedup over D, time(D) / time(R); 0 without times.
  double speedupOverPipeline() const {
    return pipelineTime > 0 && agentTime > 0 ? pipelineTime / agentTime : 0;
  }
  /// The plain ratio R / I.
  double opCountRatio() const {
    return initial > 0 ? static_cast<double>(agent) / initial : 1;
  }
  nlohmann::json toJson() const;
};

/// Agents: "default" (the pipeline itself), "random:EPISODES" (random search,
/// best prefix), "greedy", or "policy:PATH" (a trained policy, greedy).
/// With a roofline reward in `env` the searches minimize the estimated time
/// and every outcome carries the times of I, D and R.
struct GraphEvalOptions {
  std::string agent = "greedy";
  graph::GraphEnvConfig env;
  uint64_t seed = 0;
  bool progress = true;
};

Result<std::vector<GraphOutcome>>
evaluateGraphs(const std::vector<std::string> &uris,
               const GraphEvalOptions &options);

/// Geomean of the paper's metric over graphs whose pipeline removes ops
/// (values clamped below at 0.001; `nonPositive` counts them), and of R / I.
struct GraphSummary {
  double geomeanPaperMetric = 0, meanPaperMetric = 0, geomeanRatio = 0;
  /// Geomean of time(D) / time(R) over the graphs with times; 0 if none.
  double geomeanSpeedupOverPipeline = 0;
  int succeeded = 0, failed = 0, nonPositive = 0, withoutPipelineGain = 0;
  nlohmann::json toJson() const;
};
GraphSummary summarizeGraphs(const std::vector<GraphOutcome> &outcomes);

/// Writes graph-eval.json and graph-eval.csv into `dir`.
Status writeGraphResults(const std::string &dir, const std::string &agent,
                         const std::vector<GraphOutcome> &outcomes);

} // namespace rlopt::eval

#endif
