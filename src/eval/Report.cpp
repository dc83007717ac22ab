// `rlopt report`: eval results and training logs as one self-contained HTML
// page whose charts are gnuplot SVG, inline.
#include "rlopt/eval/Report.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace rlopt::eval {

namespace fs = std::filesystem;

std::string escapeHtml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}
using nlohmann::json;

namespace {

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// `dir` without trailing slashes ("/" stays "/").
std::string trimDir(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  return dir;
}

/// The directory's own name, for labels.
std::string baseName(const std::string &dir) {
  std::error_code ec;
  fs::path path = fs::absolute(fs::path(dir), ec).lexically_normal();
  std::string name = path.filename().string();
  if (name.empty())
    name = path.parent_path().filename().string();
  return name.empty() ? dir : name;
}

Result<std::string> readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError(path + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad())
    return makeError(path + ": cannot read");
  return text.str();
}

/// nlohmann's parse error without its "[json.exception...] " prefix.
std::string parseMessage(const std::exception &e) {
  std::string message = e.what();
  if (size_t at = message.find("] "); at != std::string::npos)
    message = message.substr(at + 2);
  return message;
}

/// Reads optional typed fields of a JSON object; the first problem is kept
/// as a message naming the field.
class Fields {
public:
  Fields(const json &object, std::string where)
      : object(object), where(std::move(where)) {}

  void number(const char *key, double &value, bool required = false) {
    auto it = object.find(key);
    if (it != object.end() && it->is_null()) { // how JSON writes a NaN
      value = std::numeric_limits<double>::quiet_NaN();
      return;
    }
    const json *field = find(key, required);
    if (!field)
      return;
    if (!field->is_number())
      return setError("\"" + std::string(key) + "\" must be a number");
    value = field->get<double>();
  }
  void integer(const char *key, int &value, bool required = false) {
    const json *field = find(key, required);
    if (!field)
      return;
    if (!field->is_number_integer())
      return setError("\"" + std::string(key) + "\" must be an integer");
    value = field->get<int>();
  }
  void string(const char *key, std::string &value, bool required = false) {
    const json *field = find(key, required);
    if (!field)
      return;
    if (!field->is_string())
      return setError("\"" + std::string(key) + "\" must be a string");
    value = field->get<std::string>();
  }
  void boolean(const char *key, bool &value, bool required = false) {
    const json *field = find(key, required);
    if (!field)
      return;
    if (!field->is_boolean())
      return setError("\"" + std::string(key) + "\" must be true or false");
    value = field->get<bool>();
  }
  const std::string &error() const { return problem; }

private:
  const json *find(const char *key, bool required) {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      if (required)
        setError("\"" + std::string(key) + "\" is missing");
      return nullptr;
    }
    return &*it;
  }
  void setError(const std::string &message) {
    if (problem.empty())
      problem = where + ": " + message;
  }

  const json &object;
  std::string where, problem;
};

} // namespace

Result<AgentRun> loadAgentRun(const std::string &directory) {
  std::string dir = trimDir(directory);
  std::string path = dir + "/results.json";
  auto text = readText(path);
  if (!text)
    return text.error();
  json document;
  try {
    document = json::parse(*text);
  } catch (const json::exception &e) {
    return makeError(path + ": not valid JSON (" + parseMessage(e) + ")");
  }
  if (!document.is_object() || !document.contains("results") ||
      !document["results"].is_array())
    return makeError(path + ": expected an object with a \"results\" array "
                            "(the results.json rlopt eval writes)");
  AgentRun run;
  run.dir = dir;
  run.meta = document;
  run.meta.erase("results");
  const json &rows = document["results"];
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string where = path + ": results[" + std::to_string(i) + "]";
    if (!rows[i].is_object())
      return makeError(where + ": expected an object");
    BenchmarkResult r;
    Fields f(rows[i], where);
    f.string("name", r.benchmark.name, true);
    f.string("class", r.benchmark.opClass, true);
    f.string("split", r.benchmark.split);
    f.number("flops", r.benchmark.flops);
    f.number("bytes", r.benchmark.bytes);
    f.string("schedule", r.schedule);
    f.string("error", r.error);
    f.number("baseline_ms", r.baselineMs);
    f.number("candidate_ms", r.candidateMs);
    f.number("baseline_spread", r.baselineSpread);
    f.number("candidate_spread", r.candidateSpread);
    f.number("speedup", r.speedup, true);
    f.boolean("correct", r.correct, true);
    f.boolean("cached", r.cached);
    f.number("gflops", r.gflops);
    f.number("percent_peak", r.percentPeak);
    f.number("gbps", r.gbps);
    if (!f.error().empty())
      return makeError(f.error());
    run.results.push_back(std::move(r));
  }
  run.label = run.meta.contains("agent") && run.meta["agent"].is_string()
                  ? run.meta["agent"].get<std::string>()
                  : baseName(dir);
  return run;
}

