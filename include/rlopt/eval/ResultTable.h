#ifndef RLOPT_EVAL_RESULTTABLE_H
#define RLOPT_EVAL_RESULTTABLE_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// Summaries and result files shared by the pass-ordering evaluations (`rlopt
// passes eval`, `rlopt graph eval`): one row per benchmark with a metric
// relative to a reference pipeline and a size ratio.

namespace rlopt::eval {

/// The geometric mean; 0 for no values.
double geomean(const std::vector<double> &values);

/// What a summary needs of one outcome.
struct OutcomeScore {
  bool failed = false;
  double ratio = 0;             ///< averaged over every success
  std::optional<double> metric; ///< none: left out of the metric's averages
};

/// Averages over the successful outcomes. The metric is <= 0 when the agent
/// does no better than the start and has no logarithm, so its geomean clamps
/// it below at 0.001; `nonPositive` counts those. `unscored` counts successes
/// without a metric.
struct ScoreSummary {
  double geomeanMetric = 0, meanMetric = 0, geomeanRatio = 0;
  int succeeded = 0, failed = 0, nonPositive = 0, unscored = 0;
};
ScoreSummary summarizeScores(const std::vector<OutcomeScore> &scores);

/// What `--json` prints: the agent, the summary and each outcome, through
/// their `toJson()`.
template <typename Summary, typename Outcome>
nlohmann::json resultsDocument(const std::string &agent, const Summary &summary,
                               const std::vector<Outcome> &outcomes) {
  nlohmann::json results = nlohmann::json::array();
  for (const Outcome &outcome : outcomes)
    results.push_back(outcome.toJson());
  return {
      {"agent", agent}, {"summary", summary.toJson()}, {"results", results}};
}

/// The last two CSV fields of a row, quoted: the space-separated pass list
/// and the error, whose quotes and newlines become apostrophes.
std::string csvPassesAndError(const std::vector<std::string> &passes,
                              std::string error);

/// Creates `dir` and writes `document` with `"kind": kind` to DIR/KIND.json
/// and `csv` to DIR/KIND.csv.
Status writeResultFiles(const std::string &dir, const std::string &kind,
                        nlohmann::json document, const std::string &csv);

} // namespace rlopt::eval

#endif
