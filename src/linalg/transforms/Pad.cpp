// pad: pad the op's partial tiles with zeros to their full size, so that the
// later steps see static tiles: vectorize needs no masks, and a convolution
// whose output width has no good divisor vectorizes at all (its vectorizer
// cannot mask). The padded tiles of each input are copied once, before the
// op's tile loops (hoisted out of them, which packs them side by side),
// instead of once per tile; the result tile is padded in a copy that is
// copied back.
// It pays where the copies are small beside the work: after a cache tile,
// before the register tile, with the reduction loops still whole.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace rlopt::linalg {

/// Whether `value` is zero wherever every input that `reduction` indexes is
/// zero: such an input itself, a product with such a factor, or a cast of
/// one.
static bool vanishesWithInputsOf(mlir::linalg::LinalgOp op, mlir::Value value,
                                 unsigned reduction) {
  if (auto argument = mlir::dyn_cast<mlir::BlockArgument>(value)) {
    if (argument.getOwner() != op.getBlock() ||
        argument.getArgNumber() >= op.getNumDpsInputs())
      return false;
    mlir::OpOperand *input = op.getDpsInputOperand(argument.getArgNumber());
    return op.getMatchingIndexingMap(input).isFunctionOfDim(reduction);
  }
  mlir::Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (mlir::isa<mlir::arith::MulFOp, mlir::arith::MulIOp>(def))
    return vanishesWithInputsOf(op, def->getOperand(0), reduction) ||
           vanishesWithInputsOf(op, def->getOperand(1), reduction);
  if (mlir::isa<mlir::arith::ExtFOp, mlir::arith::TruncFOp,
                mlir::arith::ExtSIOp, mlir::arith::ExtUIOp,
                mlir::arith::TruncIOp, mlir::arith::SIToFPOp,
                mlir::arith::UIToFPOp>(def))
    return vanishesWithInputsOf(op, def->getOperand(0), reduction);
  return false;
}

/// Whether zeros added along any reduction loop leave the result as it is:
/// each result accumulates with an add a term that vanishes when the inputs
/// read along that loop are zero (a matmul's or convolution's product, a
/// sum pooling's input). Not so for a max, nor for a sum of exponentials.
static bool zerosLeaveReductionsExact(mlir::linalg::LinalgOp op) {
  auto outputs = op.getRegionOutputArgs();
  for (unsigned r = 0; r < outputs.size(); ++r) {
    llvm::SmallVector<mlir::Operation *, 2> combiners;
    mlir::Value reduced = mlir::matchReduction(outputs, r, combiners);
    if (!reduced || combiners.size() != 1 ||
        !mlir::isa<mlir::arith::AddFOp, mlir::arith::AddIOp>(combiners[0]))
      return false;
    mlir::Operation *add = combiners[0];
    mlir::Value term = add->getOperand(0) == outputs[r] ? add->getOperand(1)
                                                        : add->getOperand(0);
    for (unsigned l = 0; l < op.getNumLoops(); ++l)
      if (op.getIteratorTypesArray()[l] ==
              mlir::utils::IteratorType::reduction &&
          !vanishesWithInputsOf(op, term, l))
        return false;
  }
  return true;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &) {
  const OpState &op = state.ops[index];
  if (auto fused = fusionRefusal(state, index, "pad"))
    return fused;
  if (op.splitReduction)
    return std::string("a split reduction does not pad");
  if (!op.hasPartialTiles())
    return std::string("every tile is full: nothing to pad");
  bool partialReduction = false;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    partialReduction |= op.partial[l] && op.isReduction[l];
  // img2col's matmul multiplies and adds like the convolution it was.
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  if (partialReduction && !op.img2col && !zerosLeaveReductionsExact(linalgOp))
    return std::string("a reduction loop has partial tiles and the op does "
                       "not sum products: zeros would change its result");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  OpState &op = state.ops[index];
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  std::string padded =
      emitStructuredPad(state, index, /*packPaddings=*/{}, "linalg.copy")
          .padded;
  // An input whose tiles are all full has no pad (its producer is a slice),
  // and hoisting stops by itself at a loop it cannot leave (a forall): in
  // either case its failure is silenced and the tiles stay as they are.
  for (unsigned input = 0; input < linalgOp.getNumDpsInputs(); ++input) {
    std::string pad = state.script.fresh(op.info->id + "_pad");
    state.script.line(pad + " = transform.get_producer_of_operand " + padded +
                      "[" + std::to_string(input) +
                      "] : (!transform.any_op) -> !transform.any_op");
    state.script.line("transform.sequence %root : !transform.any_op "
                      "failures(suppress) {");
    state.script.line("^bb0(%unused: !transform.any_op):");
    state.script.line("  transform.structured.hoist_pad " + pad + " by " +
                      std::to_string(op.loopsMade) +
                      " loops : (!transform.any_op) -> !transform.any_op");
    state.script.line("}");
  }
  op.handle = padded;
  op.partial.assign(op.numLoops(), false);
}

Transformation padTransformation() {
  return {"pad",
          ParamKind::None,
          "pad partial tiles with zeros to full size, copying each input's "
          "tiles once ahead of the op's loops",
          check,
          emit,
          /*extra=*/true};
}

} // namespace rlopt::linalg
