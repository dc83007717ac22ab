// split_reduction(s0, ..., sn-1): split the op's one reduction loop r by the
// factor f = s_r (every other size 0). The op then keeps f partial results
// side by side: loop r runs K/f times and a new parallel loop r+1 of range f
// follows it, so a vectorized tile adds whole vectors instead of reducing
// each one across its lanes. A small combining op, vectorized here along the
// output's last dimension, adds the f partials into the original output.
// What long row reductions need: matrix-vector products, softmax and
// layernorm statistics.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>

namespace rlopt::linalg {

/// The op's body reduces with one operation that has a neutral element
/// (add, mul, max, min, ...), as MLIR's split needs.
static bool hasSplittableCombiner(mlir::Operation *op) {
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op);
  if (linalgOp.getNumDpsInits() != 1)
    return false;
  llvm::SmallVector<mlir::Operation *, 4> combiners;
  if (!mlir::matchReduction(linalgOp.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return false;
  return mlir::arith::getNeutralElement(combiners.front()).has_value();
}

/// Position of the op's first reduction loop.
static unsigned reductionLoop(const OpState &op) {
  return std::find(op.isReduction.begin(), op.isReduction.end(), true) -
         op.isReduction.begin();
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  const OpState &op = state.ops[index];
  if (std::count(op.isReduction.begin(), op.isReduction.end(), true) != 1)
    return std::string("the op needs exactly one reduction loop");
  if (op.img2col || op.fusedOpaque)
    return std::string("the op's body is no longer its own");
  // MLIR's split reads every map as a projected permutation.
  if (!mlir::cast<mlir::linalg::LinalgOp>(op.info->op)
           .hasOnlyProjectedPermutations())
    return std::string("the op's indexing maps are not projected "
                       "permutations (a convolution window)");
  // The combining op's shape is read from the original loop order.
  for (const TransformStep &step : op.history)
    if (step.name == "interchange")
      return std::string("split the reduction before interchange");
  if (op.splitReduction)
    return std::string("the reduction is already split");
  if (op.hasPartialTiles())
    return std::string("tile sizes must divide the loops first");
  unsigned reduction = reductionLoop(op);
  for (unsigned l = 0; l < sizes.size(); ++l)
    if (l != reduction && sizes[l] != 0)
      return "only the reduction loop (" + std::to_string(reduction) +
             ") takes a factor";
  int64_t factor = sizes[reduction], range = op.ranges[reduction];
  if (factor < 2 || factor >= range || range % factor != 0)
    return "the factor must divide the reduction loop (" +
           std::to_string(range) + ") and lie in 2.." +
           std::to_string(range / 2);
  if (factor > state.limits.maxVectorElements)
    return "the factor exceeds max_vector_elements (" +
           std::to_string(state.limits.maxVectorElements) + ")";
  if (!hasSplittableCombiner(op.info->op))
    return std::string("the op's body is not a reduction with a neutral "
                       "element (add, mul, max, min)");
  return std::nullopt;
}

/// Ranges of the output's dimensions, from the loops its map reads.
static std::vector<int64_t> outputRanges(const OpState &op) {
  std::vector<int64_t> ranges;
  for (const std::vector<int64_t> &row : op.info->stores.front()) {
    int64_t range = 1;
    for (unsigned l = 0; l + 1 < row.size() && l < op.numLoops(); ++l)
      if (row[l] != 0)
        range = op.ranges[l];
    ranges.push_back(range);
  }
  return ranges;
}

/// Tiles the combining op to (1, ..., 1, t, 0) with t rows of f partials in
/// one vector, then vectorizes it.
static void scheduleCombiner(ScheduleState &state, const std::string &handle,
                             const std::vector<int64_t> &outRanges,
                             int64_t factor) {
  std::vector<int64_t> sizes(outRanges.size() + 1, 0);
  if (!outRanges.empty()) {
    for (size_t d = 0; d + 1 < outRanges.size(); ++d)
      sizes[d] = outRanges[d] > 1 ? 1 : 0;
    int64_t last = outRanges.back(), rows = 1;
    for (int64_t t = 16; t > 1; t /= 2)
      if (last % t == 0 && t * factor <= state.limits.maxVectorElements) {
        rows = t;
        break;
      }
    sizes[outRanges.size() - 1] = rows < last ? rows : 0;
  }
  bool anyTiled =
      std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s != 0; });
  std::string tiled =
      anyTiled ? state.script.tileUsingFor(handle, sizes, "combine") : handle;
  state.script.line("transform.structured.vectorize " + tiled +
                    " : !transform.any_op");
  state.lowerVectors = true;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  OpState &op = state.ops[index];
  unsigned reduction = reductionLoop(op);
  int64_t factor = sizes[reduction];
  std::vector<int64_t> outRanges = outputRanges(op);
  std::string init = state.script.fresh(op.info->id + "_split_init");
  std::string fill = state.script.fresh(op.info->id + "_split_fill");
  std::string split = state.script.fresh(op.info->id + "_split");
  std::string combine = state.script.fresh(op.info->id + "_combine");
  // The partials go last in their tensor, so f of them are contiguous.
  state.script.line(
      init + ", " + fill + ", " + split + ", " + combine +
      " = transform.structured.split_reduction " + op.handle +
      " { split_factor = " + std::to_string(factor) +
      ", insert_split_dimension = " + std::to_string(outRanges.size()) +
      ", inner_parallel } : (!transform.any_op) -> " + ScriptWriter::anyOps(4));
  scheduleCombiner(state, combine, outRanges, factor);

  op.handle = split;
  op.kind = "linalg.generic";
  op.generalized = true;
  op.splitReduction = true;
  op.ranges[reduction] /= factor;
  op.ranges.insert(op.ranges.begin() + reduction + 1, factor);
  op.isReduction.insert(op.isReduction.begin() + reduction + 1, false);
  op.partial.insert(op.partial.begin() + reduction + 1, false);
  op.rests.insert(op.rests.begin() + reduction + 1, 0);
  forgetForLoops(op);
}

/// A head's size on the reduction loop means the largest factor from 2 to
/// it that divides the loop (below its range); other loops' heads mean
/// nothing.
static void fromHeads(const OpState &op, std::vector<int64_t> &sizes) {
  for (unsigned l = 0; l < sizes.size(); ++l) {
    int64_t chosen = sizes[l];
    sizes[l] = 0;
    if (!op.isReduction[l])
      continue;
    for (int64_t f = std::min(chosen, op.ranges[l] - 1); f >= 2; --f)
      if (op.ranges[l] % f == 0) {
        sizes[l] = f;
        break;
      }
  }
}

Transformation splitReductionTransformation() {
  return {"split_reduction",
          ParamKind::PerReductionLoop,
          "keep f partial results of the reduction loop side by side "
          "(a new parallel loop of range f after it), added up at the end",
          check,
          emit,
          /*extra=*/true,
          fromHeads};
}

} // namespace rlopt::linalg
