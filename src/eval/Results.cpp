#include "rlopt/eval/Evaluate.h"

#include "rlopt/core/File.h"

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

  std::ostringstream csv;
  csv << "name,class,split,flops,bytes,baseline_ms,candidate_ms,"
         "baseline_spread,candidate_spread,speedup,correct,gflops,"
         "percent_peak,gbps,schedule,error\n";
  for (const BenchmarkResult &r : results)
    csv << csvField(r.benchmark.name) << ',' << r.benchmark.opClass << ','
        << r.benchmark.split << ',' << r.benchmark.flops << ','
        << r.benchmark.bytes << ',' << r.baselineMs << ',' << r.candidateMs
        << ',' << r.baselineSpread << ',' << r.candidateSpread << ','
        << r.speedup << ',' << (r.correct ? "true" : "false") << ',' << r.gflops
        << ',' << r.percentPeak << ',' << r.gbps << ',' << csvField(r.schedule)
        << ',' << csvField(r.error) << '\n';
  return writeFileAtomically(dir + "/results.csv", csv.str());
}

std::string summaryTable(const std::vector<BenchmarkResult> &results) {
  struct ClassStats {
    int count = 0, failed = 0;
    double logSum = 0;
    int measured = 0;
  };
  std::map<std::string, ClassStats> byClass;
  ClassStats total;
  for (const BenchmarkResult &r : results) {
    for (ClassStats *s : {&byClass[r.benchmark.opClass], &total}) {
      ++s->count;
      if (!r.ok()) {
        ++s->failed;
        continue;
      }
      s->logSum += std::log(r.speedup);
      ++s->measured;
    }
  }
  std::ostringstream out;
  char line[160];
  snprintf(line, sizeof(line), "%-16s %6s %7s %16s\n", "class", "count",
           "failed", "geomean speedup");
  out << line;
  auto row = [&](const std::string &name, const ClassStats &s) {
    std::string geomean =
        s.measured ? std::to_string(std::exp(s.logSum / s.measured)) : "-";
    if (s.measured) {
      char g[32];
      snprintf(g, sizeof(g), "%.2fx", std::exp(s.logSum / s.measured));
      geomean = g;
    }
    snprintf(line, sizeof(line), "%-16s %6d %7d %16s\n", name.c_str(), s.count,
             s.failed, geomean.c_str());
    out << line;
  };
  for (const auto &[name, stats] : byClass)
    row(name, stats);
  row("all", total);
  for (const BenchmarkResult &r : results)
    if (!r.ok())
      out << "failed: " << r.benchmark.name << ": " << r.error << "\n";
  return out.str();
}

} // namespace rlopt::eval
