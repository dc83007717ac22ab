// `rlopt report`, charts: number formatting and the gnuplot scripts the page
// draws its charts from.
#ifndef RLOPT_SRC_EVAL_REPORTCHARTS_H
#define RLOPT_SRC_EVAL_REPORTCHARTS_H

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace rlopt::eval::report {

/// `value` printed with `pattern`, or "–" when it is not finite.
std::string format(const char *pattern, double value);
/// A number for a gnuplot data block; "?" (missing) when not finite.
std::string dataNumber(double value);
std::string speedupText(double value);
/// A field of a run's metadata as text; "" when absent.
std::string metaText(const nlohmann::json &meta, const char *key);
/// The metadata's date, as UTC, when it is a Unix time.
std::string dateText(const nlohmann::json &meta);
std::string shorten(const std::string &text, size_t limit);
/// Tableau 10: agent i has colour i % 10 in every chart.
const char *colour(int index);

std::string preamble(int width, int height, int fontSize = 12);
/// A log-2 y axis around `values` that always shows 1×.
std::string logSpeedupAxis(const std::vector<double> &values);
/// A linear y axis from 0 that fits `values`.
std::string linearAxisFromZero(const std::vector<double> &values);
/// Explicit x tics; labels are gnuplot string literals.
std::string xtics(const std::vector<std::pair<std::string, double>> &tics,
                  int rotate = 0);

struct Bar {
  double x, value;
};

struct BarSeries {
  std::string title; ///< empty = not in the key
  std::string colour;
  std::vector<Bar> bars;
  double halfWidth = 0.4;
};

/// Bars from `base` (1 on a log axis, 0 on a linear one) to their value;
/// `labelFormat` writes each value above its bar.
std::string barPlot(const std::vector<BarSeries> &series, double base,
                    const char *labelFormat = nullptr);

struct Line {
  std::string title, colour;
  std::vector<std::pair<double, double>> points;
  bool dashed = false, pointsOnly = false;
};

std::string linePlot(const std::vector<Line> &lines);
/// An x range for points spread over [lo, hi] (gnuplot rejects an empty
/// one).
std::string xRange(double lo, double hi);

} // namespace rlopt::eval::report

#endif
