#ifndef RLOPT_AGENT_LINALG_PREDICTEDREWARD_H
#define RLOPT_AGENT_LINALG_PREDICTEDREWARD_H

#include "rlopt/agent/linalg/Rollout.h"
#include "rlopt/core/Result.h"
#include "rlopt/costmodel/CostModel.h"
#include "rlopt/linalg/Program.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
}

namespace rlopt::agent {

/// Final rewards predicted by a learned cost model instead of measured:
/// PPO can take many cheap batches between measured ones. The model must
/// estimate the log speedup (the regression objective); a ranking model's
/// scores only order the schedules of one program.
class PredictedReward {
public:
  ~PredictedReward();
  PredictedReward(PredictedReward &&) noexcept;
  PredictedReward &operator=(PredictedReward &&) noexcept;

  /// Every problem is one line that names `path`.
  static Result<PredictedReward> load(const std::string &path);

  /// Gives each episode that ended in a schedule the model's estimate of
  /// its log speedup as its last reward and exp of that as its speedup;
  /// a failed episode, or one whose schedule does not apply, gets
  /// `failureReward`. Programs are read once and kept.
  Status assign(std::vector<Trajectory> &trajectories, double failureReward);

  /// Fits the model again, as it was trained, to every correct schedule of
  /// the measurement cache at `cachePath` (empty: the default one) measured
  /// on this machine with `threads`: the measured iterations' episodes join
  /// its data where the policy now goes, so the policy cannot keep
  /// exploiting the model's errors there. Returns the number of schedules
  /// fitted; keeps the model when the cache has fewer than two programs'.
  Result<size_t> refit(const std::string &cachePath, int threads,
                       uint64_t seed);

private:
  PredictedReward() = default;
  const linalg::Program *program(const std::string &path);

  std::string modelPath;
  std::optional<costmodel::CostModel> model;
  std::unique_ptr<mlir::MLIRContext> context;
  std::map<std::string, std::optional<linalg::Program>> programs;
};

} // namespace rlopt::agent

#endif
