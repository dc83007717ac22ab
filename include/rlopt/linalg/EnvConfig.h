#ifndef RLOPT_LINALG_ENVCONFIG_H
#define RLOPT_LINALG_ENVCONFIG_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Measurement.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::linalg {

enum class RewardMode {
  Final,   ///< log speedup once, at the end of the episode (paper default)
  PerStep, ///< log(speedup_t / speedup_{t-1}) after every change
  /// Nothing measured, reward 0: episodes only propose schedules (a
  /// policy's candidates for search).
  None,
};

/// Every knob of the Linalg environment. Defaults are documented in the
/// README ("Environment") and in data/configs/linalg_env.json.
struct EnvConfig {
  unsigned maxLoops = 8;    ///< loop levels the action heads cover
  unsigned maxOperands = 4; ///< access matrices in the features
  unsigned maxRank = 5;     ///< rows per access matrix in the features
  /// Tile-size candidates per loop level; index 0 must be 0 (untiled).
  std::vector<int64_t> tileSizes = {0, 1, 2, 4, 8, 16, 32, 64, 128};
  unsigned stepsPerOp = 5; ///< transformations per op before moving on
  RewardMode reward = RewardMode::Final;
  /// "pointers": interchange is chosen one loop level per sub-step (the
  /// paper's level pointers). "enumerated": one step picks a candidate from
  /// a fixed list, all swaps of two loops (n(n-1)/2 for n loops), the
  /// ablation the paper compares against.
  std::string interchange = "pointers";
  /// Opt-in transformations offered after the base set (Transformation.h);
  /// empty keeps the action space of the shipped policy.
  std::vector<std::string> extraTransformations;
  /// Op feature layout (Features.h): 1, the shipped policy's; 2 adds, per
  /// loop level and tile candidate, whether the candidate divides the range.
  unsigned featureVersion = 1;
  double failureReward = -1; ///< reward of a wrong or failed candidate
  MeasureOptions measure;
  std::string cachePath; ///< empty = the default cache location

  /// Reads a JSON object; unknown keys and wrong types are errors that name
  /// the key.
  static Result<EnvConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
  static Result<EnvConfig> load(const std::string &path);
  nlohmann::json toJson() const;
};

} // namespace rlopt::linalg

#endif
