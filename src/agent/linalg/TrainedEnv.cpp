#include "rlopt/agent/linalg/TrainedEnv.h"

#include "rlopt/core/Json.h"

#include <filesystem>

namespace rlopt::agent {

namespace fs = std::filesystem;

std::string runConfigBeside(const std::string &policyPath) {
  fs::path policy(policyPath);
  std::error_code ec;
  fs::path named =
      policy.parent_path() / (policy.stem().string() + "-config.json");
  if (fs::is_regular_file(named, ec))
    return named.string();
  // A run directory's config.json belongs only to the files training wrote.
  std::string stem = policy.stem().string();
  fs::path run = policy.parent_path() / "config.json";
  if ((stem == "policy" || stem == "checkpoint") &&
      fs::is_regular_file(run, ec))
    return run.string();
  return "";
}

Result<linalg::EnvConfig> withTrainedActions(const std::string &policyPath,
                                             linalg::EnvConfig base) {
  std::string path = runConfigBeside(policyPath);
  if (path.empty())
    return base;
  auto run = readJsonFile(path);
  if (!run)
    return run.error();
  if (!run->is_object() || !run->contains("env"))
    return base;
  auto trained = linalg::EnvConfig::fromJson((*run)["env"], path + ": env");
  if (!trained)
    return trained.error();
  linalg::MeasureOptions measure = base.measure;
  measure.transformLimits = trained->measure.transformLimits;
  trained->measure = measure;
  trained->cachePath = base.cachePath;
  return trained;
}

} // namespace rlopt::agent
