// Summaries and result files shared by the pass-ordering evaluations.
#include "rlopt/eval/ResultTable.h"

#include "rlopt/core/File.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace rlopt::eval {

double geomean(const std::vector<double> &values) {
  if (values.empty())
    return 0;
  double logSum = 0;
  for (double v : values)
    logSum += std::log(v);
  return std::exp(logSum / static_cast<double>(values.size()));
}

ScoreSummary summarizeScores(const std::vector<OutcomeScore> &scores) {
  ScoreSummary summary;
  std::vector<double> metrics, ratios;
  double sum = 0;
  for (const OutcomeScore &score : scores) {
    if (score.failed) {
      ++summary.failed;
      continue;
    }
    ++summary.succeeded;
    ratios.push_back(score.ratio);
    if (!score.metric) {
      ++summary.unscored;
      continue;
    }
    double value = *score.metric;
    sum += value;
    summary.nonPositive += value <= 0;
    metrics.push_back(std::max(value, 1e-3));
  }
  summary.geomeanMetric = geomean(metrics);
  summary.meanMetric =
      metrics.empty() ? 0 : sum / static_cast<double>(metrics.size());
  summary.geomeanRatio = geomean(ratios);
  return summary;
}

std::string csvPassesAndError(const std::vector<std::string> &passes,
                              std::string error) {
  std::string joined;
  for (const auto &name : passes)
    joined += (joined.empty() ? "" : " ") + name;
  // A quote or newline would end the quoted field early.
  for (char &c : error)
    if (c == '"' || c == '\n')
      c = '\'';
  return "\"" + joined + "\",\"" + error + "\"";
}

Status writeResultFiles(const std::string &dir, const std::string &kind,
                        nlohmann::json document, const std::string &csv) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": cannot create: " + ec.message());
  document["kind"] = kind;
  std::string base = dir + "/" + kind;
  if (Status ok = writeFileAtomically(base + ".json", document.dump(2) + "\n");
      !ok)
    return ok;
  return writeFileAtomically(base + ".csv", csv);
}

} // namespace rlopt::eval
