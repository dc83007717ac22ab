#ifndef RLOPT_LINALG_MEASUREMENT_H
#define RLOPT_LINALG_MEASUREMENT_H

#include "rlopt/core/Result.h"
#include "rlopt/core/Worker.h"
#include "rlopt/linalg/ExternalBaseline.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Schedule.h"
#include "rlopt/linalg/Transformation.h"
#include "rlopt/measure/Cache.h"
#include "rlopt/measure/Timing.h"

#include <nlohmann/json.hpp>

namespace rlopt::linalg {

struct MeasureOptions {
  int threads = 1;    ///< OpenMP threads of the candidate
  uint64_t seed = 0;  ///< seed of the random inputs
  double rtol = 1e-3; ///< relative tolerance of the output check
  double atol = 1e-4; ///< absolute tolerance, times max|baseline output|
  measure::TimingConfig timing;
  WorkerLimits limits;
  TransformLimits transformLimits;
  std::vector<ExternalBaseline> externals; ///< e.g. LibTorch, oneDNN
  /// Measure even when the cache holds a sample, and store the new one.
  bool freshSample = false;
};

/// One measured candidate against the naive baseline, from one worker run.
struct Measurement {
  double baselineMs = 0, candidateMs = 0;
  double baselineSpread = 0, candidateSpread = 0;
  double speedup = 0; ///< 0 when the candidate is wrong
  bool correct = false;
  double maxAbsError = 0;
  bool cached = false;
  int rounds = 0;
  double compileMs = 0; ///< lowering + JIT of both sides
  std::string programHash;
  std::vector<ExternalTiming> externals;

  nlohmann::json toJson() const;
  static Measurement fromJson(const nlohmann::json &json);
  /// fromJson for a row read back from the cache, which is not trusted: the
  /// schema, the types and the consistency of the numbers are checked.
  static Result<Measurement> fromStoredJson(const nlohmann::json &json);
};

/// Lowers the baseline and the scheduled candidate, JIT-compiles and runs
/// both interleaved in a fresh worker process, and checks the candidate's
/// outputs against the baseline's. With a cache, a candidate measured before
/// on this machine and rlopt version is answered from it.
Result<Measurement> measureSchedule(const Program &program,
                                    const Schedule &schedule,
                                    const MeasureOptions &options,
                                    measure::Cache *cache = nullptr);

/// The same for a hand-written transform-dialect script (an entry point
/// @__transform_main, as `rlopt apply --emit-transform` writes), uncached:
/// the cache's rows name the schedule a cost model learns from.
Result<Measurement> measureTransformScript(const Program &program,
                                           const std::string &script,
                                           const MeasureOptions &options);

} // namespace rlopt::linalg

#endif
