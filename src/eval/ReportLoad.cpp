// `rlopt report`, loading: eval results and training logs read back from
// their directories, with every malformed field a one-line error.
#include "rlopt/eval/Report.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace rlopt::eval {

namespace fs = std::filesystem;
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

} // namespace rlopt::eval
