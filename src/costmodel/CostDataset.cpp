#include "rlopt/costmodel/CostDataset.h"

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/ScheduleFeatures.h"

#include "llvm/Support/xxhash.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace rlopt::costmodel {

namespace {

struct Label {
  double sumLog = 0;
  int count = 0;
};

} // namespace

Result<CostDataset> loadCostDataset(measure::Cache &cache,
                                    const std::string &machine) {
  CostDataset dataset;
  // (program source hash, schedule) -> label
  std::map<std::pair<std::string, std::string>, Label> labels;
  Status read = cache.forEachSample(
      [&](const measure::CacheKey &key, const std::string &payload) {
        if (!machine.empty() && key.machine != machine)
          return;
        nlohmann::json row = nlohmann::json::parse(payload, nullptr, false);
        if (!row.is_object() || !row.contains("source") ||
            !row["source"].is_string() || !row.contains("schedule") ||
            !row["schedule"].is_string()) {
          ++dataset.skipped;
          return;
        }
        double speedup = row.value("speedup", 0.0);
        if (!row.value("correct", false) || !(speedup > 0) ||
            !std::isfinite(speedup)) {
          ++dataset.skipped;
          return;
        }
        Label &label = labels[{row["source"].get<std::string>(),
                               row["schedule"].get<std::string>()}];
        label.sumLog += std::log(speedup);
        ++label.count;
      });
  if (!read)
    return read.error();

  auto context = linalg::createContext();
  std::map<std::string, std::optional<linalg::Program>> programs;
  for (const auto &[key, label] : labels) {
    const auto &[source, scheduleText] = key;
    auto found = programs.find(source);
    if (found == programs.end()) {
      std::optional<linalg::Program> program;
      if (auto text = cache.source(source))
        if (auto parsed = linalg::parseProgram(*context, *text, source))
          program = std::move(*parsed);
      found = programs.emplace(source, std::move(program)).first;
    }
    auto schedule = linalg::parseSchedule(scheduleText);
    if (!found->second || !schedule) {
      dataset.skipped += label.count;
      continue;
    }
    auto features = linalg::scheduleFeatures(*found->second, *schedule);
    if (!features) {
      dataset.skipped += label.count;
      continue;
    }
    dataset.samples.push_back({source, found->second->path, scheduleText,
                               std::move(*features), label.sumLog / label.count,
                               label.count});
  }
  for (const auto &[source, program] : programs)
    dataset.programs += program.has_value();
  return dataset;
}

void splitByProgram(const std::vector<CostSample> &samples, unsigned fold,
                    unsigned folds, std::vector<CostSample> &train,
                    std::vector<CostSample> &heldOut) {
  for (const CostSample &sample : samples)
    (llvm::xxh3_64bits(sample.program) % folds == fold ? heldOut : train)
        .push_back(sample);
}

} // namespace rlopt::costmodel
