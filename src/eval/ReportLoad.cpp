// `rlopt report`, loading: eval results and training logs read back from
// their directories, with every malformed field a one-line error.
#include "rlopt/eval/Report.h"

#include "rlopt/core/ConfigFields.h"

#include <filesystem>
#include <fstream>
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

/// For readRecordField: the record is of no use without this field.
constexpr bool kRequired = true;

/// `read(key, field[, kRequired])`: readRecordField on `record`.
auto recordReader(const json &record, const std::string &where) {
  return
      [&record, &where](const char *key, auto &field, bool required = false) {
        return readRecordField(record, key, field, where, required);
      };
}

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
    auto read = recordReader(rows[i], where);
    Status status = firstError({
        read("name", r.benchmark.name, kRequired),
        read("class", r.benchmark.opClass, kRequired),
        read("split", r.benchmark.split),
        read("flops", r.benchmark.flops),
        read("bytes", r.benchmark.bytes),
        read("schedule", r.schedule),
        read("error", r.error),
        read("baseline_ms", r.baselineMs),
        read("candidate_ms", r.candidateMs),
        read("baseline_spread", r.baselineSpread),
        read("candidate_spread", r.candidateSpread),
        read("speedup", r.speedup, kRequired),
        read("correct", r.correct, kRequired),
        read("cached", r.cached),
        read("gflops", r.gflops),
        read("percent_peak", r.percentPeak),
        read("gbps", r.gbps),
        read("percent_bandwidth", r.percentBandwidth),
    });
    if (!status)
      return status.error();
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
    auto time = object.find("time");
    if (time != object.end() && time->is_object()) {
      Status s = readRecordField(*time, "elapsed_s", p.elapsedSeconds,
                                 where + ": time");
      if (!s)
        return s.error();
    }
    auto read = recordReader(object, where);
    Status status = firstError({
        read("iteration", p.iteration, kRequired),
        read("episodes", p.episodes),
        read("failures", p.failures),
        read("mean_reward", p.meanReward),
        read("geomean_speedup", p.geomeanSpeedup),
        read("entropy", p.entropy),
        read("policy_loss", p.policyLoss),
        read("value_loss", p.valueLoss),
        read("approx_kl", p.approxKl),
        read("clip_fraction", p.clipFraction),
        read("validation_geomean_speedup", p.validationGeomean),
        read("predicted_speedup", p.predictedSpeedup),
        read("greedy_return", p.greedyReturn),
    });
    if (!status)
      return status.error();
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