Result<TrainingRun> loadTrainingRun(const std::string &directory) {
  std::string dir = trimDir(directory);
  std::string path = dir + "/metrics.jsonl";
  auto text = readText(path);
  if (!text)
    return text.error();
  std::map<int, TrainingPoint> byIteration; // a resumed run may repeat one
  size_t start = 0;
  for (int lineNumber = 1; start < text->size(); ++lineNumber) {
    size_t end = text->find('\n', start);
    bool complete = end != std::string::npos;
    if (!complete)
      end = text->size();
    std::string line = text->substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    std::string where = path + ":" + std::to_string(lineNumber);
    json object;
    try {
      object = json::parse(line);
    } catch (const json::exception &e) {
      if (!complete) // the line training is writing right now
        break;
      return makeError(where + ": not valid JSON (" + parseMessage(e) + ")");
    }
    if (!object.is_object())
      return makeError(where + ": expected a JSON object");
    TrainingPoint p;
    Fields f(object, where);
    f.integer("iteration", p.iteration, true);
    f.integer("episodes", p.episodes);
    f.integer("failures", p.failures);
    f.number("mean_reward", p.meanReward);
    f.number("geomean_speedup", p.geomeanSpeedup);
    f.number("entropy", p.entropy);
    f.number("policy_loss", p.policyLoss);
    f.number("value_loss", p.valueLoss);
    f.number("approx_kl", p.approxKl);
    f.number("clip_fraction", p.clipFraction);
    f.number("validation_geomean_speedup", p.validationGeomean);
    if (object.contains("time") && object["time"].is_object()) {
      Fields time(object["time"], where + ": time");
      time.number("elapsed_s", p.elapsedSeconds);
      if (!time.error().empty())
        return makeError(time.error());
    }
    if (!f.error().empty())
      return makeError(f.error());
    byIteration[p.iteration] = p;
  }
  TrainingRun run;
  run.dir = dir;
  run.label = baseName(dir);
  for (const auto &[iteration, point] : byIteration)
    run.points.push_back(point);
  return run;
}

