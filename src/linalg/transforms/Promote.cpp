// promote: copy each input tile whose rows lie apart in memory, and which
// the op's innermost loop reads across those rows, into a contiguous buffer
// of its own, once per tile of the op's last tiling
// (Linalg's operand promotion, BLIS's packed panels). The inner loops then
// stream the copy instead of reading rows a stride apart, which the L1
// cache's sets and the prefetchers serve badly. A convolution's filter
// slice for 32 output channels of 256 is 3 x 3 x C rows of 128 bytes, 1 KiB
// apart; tiled over the channels first and promoted, every pixel of the
// image reads it as one stream.
// The copy is a `transform.structured.pad` that pads nothing but is kept
// (`pack_paddings`), so it pays where the tile is reused by the loops
// inside: promote after a tile that leaves loops over what the input does
// not depend on.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

#include <algorithm>

namespace rlopt::linalg {

/// Whether `expr` is a sum of loops times constants (a window's oh + kh),
/// whose span over a tile is then what its access row says.
static bool isLinear(mlir::AffineExpr expr) {
  bool linear = true;
  expr.walk([&](mlir::AffineExpr e) {
    linear &= e.getKind() == mlir::AffineExprKind::Add ||
              e.getKind() == mlir::AffineExprKind::Mul ||
              mlir::isa<mlir::AffineDimExpr, mlir::AffineConstantExpr>(e);
  });
  return linear && expr.isPureAffine();
}

/// Whether the op's innermost loop steps across the operand's rows: it
/// indexes a dimension other than the last, so each of its steps reads
/// elsewhere in memory (B of a matmul along k, a filter along its input
/// channels). An operand it reads along the last dimension, or not at all,
/// is already read as one stream per row (A of a matmul) and gains nothing
/// from a copy.
static bool innermostLoopStepsAcrossRows(const AccessMatrix &access,
                                         unsigned numLoops) {
  if (numLoops == 0)
    return false;
  for (size_t d = 0; d + 1 < access.size(); ++d)
    if (access[d][numLoops - 1] != 0)
      return true;
  return false;
}

/// Whether the tile of `operand` that one iteration of the op's tile loops
/// reads is strided where the inner loops read it: some dimension is cut
/// short while a dimension outside it spans more than one index, so its
/// rows are not one block of memory, and the innermost loop steps across
/// those rows.
static bool readsAStridedTile(mlir::linalg::LinalgOp linalgOp,
                              mlir::OpOperand &operand,
                              const std::vector<int64_t> &ranges) {
  auto type = mlir::dyn_cast<mlir::RankedTensorType>(operand.get().getType());
  mlir::AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
  if (!type || !type.hasStaticShape() ||
      !llvm::all_of(map.getResults(), isLinear))
    return false;
  AccessMatrix access = accessMatrix(map);
  if (!innermostLoopStepsAcrossRows(access, linalgOp.getNumLoops()))
    return false;
  bool cutInside = false;
  for (int d = int(access.size()) - 1; d >= 0; --d) {
    int64_t span = accessSpan(access[d], ranges);
    if (cutInside && span > 1)
      return true;
    cutInside |= span < type.getDimSize(d);
  }
  return false;
}

static std::vector<bool> stridedInputs(const OpState &op) {
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  std::vector<bool> strided;
  for (mlir::OpOperand *input : linalgOp.getDpsInputOperands())
    strided.push_back(readsAStridedTile(linalgOp, *input, op.ranges));
  return strided;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &) {
  const OpState &op = state.ops[index];
  if (auto fused = fusionRefusal(state, index, "promote"))
    return fused;
  // The op's operands are read through the indexing maps the program wrote.
  for (const TransformStep &step : op.history)
    if (step.name != "tile" && step.name != "parallelize")
      return "promote reads the op's loops as the program wrote them: only "
             "tile and parallelize may come before it, not " +
             step.name;
  if (op.hasPartialTiles())
    return std::string(
        "a tile is partial: promote needs tile sizes that divide their loops");
  std::vector<bool> strided = stridedInputs(op);
  if (std::find(strided.begin(), strided.end(), true) == strided.end())
    return std::string("no input tile has rows the op's innermost loop "
                       "steps across: nothing to promote");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  OpState &op = state.ops[index];
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  // Every tile is full, so nothing is padded: pack_paddings keeps the
  // copies of the strided inputs, which the pad would otherwise fold away,
  // and there is nothing to copy back.
  std::vector<bool> copies = stridedInputs(op);
  copies.resize(linalgOp->getNumOperands(), false);
  std::string promoted = emitStructuredPad(state, index, copies, "none").padded;
  op.handle = promoted;
}

Transformation promoteTransformation() {
  return {"promote",
          ParamKind::None,
          "copy each input tile whose rows lie apart into a contiguous "
          "buffer, once per tile",
          check,
          emit,
          /*extra=*/true};
}

} // namespace rlopt::linalg
