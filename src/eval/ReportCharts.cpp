#include "ReportCharts.h"

#include "rlopt/eval/Gnuplot.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <sstream>

namespace rlopt::eval::report {

using nlohmann::json;

namespace {
/// Tableau 10.
const char *const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                "#9c755f", "#bab0ac"};
constexpr int kPaletteSize = 10;
} // namespace

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

std::string format(const char *pattern, double value) {
  if (!std::isfinite(value))
    return "–";
  char buffer[64];
  snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

/// A number for a gnuplot data block; "?" (missing) when not finite.
std::string dataNumber(double value) {
  if (!std::isfinite(value))
    return "?";
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%.10g", value);
  return buffer;
}

std::string speedupText(double value) { return format("%.2f×", value); }

std::string metaText(const json &meta, const char *key) {
  auto it = meta.find(key);
  if (it == meta.end() || it->is_null())
    return "";
  if (it->is_string())
    return it->get<std::string>();
  return it->dump();
}

std::string dateText(const json &meta) {
  auto it = meta.find("date");
  if (it == meta.end() || !it->is_number())
    return metaText(meta, "date");
  std::time_t seconds = static_cast<std::time_t>(it->get<double>());
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[64];
  strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M UTC", &utc);
  return buffer;
}

std::string shorten(const std::string &text, size_t limit) {
  return text.size() <= limit ? text : text.substr(0, limit - 3) + "...";
}

const char *colour(int index) { return kPalette[index % kPaletteSize]; }

//===----------------------------------------------------------------------===//
// Chart scripts
//===----------------------------------------------------------------------===//

std::string preamble(int width, int height, int fontSize) {
  std::ostringstream s;
  s << "set terminal svg size " << width << "," << height
    << " dynamic noenhanced font 'sans," << fontSize
    << "' background rgb 'white'\n"
       "set encoding utf8\n"
       "set datafile missing '?'\n"
       "set border 3 lc rgb '#555555'\n"
       "set tics nomirror\n"
       "set grid ytics back lt 1 lc rgb '#e3e3e3' lw 1\n"
       "set key outside top center horizontal reverse Left samplen 2 width 2\n";
  return s.str();
}

/// A log-2 y axis around `values` that always shows 1×.
std::string logSpeedupAxis(const std::vector<double> &values) {
  double lo = 1, hi = 1;
  for (double v : values)
    if (std::isfinite(v) && v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  std::ostringstream s;
  s << "set logscale y 2\n"
    << "set yrange [" << dataNumber(lo / 1.3) << ":" << dataNumber(hi * 1.3)
    << "]\n"
    << "set format y '%g×'\n"
    << "set arrow from graph 0, first 1 to graph 1, first 1 nohead front lc "
       "rgb '#333333' lw 1\n";
  return s.str();
}

/// A linear y axis from 0 that fits `values`.
std::string linearAxisFromZero(const std::vector<double> &values) {
  double hi = 0;
  for (double v : values)
    if (std::isfinite(v))
      hi = std::max(hi, v);
  std::ostringstream s;
  s << "set yrange [0:" << dataNumber(hi > 0 ? hi * 1.15 : 1) << "]\n";
  return s.str();
}

/// Explicit x tics; labels are gnuplot string literals.
std::string xtics(const std::vector<std::pair<std::string, double>> &tics,
                  int rotate) {
  std::ostringstream s;
  s << "set xtics (";
  for (size_t i = 0; i < tics.size(); ++i)
    s << (i ? ", " : "") << gnuplotQuote(tics[i].first) << " "
      << dataNumber(tics[i].second);
  s << ")";
  if (rotate)
    s << " rotate by " << rotate << " right";
  s << "\n";
  return s.str();
}

/// Bars from `base` (1 on a log axis, 0 on a linear one) to their value;
/// `labels` writes each value above its bar with `labelFormat`.
std::string barPlot(const std::vector<BarSeries> &series, double base,
                    const char *labelFormat) {
  std::ostringstream data, plot, labels;
  int blocks = 0;
  for (const BarSeries &s : series) {
    std::ostringstream block;
    int n = 0;
    for (const Bar &b : s.bars) {
      if (!std::isfinite(b.value) || (base > 0 && b.value <= 0))
        continue;
      block << dataNumber(b.x) << " " << dataNumber(b.value) << " "
            << dataNumber(b.x - s.halfWidth) << " "
            << dataNumber(b.x + s.halfWidth) << " " << dataNumber(base) << " "
            << dataNumber(b.value) << "\n";
      if (labelFormat)
        labels << dataNumber(b.x) << " " << dataNumber(b.value) << " "
               << format(labelFormat, b.value) << "\n";
      ++n;
    }
    if (!n)
      continue;
    std::string name = "$bars" + std::to_string(blocks++);
    data << name << " << EOD\n" << block.str() << "EOD\n";
    plot << (plot.tellp() ? ", \\\n  " : "plot ") << name
         << " using 1:2:3:4:5:6 with boxxyerror fc rgb '" << s.colour
         << "' fs solid 0.85 noborder "
         << (s.title.empty() ? std::string("notitle")
                             : "title " + gnuplotQuote(s.title));
  }
  if (!blocks)
    return "";
  if (labelFormat) {
    data << "$labels << EOD\n" << labels.str() << "EOD\n";
    plot << ", \\\n  $labels using 1:2:3 with labels offset 0,0.8 font "
            "',10' notitle";
  }
  return data.str() + plot.str() + "\n";
}

std::string linePlot(const std::vector<Line> &lines) {
  std::ostringstream data, plot;
  int blocks = 0;
  for (const Line &line : lines) {
    std::ostringstream block;
    int n = 0;
    for (const auto &[x, y] : line.points) {
      if (!std::isfinite(x) || !std::isfinite(y))
        continue;
      block << dataNumber(x) << " " << dataNumber(y) << "\n";
      ++n;
    }
    if (!n)
      continue;
    std::string name = "$line" + std::to_string(blocks++);
    data << name << " << EOD\n" << block.str() << "EOD\n";
    std::string style = line.pointsOnly ? "points pt 7 ps 0.8"
                        : n <= 40       ? "linespoints pt 7 ps 0.5 lw 2"
                                        : "lines lw 2";
    plot << (plot.tellp() ? ", \\\n  " : "plot ") << name << " using 1:2 with "
         << style << " lc rgb '" << line.colour << "'"
         << (line.dashed ? " dt 2" : "") << " "
         << (line.title.empty() ? std::string("notitle")
                                : "title " + gnuplotQuote(line.title));
  }
  if (!blocks)
    return "";
  return data.str() + plot.str() + "\n";
}

/// An x range for points spread over [lo, hi] (gnuplot rejects an empty
/// one).
std::string xRange(double lo, double hi) {
  if (!(hi > lo)) {
    lo -= 1;
    hi += 1;
  }
  return "set xrange [" + dataNumber(lo) + ":" + dataNumber(hi) + "]\n";
}

} // namespace rlopt::eval::report
