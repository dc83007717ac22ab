#include "rlopt/agent/linalg/PredictedReward.h"

#include "rlopt/costmodel/CostDataset.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/ScheduleFeatures.h"
#include "rlopt/measure/Cache.h"
#include "rlopt/measure/MachineInfo.h"

#include "mlir/IR/MLIRContext.h"

#include <cmath>

namespace rlopt::agent {

PredictedReward::~PredictedReward() = default;
PredictedReward::PredictedReward(PredictedReward &&) noexcept = default;
PredictedReward &
PredictedReward::operator=(PredictedReward &&) noexcept = default;

Result<PredictedReward> PredictedReward::load(const std::string &path) {
  auto model = costmodel::CostModel::load(path);
  if (!model)
    return model.error();
  if (model->objective() != "regression")
    return makeError(path + ": trained with the " + model->objective() +
                     " objective, whose scores only order one program's "
                     "schedules; rewards need an estimate of the log speedup "
                     "(rlopt costmodel train --objective regression)");
  PredictedReward reward;
  reward.modelPath = path;
  reward.model = std::move(*model);
  reward.context = linalg::createContext();
  return reward;
}

const linalg::Program *PredictedReward::program(const std::string &path) {
  auto found = programs.find(path);
  if (found == programs.end()) {
    std::optional<linalg::Program> loaded;
    if (auto parsed = linalg::loadProgram(*context, path))
      loaded = std::move(*parsed);
    found = programs.emplace(path, std::move(loaded)).first;
  }
  return found->second ? &*found->second : nullptr;
}

Status PredictedReward::assign(std::vector<Trajectory> &trajectories,
                               double failureReward) {
  std::vector<Trajectory *> scored;
  std::vector<std::vector<float>> rows;
  for (Trajectory &t : trajectories) {
    if (t.rewards.empty())
      continue;
    t.rewards.back() = static_cast<float>(failureReward);
    t.speedup = 0;
    if (t.failed)
      continue;
    const linalg::Program *p = program(t.program);
    auto schedule = linalg::parseSchedule(t.schedule);
    if (!p || !schedule)
      continue;
    auto features = linalg::scheduleFeatures(*p, *schedule);
    if (!features)
      continue;
    scored.push_back(&t);
    rows.push_back(std::move(*features));
  }
  if (rows.empty())
    return Status::success();
  auto predicted = model->predict(rows);
  if (!predicted)
    return makeError(modelPath + ": " + predicted.error().message);
  for (size_t i = 0; i < scored.size(); ++i) {
    scored[i]->rewards.back() = static_cast<float>((*predicted)[i]);
    scored[i]->speedup = std::exp((*predicted)[i]);
  }
  return Status::success();
}

Result<size_t> PredictedReward::refit(const std::string &cachePath, int threads,
                                      uint64_t seed) {
  auto cache = measure::Cache::openOrDefault(cachePath);
  if (!cache)
    return cache.error();
  auto dataset = costmodel::loadCostDataset(
      **cache, measure::hostMachine().fingerprint(threads));
  if (!dataset)
    return dataset.error();
  if (dataset->programs < 2)
    return size_t(0);
  costmodel::TrainOptions options;
  options.objective = "regression";
  options.seed = seed;
  options.treeMethod = "hist";
  auto fitted = costmodel::CostModel::train(dataset->samples, options);
  if (!fitted)
    return makeError("refitting " + modelPath + ": " + fitted.error().message);
  model = std::move(*fitted);
  return dataset->samples.size();
}

} // namespace rlopt::agent
