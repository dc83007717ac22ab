// `rlopt report`, the page: eval results and training logs as one
// self-contained HTML page whose charts are gnuplot SVG, inline.
#include "rlopt/eval/Report.h"

#include "ReportCharts.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace rlopt::eval {

using nlohmann::json;
using namespace report;

namespace {

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

bool usable(const BenchmarkResult &r) {
  return r.ok() && std::isfinite(r.speedup) && r.speedup > 0;
}

/// Why a benchmark has no speedup.
std::string failureText(const BenchmarkResult &r) {
  if (!r.error.empty())
    return r.error;
  if (!r.correct)
    return "wrong result (outputs differ from naive)";
  return "invalid speedup";
}

struct Stats {
  int count = 0, failed = 0, measured = 0;
  double logSum = 0, min = 0, max = 0;
  void add(const BenchmarkResult &r) {
    ++count;
    if (!usable(r)) {
      ++failed;
      return;
    }
    min = measured ? std::min(min, r.speedup) : r.speedup;
    max = measured ? std::max(max, r.speedup) : r.speedup;
    logSum += std::log(r.speedup);
    ++measured;
  }
  double geomean() const {
    return measured ? std::exp(logSum / measured) : kMissing;
  }
};

Stats statsOf(const AgentRun &agent, const std::string *opClass = nullptr) {
  Stats stats;
  for (const BenchmarkResult &r : agent.results)
    if (!opClass || r.benchmark.opClass == *opClass)
      stats.add(r);
  return stats;
}

/// Arithmetic mean of `field` over the usable benchmarks of a class where it
/// is positive.
double classMean(const AgentRun &agent, const std::string &opClass,
                 double BenchmarkResult::*field) {
  double sum = 0;
  int n = 0;
  for (const BenchmarkResult &r : agent.results)
    if (r.benchmark.opClass == opClass && usable(r) && r.*field > 0 &&
        std::isfinite(r.*field)) {
      sum += r.*field;
      ++n;
    }
  return n ? sum / n : kMissing;
}

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

const char *kStyle = R"(
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .9em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left;
         vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.bad { color: #b00020; }
figure.chart { margin: 1em 0 2em; }
figure.chart figcaption { font-weight: bold; margin-bottom: .3em; }
figure.chart p.note { font-weight: normal; color: #555; margin: .2em 0; }
figure.chart svg { width: 100%; height: auto; display: block; }
div.scroll { overflow-x: auto; }
code { font-size: .9em; }
p.meta { color: #555; }
)";

class Page {
public:
  explicit Page(std::string gnuplot) : gnuplot(std::move(gnuplot)) {}

  /// Draws `script` (after its preamble) and adds it as a figure; a chart
  /// without data (empty script) is skipped.
  Status chart(const std::string &title, const std::string &note,
               const std::string &setup, const std::string &plot,
               int width = 960, int height = 420, int fontSize = 12) {
    if (plot.empty())
      return Status::success();
    auto svg =
        runGnuplot(gnuplot, preamble(width, height, fontSize) + setup + plot);
    if (!svg)
      return makeError("chart '" + title + "': " + svg.error().message);
    std::string prefix = "c" + std::to_string(++charts) + "-";
    std::string inlined = inlineSvg(*svg, prefix, title);
    if (inlined.empty())
      return makeError("chart '" + title + "': gnuplot wrote no SVG");
    body << "<figure class=\"chart\" id=\"chart-" << charts << "\"><figcaption>"
         << escapeHtml(title);
    if (!note.empty())
      body << "<p class=\"note\">" << escapeHtml(note) << "</p>";
    body << "</figcaption>";
    if (width > 1100)
      body << "<div class=\"scroll\"><div style=\"width:" << width << "px\">"
           << inlined << "</div></div>";
    else
      body << inlined;
    body << "</figure>\n";
    return Status::success();
  }

  std::ostringstream body;
  int charts = 0;

private:
  std::string gnuplot;
};

void inputsTable(const ReportInputs &inputs, std::ostringstream &out) {
  out << "<h2>Inputs</h2>\n<table><tr><th>name</th><th>kind</th>"
         "<th>directory</th><th>suite</th><th>split</th><th>threads</th>"
         "<th>date</th><th>rlopt</th></tr>\n";
  for (const AgentRun &a : inputs.agents)
    out << "<tr><td>" << escapeHtml(a.label)
        << "</td><td>evaluation</td><td><code>" << escapeHtml(a.dir)
        << "</code></td><td>" << escapeHtml(metaText(a.meta, "suite"))
        << "</td><td>" << escapeHtml(metaText(a.meta, "split")) << "</td><td>"
        << escapeHtml(metaText(a.meta, "threads")) << "</td><td>"
        << escapeHtml(dateText(a.meta)) << "</td><td>"
        << escapeHtml(metaText(a.meta, "rlopt_version")) << "</td></tr>\n";
  for (const TrainingRun &r : inputs.runs)
    out << "<tr><td>" << escapeHtml(r.label)
        << "</td><td>training</td><td><code>" << escapeHtml(r.dir)
        << "</code></td><td></td><td></td><td></td><td></td>"
        << "<td></td></tr>\n";
  out << "</table>\n";
}

Status evaluationSection(const ReportInputs &inputs, Page &page) {
  const std::vector<AgentRun> &agents = inputs.agents;
  std::ostringstream &out = page.body;
  out << "<h2>Evaluation</h2>\n"
         "<p>Speedups are over the same program lowered with no schedule "
         "(naive MLIR). A geometric mean covers the benchmarks measured "
         "correct; failures are counted and listed below.</p>\n";

  // Summary per agent.
  out << "<table><tr><th>agent</th><th>benchmarks</th><th>failed</th>"
         "<th>geomean speedup</th><th>min</th><th>max</th></tr>\n";
  std::vector<double> overall;
  for (const AgentRun &a : agents) {
    Stats s = statsOf(a);
    overall.push_back(s.geomean());
    out << "<tr><td>" << escapeHtml(a.label) << "</td><td class=\"num\">"
        << s.count << "</td><td class=\"num" << (s.failed ? " bad" : "")
        << "\">" << s.failed << "</td><td class=\"num\">"
        << speedupText(s.geomean()) << "</td><td class=\"num\">"
        << speedupText(s.measured ? s.min : kMissing)
        << "</td><td class=\"num\">"
        << speedupText(s.measured ? s.max : kMissing) << "</td></tr>\n";
  }
  out << "</table>\n";

  // Per class: a table and chart 1.
  std::set<std::string> classSet;
  for (const AgentRun &a : agents)
    for (const BenchmarkResult &r : a.results)
      classSet.insert(r.benchmark.opClass);
  std::vector<std::string> classes(classSet.begin(), classSet.end());
  out << "<table><tr><th>class</th>";
  for (const AgentRun &a : agents)
    out << "<th>" << escapeHtml(a.label) << "<br>geomean (count, failed)</th>";
  out << "</tr>\n";
  for (const std::string &c : classes) {
    out << "<tr><td>" << escapeHtml(c) << "</td>";
    for (const AgentRun &a : agents) {
      Stats s = statsOf(a, &c);
      out << "<td class=\"num\">" << speedupText(s.geomean()) << " (" << s.count
          << ", " << s.failed << ")</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";

  size_t n = agents.size();
  double groupWidth = 0.8, barWidth = groupWidth / std::max<size_t>(n, 1);
  auto grouped =
      [&](const std::vector<std::string> &groups,
          const std::function<double(const AgentRun &, const std::string &)>
              &value,
          std::vector<double> &all) {
        std::vector<BarSeries> series;
        for (size_t i = 0; i < n; ++i) {
          BarSeries s{agents[i].label, colour(i), {}, barWidth / 2 * 0.92};
          for (size_t g = 0; g < groups.size(); ++g) {
            double v = value(agents[i], groups[g]);
            all.push_back(v);
            s.bars.push_back({g - groupWidth / 2 + barWidth * (i + 0.5), v});
          }
          series.push_back(std::move(s));
        }
        return series;
      };
  auto groupTics = [](const std::vector<std::string> &groups) {
    std::vector<std::pair<std::string, double>> tics;
    for (size_t g = 0; g < groups.size(); ++g)
      tics.push_back({shorten(groups[g], 30), double(g)});
    return tics;
  };

  {
    std::vector<double> values;
    auto series = grouped(
        classes,
        [](const AgentRun &a, const std::string &c) {
          return statsOf(a, &c).geomean();
        },
        values);
    std::string setup = logSpeedupAxis(values) +
                        xRange(-0.6, classes.size() - 0.4) +
                        xtics(groupTics(classes), classes.size() > 8 ? 45 : 0) +
                        "set ylabel 'geomean speedup over naive'\n";
    if (Status s = page.chart("Geomean speedup by op class",
                              "One bar per agent; log scale, 1× = naive.",
                              setup, barPlot(series, 1));
        !s)
      return s;
  }

  // Chart 2: overall geomean per agent.
  {
    std::vector<BarSeries> series;
    std::vector<std::pair<std::string, double>> tics;
    for (size_t i = 0; i < n; ++i) {
      series.push_back({"", colour(i), {{double(i), overall[i]}}, 0.3});
      tics.push_back({shorten(agents[i].label, 30), double(i)});
    }
    std::vector<double> padded = overall;
    for (double v : overall) // room for the value labels
      if (std::isfinite(v))
        padded.push_back(v * 1.25);
    std::string setup = logSpeedupAxis(padded) + xRange(-0.6, n - 0.4) +
                        xtics(tics, n > 6 ? 45 : 0) + "set key off\n" +
                        "set ylabel 'geomean speedup over naive'\n";
    if (Status s = page.chart(
            "Overall geomean speedup per agent",
            "All benchmarks measured correct; log scale, 1× = naive.", setup,
            barPlot(series, 1, "%.2f×"));
        !s)
      return s;
  }

  // Chart 3a: every agent's speedups sorted, by rank.
  {
    std::vector<Line> lines;
    std::vector<double> values;
    size_t most = 1;
    for (size_t i = 0; i < n; ++i) {
      std::vector<double> speedups;
      for (const BenchmarkResult &r : agents[i].results)
        if (usable(r))
          speedups.push_back(r.speedup);
      std::sort(speedups.rbegin(), speedups.rend());
      Line line{agents[i].label, colour(i), {}};
      for (size_t k = 0; k < speedups.size(); ++k)
        line.points.push_back({double(k + 1), speedups[k]});
      values.insert(values.end(), speedups.begin(), speedups.end());
      most = std::max(most, speedups.size());
      lines.push_back(std::move(line));
    }
    std::string setup = logSpeedupAxis(values) + xRange(0.5, most + 0.5) +
                        "set xlabel 'benchmarks, fastest first'\n"
                        "set ylabel 'speedup over naive'\n";
    if (Status s = page.chart("Per-benchmark speedup, sorted",
                              "Each agent's benchmarks from its best speedup "
                              "to its worst; failures left out.",
                              setup, linePlot(lines));
        !s)
      return s;
  }

  // Chart 3b: one chart per agent, named benchmarks sorted by speedup;
  // failures at the end with no bar.
  for (size_t i = 0; i < n; ++i) {
    std::vector<const BenchmarkResult *> order;
    for (const BenchmarkResult &r : agents[i].results)
      order.push_back(&r);
    std::stable_sort(order.begin(), order.end(),
                     [](const BenchmarkResult *a, const BenchmarkResult *b) {
                       double x = usable(*a) ? a->speedup : -1;
                       double y = usable(*b) ? b->speedup : -1;
                       return x > y;
                     });
    if (order.empty())
      continue;
    BarSeries faster{"faster than naive", "#59a14f", {}, 0.4};
    BarSeries slower{"slower than naive", "#e15759", {}, 0.4};
    std::vector<std::pair<std::string, double>> tics;
    std::vector<double> values;
    for (size_t k = 0; k < order.size(); ++k) {
      const BenchmarkResult &r = *order[k];
      std::string name = shorten(r.benchmark.name, 40);
      tics.push_back({usable(r) ? name : name + " (failed)", double(k)});
      if (!usable(r))
        continue;
      (r.speedup >= 1 ? faster : slower).bars.push_back({double(k), r.speedup});
      values.push_back(r.speedup);
    }
    size_t count = order.size();
    int width = std::max<int>(960, 14 * count + 240);
    int font = count > 40 ? 9 : 11;
    std::string setup = logSpeedupAxis(values) + xRange(-0.6, count - 0.4) +
                        xtics(tics, 90) + "set ylabel 'speedup over naive'\n";
    std::string plot = barPlot({faster, slower}, 1);
    if (plot.empty()) // every benchmark failed: still name them
      plot = "plot 1 with lines lc rgb '#333333' notitle\n";
    int failed = count - values.size();
    if (Status s = page.chart(
            "Per-benchmark speedup: " + agents[i].label,
            std::to_string(count) + " benchmarks, " + std::to_string(failed) +
                " failed (named at the end, no bar); log scale.",
            setup, plot, width, 520, font);
        !s)
      return s;
  }

  // Chart 4: % of peak (compute-bound classes) and % of bandwidth (the
  // others), or GFLOP/s and GB/s when the results hold no roofline.
  std::vector<std::string> compute, memory;
  for (const std::string &c : classes)
    (isComputeBound(c) ? compute : memory).push_back(c);
  if (!compute.empty()) {
    bool hasPeak = false;
    for (const AgentRun &a : agents)
      for (const BenchmarkResult &r : a.results)
        hasPeak |= usable(r) && r.percentPeak > 0 &&
                   isComputeBound(r.benchmark.opClass);
    double BenchmarkResult::*field =
        hasPeak ? &BenchmarkResult::percentPeak : &BenchmarkResult::gflops;
    std::vector<double> values;
    auto series = grouped(
        compute,
        [&](const AgentRun &a, const std::string &c) {
          return classMean(a, c, field);
        },
        values);
    std::string setup = linearAxisFromZero(values) +
                        xRange(-0.6, compute.size() - 0.4) +
                        xtics(groupTics(compute)) +
                        (hasPeak ? "set ylabel '% of peak'\n"
                                   "set format y '%g%%'\n"
                                 : "set ylabel 'GFLOP/s'\n");
    std::string note =
        hasPeak ? "Mean candidate GFLOP/s as a share of threads × the "
                  "single-thread FP32 FMA peak, per compute-bound class."
                : "Mean candidate GFLOP/s per compute-bound class (the "
                  "results hold no peak to compare with).";
    if (Status s = page.chart(hasPeak ? "% of peak, compute-bound classes"
                                      : "GFLOP/s, compute-bound classes",
                              note, setup, barPlot(series, 0));
        !s)
      return s;
  }
  if (!memory.empty()) {
    bool hasBandwidth = false;
    for (const AgentRun &a : agents)
      for (const BenchmarkResult &r : a.results)
        hasBandwidth |= usable(r) && r.percentBandwidth > 0 &&
                        !isComputeBound(r.benchmark.opClass);
    double BenchmarkResult::*field = hasBandwidth
                                         ? &BenchmarkResult::percentBandwidth
                                         : &BenchmarkResult::gbps;
    std::vector<double> values;
    auto series = grouped(
        memory,
        [&](const AgentRun &a, const std::string &c) {
          return classMean(a, c, field);
        },
        values);
    std::string setup =
        linearAxisFromZero(values) + xRange(-0.6, memory.size() - 0.4) +
        xtics(groupTics(memory), memory.size() > 8 ? 45 : 0) +
        (hasBandwidth ? "set ylabel '% of bandwidth'\nset format y '%g%%'\n"
                      : "set ylabel 'GB/s'\n");
    std::string note =
        hasBandwidth
            ? "Mean bytes moved per second by the candidate as a share of "
              "one thread's STREAM triad bandwidth, per memory-bound class."
            : "Mean bytes moved per second by the candidate, per class (the "
              "results hold no bandwidth to compare with).";
    if (Status s =
            page.chart(hasBandwidth ? "% of bandwidth, memory-bound classes"
                                    : "GB/s, memory-bound classes",
                       note, setup, barPlot(series, 0));
        !s)
      return s;
  }

  // Failures, never dropped.
  out << "<h3>Failures</h3>\n";
  bool any = false;
  for (const AgentRun &a : agents)
    for (const BenchmarkResult &r : a.results)
      any |= !usable(r);
  if (!any) {
    out << "<p>None: every benchmark was measured correct.</p>\n";
  } else {
    out << "<table class=\"failures\"><tr><th>agent</th><th>benchmark</th>"
           "<th>class</th><th>error</th></tr>\n";
    for (const AgentRun &a : agents)
      for (const BenchmarkResult &r : a.results)
        if (!usable(r))
          out << "<tr><td>" << escapeHtml(a.label) << "</td><td>"
              << escapeHtml(r.benchmark.name) << "</td><td>"
              << escapeHtml(r.benchmark.opClass) << "</td><td class=\"bad\">"
              << escapeHtml(failureText(r)) << "</td></tr>\n";
    out << "</table>\n";
  }

  // Every benchmark, every agent.
  std::vector<std::string> names;
  std::map<std::string, std::string> classOf;
  for (const AgentRun &a : agents)
    for (const BenchmarkResult &r : a.results)
      if (classOf.emplace(r.benchmark.name, r.benchmark.opClass).second)
        names.push_back(r.benchmark.name);
  out << "<details><summary>All " << names.size()
      << " benchmarks</summary>\n<table><tr><th>benchmark</th><th>class</th>";
  for (const AgentRun &a : agents)
    out << "<th>" << escapeHtml(a.label) << "</th>";
  out << "</tr>\n";
  for (const std::string &name : names) {
    out << "<tr><td>" << escapeHtml(name) << "</td><td>"
        << escapeHtml(classOf[name]) << "</td>";
    for (const AgentRun &a : agents) {
      auto it = std::find_if(
          a.results.begin(), a.results.end(),
          [&](const BenchmarkResult &r) { return r.benchmark.name == name; });
      if (it == a.results.end())
        out << "<td></td>";
      else if (!usable(*it))
        out << "<td class=\"bad\">failed</td>";
      else
        out << "<td class=\"num\" title=\"" << escapeHtml(it->schedule) << "\">"
            << speedupText(it->speedup) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table></details>\n";
  return Status::success();
}

Status trainingSection(const ReportInputs &inputs, Page &page) {
  std::ostringstream &out = page.body;
  out << "<h2>Training</h2>\n<table><tr><th>run</th><th>iterations</th>"
         "<th>episodes</th><th>failures</th><th>last mean reward</th>"
         "<th>last geomean speedup</th><th>best validation geomean</th>"
         "<th>elapsed</th></tr>\n";
  for (const TrainingRun &r : inputs.runs) {
    out << "<tr><td>" << escapeHtml(r.label) << "</td>";
    if (r.points.empty()) {
      out << "<td colspan=\"7\">no iteration logged yet</td></tr>\n";
      continue;
    }
    long episodes = 0, failures = 0;
    double best = -1, lastMeasured = kMissing;
    int bestIteration = 0;
    for (const TrainingPoint &p : r.points) {
      episodes += p.episodes;
      failures += p.failures;
      if (p.geomeanSpeedup >= 0)
        lastMeasured = p.geomeanSpeedup;
      if (p.validationGeomean > best) {
        best = p.validationGeomean;
        bestIteration = p.iteration;
      }
    }
    const TrainingPoint &last = r.points.back();
    out << "<td class=\"num\">" << r.points.size() << " (last "
        << last.iteration << ")</td><td class=\"num\">" << episodes
        << "</td><td class=\"num\">" << failures << "</td><td class=\"num\">"
        << format("%.4f", last.meanReward) << "</td><td class=\"num\">"
        << speedupText(lastMeasured) << "</td><td class=\"num\">"
        << (best >= 0 ? speedupText(best) + " (iteration " +
                            std::to_string(bestIteration) + ")"
                      : std::string("–"))
        << "</td><td class=\"num\">" << format("%.0f s", last.elapsedSeconds)
        << "</td></tr>\n";
  }
  out << "</table>\n";

  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const TrainingRun &r : inputs.runs)
    for (const TrainingPoint &p : r.points) {
      lo = std::min(lo, double(p.iteration));
      hi = std::max(hi, double(p.iteration));
    }
  if (!std::isfinite(lo))
    return Status::success();
  std::string xAxis = xRange(lo, hi) + "set xlabel 'iteration'\n";

  auto curve = [&](const char *title, const char *note, const char *yLabel,
                   double TrainingPoint::*field,
                   const std::string &extra = "") {
    std::vector<Line> lines;
    for (size_t i = 0; i < inputs.runs.size(); ++i) {
      Line line{inputs.runs[i].label, colour(i), {}};
      for (const TrainingPoint &p : inputs.runs[i].points)
        line.points.push_back({double(p.iteration), p.*field});
      lines.push_back(std::move(line));
    }
    return page.chart(title, note,
                      xAxis + "set ylabel " + gnuplotQuote(yLabel) + "\n" +
                          extra,
                      linePlot(lines), 960, 360);
  };

  {
    std::vector<Line> lines;
    for (size_t i = 0; i < inputs.runs.size(); ++i) {
      const TrainingRun &r = inputs.runs[i];
      Line train{r.label, colour(i), {}};
      Line greedy{r.label + ": greedy policy", colour(i), {}, true};
      for (const TrainingPoint &p : r.points) {
        train.points.push_back({double(p.iteration), p.meanReward});
        if (!std::isnan(p.greedyReturn))
          greedy.points.push_back({double(p.iteration), p.greedyReturn});
      }
      greedy.pointsOnly = greedy.points.size() < 2;
      lines.push_back(std::move(train));
      if (!greedy.points.empty())
        lines.push_back(std::move(greedy));
    }
    if (Status s = page.chart(
            "Mean episode reward",
            "The iteration's training episodes (solid) and, where a "
            "discrete trainer scored it, the greedy policy once on every "
            "training program (dashed).",
            xAxis + "set ylabel 'mean reward'\n", linePlot(lines), 960, 360);
        !s)
      return s;
  }
  {
    std::vector<Line> lines;
    for (size_t i = 0; i < inputs.runs.size(); ++i) {
      const TrainingRun &r = inputs.runs[i];
      Line train{r.label + ": training", colour(i), {}};
      Line validation{r.label + ": validation", colour(i), {}, true};
      Line predicted{
          r.label + ": predicted by the cost model", colour(i), {}, true, true};
      for (const TrainingPoint &p : r.points) {
        if (p.geomeanSpeedup >= 0)
          train.points.push_back({double(p.iteration), p.geomeanSpeedup});
        if (p.validationGeomean >= 0)
          validation.points.push_back(
              {double(p.iteration), p.validationGeomean});
        if (p.predictedSpeedup >= 0)
          predicted.points.push_back({double(p.iteration), p.predictedSpeedup});
      }
      validation.pointsOnly = validation.points.size() < 2;
      for (Line *line : {&train, &validation, &predicted})
        if (!line->points.empty())
          lines.push_back(std::move(*line));
    }
    std::string setup =
        xAxis + "set ylabel 'geomean speedup over naive'\n"
                "set format y '%g×'\n"
                "set arrow from graph 0, first 1 to graph 1, first 1 nohead "
                "lc rgb '#999999' dt 3\n";
    // Environments that report no speedup (pass ordering) get no chart.
    if (!lines.empty())
      if (Status s =
              page.chart("Geomean speedup",
                         "The iteration's training episodes (solid), "
                         "the validation programs (dashed) and, between "
                         "measured iterations, the cost model's estimate "
                         "(points).",
                         setup, linePlot(lines), 960, 360);
          !s)
        return s;
  }
  if (Status s = curve("Policy entropy", "Mean over the iteration's updates.",
                       "entropy", &TrainingPoint::entropy);
      !s)
    return s;
  if (Status s = curve("Policy loss", "PPO clipped surrogate loss.",
                       "policy loss", &TrainingPoint::policyLoss);
      !s)
    return s;
  return curve("Value loss", "Critic mean squared error.", "value loss",
               &TrainingPoint::valueLoss);
}

} // namespace

Result<Report> renderReport(const ReportInputs &inputs,
                            const ReportOptions &options) {
  std::string gnuplot = options.gnuplot;
  if (gnuplot.empty()) {
    auto found = findGnuplot();
    if (!found)
      return found.error();
    gnuplot = *found;
  }
  Page page(gnuplot);
  inputsTable(inputs, page.body);
  if (!inputs.agents.empty())
    if (Status s = evaluationSection(inputs, page); !s)
      return s.error();
  if (!inputs.runs.empty())
    if (Status s = trainingSection(inputs, page); !s)
      return s.error();

  std::ostringstream doc;
  doc << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n<meta name=\"viewport\" "
         "content=\"width=device-width, initial-scale=1\">\n<title>"
      << escapeHtml(options.title) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n<h1>" << escapeHtml(options.title)
      << "</h1>\n<p class=\"meta\">rlopt " << RLOPT_VERSION << "; "
      << inputs.agents.size() << " evaluation(s), " << inputs.runs.size()
      << " training run(s); charts drawn by gnuplot.</p>\n"
      << page.body.str() << "</body>\n</html>\n";
  return Report{doc.str(), page.charts};
}

} // namespace rlopt::eval
