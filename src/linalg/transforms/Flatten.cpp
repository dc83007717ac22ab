// flatten: collapse the loops of an elementwise op whose operands all have
// the loops' shape (no broadcast, no transpose) into one loop over the
// contiguous elements. Vectors then run across row ends: a relu over 1365
// channels gets whole vectors of 16 instead of 4-wide ones along each row.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace rlopt::linalg {

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &) {
  const OpState &op = state.ops[index];
  if (!op.history.empty() || op.fusedInto >= 0)
    return std::string("flatten must be the op's first transformation");
  if (op.numLoops() < 2)
    return std::string("the op has one loop already");
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  if (linalgOp.getNumReductionLoops() != 0 ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](mlir::AffineMap map) { return map.isIdentity(); }))
    return std::string("only an elementwise op whose operands all have its "
                       "loops' shape flattens");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  OpState &op = state.ops[index];
  std::string flat = state.script.fresh(op.info->id + "_flat");
  state.script.line(flat + " = transform.structured.flatten_elementwise " +
                    op.handle + " : (!transform.any_op) -> !transform.any_op");
  op.handle = flat;
  op.ranges = {op.iterationCount()};
  op.isReduction = {false};
  op.partial = {false};
  op.rests = {0};
  forgetForLoops(op);
  op.kind = "linalg.generic";
  op.generalized = true;
}

Transformation flattenTransformation() {
  return {"flatten",
          ParamKind::None,
          "collapse an elementwise op's loops into one over contiguous "
          "elements",
          check,
          emit,
          /*extra=*/true};
}

} // namespace rlopt::linalg
