#include "rlopt/linalg/Apply.h"

#include "rlopt/linalg/Diagnostics.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <algorithm>

namespace rlopt::linalg {

Result<std::string> buildTransformScript(const Program &program,
                                         const Schedule &schedule,
                                         const TransformLimits &limits) {
  ScheduleState state(program.ops, limits);
  Status status = applySchedule(state, schedule);
  if (!status)
    return status.error();
  return state.transformScript();
}

Status applyTransformScript(mlir::ModuleOp module, const std::string &script) {
  mlir::MLIRContext *context = module.getContext();
  DiagnosticCollector diagnostics(context);
  mlir::OwningOpRef<mlir::ModuleOp> transformModule =
      mlir::parseSourceString<mlir::ModuleOp>(script,
                                              mlir::ParserConfig(context));
  if (!transformModule)
    return makeError("transform script does not parse: " +
                     diagnostics.take("unknown error"));
  mlir::transform::TransformOpInterface entry =
      mlir::transform::detail::findTransformEntryPoint(module, *transformModule,
                                                       "__transform_main");
  if (!entry)
    return makeError("transform script has no @__transform_main");
  mlir::transform::TransformOptions options;
  if (mlir::failed(mlir::transform::applyTransformNamedSequence(
          module, entry, *transformModule, options)))
    return makeError("transformation failed: " +
                     diagnostics.take("the transform interpreter failed"));
  return Status::success();
}

Result<mlir::OwningOpRef<mlir::ModuleOp>>
applySchedule(const Program &program, const Schedule &schedule,
              const TransformLimits &limits) {
  auto script = buildTransformScript(program, schedule, limits);
  if (!script)
    return script.error();
  mlir::OwningOpRef<mlir::ModuleOp> copy = program.module.get().clone();
  if (schedule.empty())
    return copy;
  Status status = applyTransformScript(*copy, *script);
  if (!status)
    return status.error();
  return copy;
}

} // namespace rlopt::linalg
