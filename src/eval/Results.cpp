#include "rlopt/eval/Evaluate.h"

#include "rlopt/core/File.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace rlopt::eval {

/// Quotes a CSV field when it holds a separator, quote or newline.
static std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// The external baselines in `results`, in order of first appearance.
static std::vector<std::string>
externalNames(const std::vector<BenchmarkResult> &results) {
  std::vector<std::string> names;
  for (const BenchmarkResult &r : results)
    for (const linalg::ExternalTiming &e : r.externals)
      if (std::find(names.begin(), names.end(), e.name) == names.end())
        names.push_back(e.name);
  return names;
}

static const linalg::ExternalTiming *findExternal(const BenchmarkResult &r,
                                                  const std::string &name) {
  for (const linalg::ExternalTiming &e : r.externals)
    if (e.name == name)
      return &e;
  return nullptr;
}

/// External time over candidate time (> 1: the candidate is faster), or 0
/// when either side has no valid time.
static double candidateVsExternal(const BenchmarkResult &r,
                                  const linalg::ExternalTiming *e) {
  if (!e || !r.ok() || !e->correct || e->ms <= 0 || r.candidateMs <= 0)
    return 0;
  return e->ms / r.candidateMs;
}

Status writeResults(const std::string &dir,
                    const std::vector<BenchmarkResult> &results,
                    const nlohmann::json &meta) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return makeError(dir +
                     ": cannot create the output directory: " + ec.message());
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchmarkResult &r : results)
    rows.push_back(r.toJson());
  nlohmann::json document = meta;
  document["results"] = rows;
  if (Status s = writeFileAtomically(dir + "/results.json", document.dump(2));
      !s)
    return s;

  // One group of columns per external baseline, after the fixed ones.
  std::vector<std::string> externals = externalNames(results);
  std::ostringstream csv;
  csv << "name,class,split,flops,bytes,baseline_ms,candidate_ms,"
         "baseline_spread,candidate_spread,speedup,correct,gflops,"
         "percent_peak,gbps,percent_bandwidth,schedule,error";
  for (const std::string &name : externals)
    csv << ',' << name << "_ms," << name << "_spread," << name << "_correct,"
        << name << "_max_abs_error," << name << "_impl,candidate_vs_" << name
        << ',' << name << "_error";
  csv << '\n';
  for (const BenchmarkResult &r : results) {
    csv << csvField(r.benchmark.name) << ',' << r.benchmark.opClass << ','
        << r.benchmark.split << ',' << r.benchmark.flops << ','
        << r.benchmark.bytes << ',' << r.baselineMs << ',' << r.candidateMs
        << ',' << r.baselineSpread << ',' << r.candidateSpread << ','
        << r.speedup << ',' << (r.correct ? "true" : "false") << ',' << r.gflops
        << ',' << r.percentPeak << ',' << r.gbps << ',' << r.percentBandwidth
        << ',' << csvField(r.schedule) << ',' << csvField(r.error);
    for (const std::string &name : externals) {
      const linalg::ExternalTiming *e = findExternal(r, name);
      if (!e) {
        csv << ",,,,,,,";
        continue;
      }
      double ratio = candidateVsExternal(r, e);
      csv << ',' << e->ms << ',' << e->spread << ','
          << (e->correct ? "true" : "false") << ',' << e->maxAbsError << ','
          << csvField(e->info) << ',';
      if (ratio > 0)
        csv << ratio;
      csv << ',' << csvField(e->error);
    }
    csv << '\n';
  }
  return writeFileAtomically(dir + "/results.csv", csv.str());
}

/// A geometric mean built one value at a time.
struct Geomean {
  double logSum = 0;
  int count = 0;
  void add(double value) {
    logSum += std::log(value);
    ++count;
  }
  /// `format` takes the mean as its one double.
  std::string text(const char *format) const {
    if (!count)
      return "-";
    char out[32];
    snprintf(out, sizeof(out), format, std::exp(logSum / count));
    return out;
  }
};

std::string summaryTable(const std::vector<BenchmarkResult> &results) {
  std::vector<std::string> externals = externalNames(results);
  struct ClassStats {
    int count = 0, failed = 0;
    Geomean speedup;
    Geomean roofline; ///< % of peak or of bandwidth, by the class's bound
    std::vector<Geomean> vsExternal;
  };
  std::map<std::string, ClassStats> byClass;
  ClassStats total;
  total.vsExternal.resize(externals.size());
  for (const BenchmarkResult &r : results) {
    ClassStats &cls = byClass[r.benchmark.opClass];
    cls.vsExternal.resize(externals.size());
    for (ClassStats *s : {&cls, &total}) {
      ++s->count;
      if (!r.ok()) {
        ++s->failed;
        continue;
      }
      s->speedup.add(r.speedup);
      double percent = isComputeBound(r.benchmark.opClass) ? r.percentPeak
                                                           : r.percentBandwidth;
      if (percent > 0)
        s->roofline.add(percent);
      for (size_t e = 0; e < externals.size(); ++e)
        if (double ratio =
                candidateVsExternal(r, findExternal(r, externals[e])))
          s->vsExternal[e].add(ratio);
    }
  }
  std::ostringstream out;
  char cell[64];
  snprintf(cell, sizeof(cell), "%-18s %6s %7s %16s %10s", "class", "count",
           "failed", "geomean speedup", "roofline");
  out << cell;
  for (const std::string &name : externals) {
    snprintf(cell, sizeof(cell), " %10s", ("vs " + name).c_str());
    out << cell;
  }
  out << '\n';
  auto row = [&](const std::string &name, const ClassStats &s) {
    snprintf(cell, sizeof(cell), "%-18s %6d %7d %16s %10s", name.c_str(),
             s.count, s.failed, s.speedup.text("%.2fx").c_str(),
             s.roofline.text("%.1f%%").c_str());
    out << cell;
    // Significant digits: a naive candidate is hundreds of times slower.
    for (const Geomean &g : s.vsExternal) {
      snprintf(cell, sizeof(cell), " %10s", g.text("%.3g").c_str());
      out << cell;
    }
    out << '\n';
  };
  for (const auto &[name, stats] : byClass)
    row(name, stats);
  row("all", total);
  out << "roofline: geomean % of the FP32 peak (compute-bound classes) or of "
         "one thread's triad bandwidth (memory-bound)\n";
  if (!externals.empty())
    out << "vs X: geomean of X's time over the candidate's (> 1: the "
           "candidate is faster)\n";
  // Which kernels each external baseline ran, e.g. oneDNN's implementations.
  for (const std::string &name : externals) {
    std::map<std::string, int> kernels;
    for (const BenchmarkResult &r : results)
      if (const linalg::ExternalTiming *e = findExternal(r, name);
          e && !e->info.empty() && e->error.empty())
        ++kernels[e->info];
    if (kernels.empty())
      continue;
    out << name << " kernels:";
    const char *separator = " ";
    for (const auto &[info, count] : kernels) {
      out << separator << info << " (" << count << ')';
      separator = ", ";
    }
    out << '\n';
  }
  for (const BenchmarkResult &r : results)
    if (!r.ok())
      out << "failed: " << r.benchmark.name << ": " << r.error << "\n";
  return out.str();
}

} // namespace rlopt::eval
