#ifndef RLOPT_LINALG_SCHEDULEFEATURES_H
#define RLOPT_LINALG_SCHEDULEFEATURES_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Schedule.h"

#include <vector>

namespace rlopt::linalg {

/// Version of the layout below; a cost model records the version it was
/// trained with and refuses other layouts.
constexpr int kScheduleFeatureVersion = 1;

/// Length of scheduleFeatures()'s vector.
size_t scheduleFeatureSize();

/// A fixed-length description of `program` under `schedule`, for a learned
/// cost model: the op with the most iterations and the mean over all ops,
/// each as the environment's op features (every transformation counted)
/// plus what those leave out: the sizes of every tiling step in order, the
/// loop order, and the bytes each tile level touches. Errors when the
/// schedule does not apply.
Result<std::vector<float>> scheduleFeatures(const Program &program,
                                            const Schedule &schedule);

} // namespace rlopt::linalg

#endif