Result<ReportInputs> loadReportInputs(const std::vector<std::string> &dirs) {
  ReportInputs inputs;
  for (const std::string &dir : dirs) {
    std::error_code ec;
    fs::file_status status = fs::status(dir, ec);
    if (!fs::exists(status))
      return makeError(dir + ": no such directory");
    if (!fs::is_directory(status))
      return makeError(dir + ": not a directory (expected an rlopt eval "
                             "output or an rlopt train run directory)");
    std::string base = trimDir(dir);
    bool hasResults = fs::exists(base + "/results.json", ec);
    bool hasMetrics = fs::exists(base + "/metrics.jsonl", ec);
    if (!hasResults && !hasMetrics)
      return makeError(dir + ": holds neither results.json (from rlopt eval) "
                             "nor metrics.jsonl (from rlopt train)");
    if (hasResults) {
      auto run = loadAgentRun(dir);
      if (!run)
        return run.error();
      inputs.agents.push_back(run.takeValue());
    }
    if (hasMetrics) {
      auto run = loadTrainingRun(dir);
      if (!run)
        return run.error();
      inputs.runs.push_back(run.takeValue());
    }
  }

  // Unique labels: a repeated name gets its directory, then a number.
  std::vector<std::string *> labels;
  std::vector<std::string> dirsOf;
  for (AgentRun &a : inputs.agents) {
    labels.push_back(&a.label);
    dirsOf.push_back(a.dir);
  }
  for (TrainingRun &r : inputs.runs) {
    labels.push_back(&r.label);
    dirsOf.push_back(r.dir);
  }
  for (int pass = 0; pass < 2; ++pass) {
    std::map<std::string, int> seen;
    for (std::string *label : labels)
      ++seen[*label];
    std::map<std::string, int> numbered;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (seen[*labels[i]] < 2)
        continue;
      if (pass == 0)
        *labels[i] += " (" + baseName(dirsOf[i]) + ")";
      else
        *labels[i] += " #" + std::to_string(++numbered[*labels[i]]);
    }
  }
  return inputs;
}

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

/// Tableau 10: agent i has colour i % 10 in every chart.
const char *const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                "#9c755f", "#bab0ac"};
constexpr int kPaletteSize = 10;

const char *colour(int index) { return kPalette[index % kPaletteSize]; }

//===----------------------------------------------------------------------===//
// Chart scripts
//===----------------------------------------------------------------------===//

std::string preamble(int width, int height, int fontSize = 12) {
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
                  int rotate = 0) {
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
/// `labels` writes each value above its bar with `labelFormat`.
std::string barPlot(const std::vector<BarSeries> &series, double base,
                    const char *labelFormat = nullptr) {
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

struct Line {
  std::string title, colour;
  std::vector<std::pair<double, double>> points;
  bool dashed = false, pointsOnly = false;
};

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

  // Chart 4: % of peak (compute-bound classes), GB/s (the others).
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
    std::vector<double> values;
    auto series = grouped(
        memory,
        [](const AgentRun &a, const std::string &c) {
          return classMean(a, c, &BenchmarkResult::gbps);
        },
        values);
    std::string setup = linearAxisFromZero(values) +
                        xRange(-0.6, memory.size() - 0.4) +
                        xtics(groupTics(memory), memory.size() > 8 ? 45 : 0) +
                        "set ylabel 'GB/s'\n";
    if (Status s = page.chart(
            "GB/s, memory-bound classes",
            "Mean bytes moved per second by the candidate, per class.", setup,
            barPlot(series, 0));
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
    double best = -1;
    int bestIteration = 0;
    for (const TrainingPoint &p : r.points) {
      episodes += p.episodes;
      failures += p.failures;
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
        << speedupText(last.geomeanSpeedup) << "</td><td class=\"num\">"
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

  if (Status s = curve("Mean episode reward", "Per iteration.", "mean reward",
                       &TrainingPoint::meanReward);
      !s)
    return s;
  {
    std::vector<Line> lines;
    for (size_t i = 0; i < inputs.runs.size(); ++i) {
      const TrainingRun &r = inputs.runs[i];
      Line train{r.label + ": training", colour(i), {}};
      Line validation{r.label + ": validation", colour(i), {}, true};
      for (const TrainingPoint &p : r.points) {
        train.points.push_back({double(p.iteration), p.geomeanSpeedup});
        if (p.validationGeomean >= 0)
          validation.points.push_back(
              {double(p.iteration), p.validationGeomean});
      }
      validation.pointsOnly = validation.points.size() < 2;
      lines.push_back(std::move(train));
      lines.push_back(std::move(validation));
    }
    std::string setup =
        xAxis + "set ylabel 'geomean speedup over naive'\n"
                "set format y '%g×'\n"
                "set arrow from graph 0, first 1 to graph 1, first 1 nohead "
                "lc rgb '#999999' dt 3\n";
    if (Status s = page.chart("Geomean speedup",
                              "The iteration's training episodes (solid) and "
                              "the validation programs (dashed).",
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
