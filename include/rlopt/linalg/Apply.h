#ifndef RLOPT_LINALG_APPLY_H
#define RLOPT_LINALG_APPLY_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Schedule.h"
#include "rlopt/linalg/Transformation.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace rlopt::linalg {

/// Checks `schedule` against `program` and builds its transform-dialect
/// script (a module with `@__transform_main`).
Result<std::string> buildTransformScript(const Program &program,
                                         const Schedule &schedule,
                                         const TransformLimits &limits = {});

/// Runs the transform interpreter with `script` on `module`, in place, as
/// `mlir-opt --transform-interpreter` would.
Status applyTransformScript(mlir::ModuleOp module, const std::string &script);

/// A copy of the program's module with the schedule applied.
Result<mlir::OwningOpRef<mlir::ModuleOp>>
applySchedule(const Program &program, const Schedule &schedule,
              const TransformLimits &limits = {});

} // namespace rlopt::linalg

#endif
