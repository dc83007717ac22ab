#ifndef RLOPT_EVAL_REPORT_H
#define RLOPT_EVAL_REPORT_H

#include "rlopt/core/Result.h"
#include "rlopt/eval/Evaluate.h"

#include <nlohmann/json.hpp>

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
  double meanReward = 0, geomeanSpeedup = 0, entropy = 0, policyLoss = 0,
         valueLoss = 0, approxKl = 0, clipFraction = 0;
  double validationGeomean = -1; ///< -1 when not evaluated that iteration
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

// gnuplot, run as a subprocess (src/eval/Gnuplot.cpp).

/// The gnuplot executable on PATH, or an error telling to run
/// scripts/bootstrap.
Result<std::string> findGnuplot();

/// Runs `gnuplot` on `script` (written to a temporary file) and returns what
/// it printed on stdout; a non-zero exit, a crash or a hang is an error that
/// quotes gnuplot's stderr.
Result<std::string> runGnuplot(const std::string &gnuplot,
                               const std::string &script,
                               int timeoutSeconds = 60);

/// `text` as a double-quoted gnuplot string literal.
std::string gnuplotQuote(const std::string &text);

/// Makes a standalone SVG document embeddable in HTML: drops the XML prolog
/// and the namespace declarations, prefixes every id (and every reference to
/// one) with `idPrefix` so that several charts can share a page, and sets the
/// accessible title.
std::string inlineSvg(const std::string &svg, const std::string &idPrefix,
                      const std::string &title);

/// `text` with &, <, >, " and ' escaped for HTML and SVG.
std::string escapeHtml(const std::string &text);

} // namespace rlopt::eval

#endif
