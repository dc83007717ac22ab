#ifndef RLOPT_COSTMODEL_COSTMODEL_H
#define RLOPT_COSTMODEL_COSTMODEL_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rlopt::costmodel {

/// One labelled schedule: the features of a program under a schedule
/// (linalg/ScheduleFeatures.h) and the log of its measured speedup.
struct CostSample {
  std::string program; ///< hash of the program's text; groups candidates
  std::string name;    ///< the program's file, for messages
  std::string schedule;
  std::vector<float> features;
  double logSpeedup = 0;
  int measurements = 1; ///< samples averaged into logSpeedup
};

struct TrainOptions {
  /// "ranking" (XGBoost's pairwise rank objective, the candidates of one
  /// program form a group) only orders; "regression" fits the log speedup.
  /// Ranking picks better top-5 sets on held-out programs here
  /// (bench/RESULTS.md), which is what search needs.
  std::string objective = "ranking";
  int rounds = 400;
  int maxDepth = 6;
  double learningRate = 0.08;
  uint64_t seed = 0;
  /// XGBoost's tree_method: "auto" (exact splits on data this small, the
  /// shipped model's) or "hist", binned features, several times faster,
  /// for fitting again during training.
  std::string treeMethod = "auto";
};

/// Gradient-boosted trees (XGBoost) that score a schedule of a program:
/// higher is faster. Scores of one program compare; with the regression
/// objective they estimate the log speedup over the naive program.
class CostModel {
public:
  ~CostModel();
  CostModel(CostModel &&other) noexcept;
  CostModel &operator=(CostModel &&other) noexcept;

  static Result<CostModel> train(const std::vector<CostSample> &samples,
                                 const TrainOptions &options);
  /// Reads a model file written by save(); every problem is one line that
  /// names the file.
  static Result<CostModel> load(const std::string &path);
  /// Writes atomically: JSON with the feature layout, how the model was
  /// trained, and XGBoost's own JSON model.
  Status save(const std::string &path) const;

  Result<std::vector<double>>
  predict(const std::vector<std::vector<float>> &rows) const;

  const std::string &objective() const { return objectiveName; }
  size_t trainedOn() const { return samples; }

private:
  CostModel() = default;
  void *booster = nullptr; ///< XGBoost's BoosterHandle
  std::string objectiveName;
  size_t samples = 0;
};

} // namespace rlopt::costmodel

#endif
