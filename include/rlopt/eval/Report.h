#ifndef RLOPT_EVAL_REPORT_H
#define RLOPT_EVAL_REPORT_H

#include "rlopt/core/Result.h"
#include "rlopt/eval/Evaluate.h"
#include "rlopt/eval/Gnuplot.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <vector>

namespace rlopt::eval {

/// One `rlopt eval` output directory (its results.json).
struct AgentRun {
  std::string dir;
  std::string label;   ///< the agent's name, made unique within a report
  nlohmann::json meta; ///< every top-level key but `results`
  std::vector<BenchmarkResult> results;
};

/// One line of a training run's metrics.jsonl.
struct TrainingPoint {
  int iteration = 0, episodes = 0, failures = 0;
  double meanReward = 0, entropy = 0, policyLoss = 0, valueLoss = 0,
         approxKl = 0, clipFraction = 0;
  /// -1 when the iteration measured nothing (an environment without
  /// speedups, or rewards a cost model predicted).
  double geomeanSpeedup = -1;
  double predictedSpeedup = -1;  ///< the cost model's estimate; -1: none
  double validationGeomean = -1; ///< -1 when not evaluated that iteration
  /// The greedy policy's mean return on the training programs (discrete
  /// trainers' keep_best_every); NaN when not scored that iteration.
  double greedyReturn = std::numeric_limits<double>::quiet_NaN();
  double elapsedSeconds = 0;
};

/// One `rlopt train` run directory (its metrics.jsonl).
struct TrainingRun {
  std::string dir, label;
  std::vector<TrainingPoint> points; ///< by iteration, one per iteration
};

struct ReportInputs {
  std::vector<AgentRun> agents;
  std::vector<TrainingRun> runs;
};

/// Reads `dir`/results.json. Errors name the file and what is wrong.
Result<AgentRun> loadAgentRun(const std::string &dir);

/// Reads `dir`/metrics.jsonl. A last line without its newline that does not
/// parse is a line still being written and is skipped; any other garbled
/// line is an error naming the file and the line.
Result<TrainingRun> loadTrainingRun(const std::string &dir);

/// Each directory is an eval results directory (results.json), a training
/// run (metrics.jsonl), or both; anything else is an error. Labels are made
/// unique.
Result<ReportInputs> loadReportInputs(const std::vector<std::string> &dirs);

struct ReportOptions {
  std::string title = "rlopt report";
  std::string gnuplot; ///< the gnuplot executable; empty = found on PATH
};

/// A rendered page: one self-contained HTML document whose charts are inline
/// SVG drawn by gnuplot (no scripts, no external resources).
struct Report {
  std::string html;
  int charts = 0;
};

/// Renders the report: per-class and overall geomean speedups per agent,
/// per-benchmark speedups, % of peak (compute-bound classes) and GB/s (the
/// others), training curves, and tables with every failure and its error.
Result<Report> renderReport(const ReportInputs &inputs,
                            const ReportOptions &options);

} // namespace rlopt::eval

#endif
