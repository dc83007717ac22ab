// vectorize: turn the op (usually a tile) into vector ops. Partial tiles are
// vectorized with masks (vector sizes = the tile's upper bounds). 2-D
// convolutions and poolings are first decomposed to their 1-D form, which
// needs a 1 x 1 (output row x window row) tile. A packed convolution (a
// linalg.generic whose maps add window loops) becomes a contraction once the
// unit loops of its tile fold away. The script then lowers contractions to
// FMAs (ScriptWriter).
#include "rlopt/linalg/Transformation.h"
#include "rlopt/measure/MachineInfo.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

namespace rlopt::linalg {

/// Loop positions of (output row, window row) and (output col, window col)
/// for the windowed ops the 1-D decomposition handles; empty otherwise.
static std::vector<std::pair<unsigned, unsigned>>
windowLoops(const std::string &kind) {
  if (kind == "linalg.conv_2d_nhwc_hwcf" || kind == "linalg.conv_2d_nhwc_fhwc")
    return {{1, 4}, {2, 5}};
  if (kind == "linalg.conv_2d_nchw_fchw")
    return {{2, 5}, {3, 6}};
  if (kind == "linalg.depthwise_conv_2d_nhwc_hwc" ||
      kind == "linalg.pooling_nhwc_max" || kind == "linalg.pooling_nhwc_sum")
    return {{1, 4}, {2, 5}};
  return {};
}

static bool hasProjectedMaps(const OpState &op) {
  if (op.img2col)
    return true;
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  for (mlir::AffineMap map : linalgOp.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return false;
  return true;
}

static bool needsDecomposition(const OpState &op) {
  return !op.img2col && op.windows.empty() &&
         (op.opClass == OpClass::Conv2d || op.opClass == OpClass::Pooling);
}

/// Why a packed convolution's tile does not fold into a contraction yet.
static std::optional<std::string> whyWindowsDoNotFold(const OpState &op) {
  for (const std::vector<WindowLoop> &window : op.windows) {
    int wide = 0;
    std::string loops;
    for (WindowLoop w : window) {
      if (op.ranges[w.loop] > 1 && w.coefficient != 1)
        return "loop " + std::to_string(w.loop) + " steps by " +
               std::to_string(w.coefficient) +
               " through its window: tile it to 1 first";
      wide += op.ranges[w.loop] > 1;
      loops += (loops.empty() ? "" : ", ") + std::to_string(w.loop);
    }
    if (wide > 1)
      return "tile all but one of the window's loops (" + loops +
             ") to 1 first, so the packed convolution folds into a "
             "contraction";
  }
  if (op.hasPartialTiles() || op.peeled)
    return std::string("packed convolution tiles must divide the loops");
  // Unit loops fold in the loop around the op, not in the whole function.
  if (op.loopsMade == 0 && !op.parallelized)
    return std::string("tile the packed convolution first");
  return std::nullopt;
}

/// The vector length of a remainder along the loop that runs across lanes:
/// the remainder itself when it is whole registers or a power of two (4 of
/// 16 lanes), else rounded up to the next of those under a mask, at most
/// the main part's. LLVM splits a vector of 17 floats into pieces: it
/// measured 12% slower than 32 lanes under a mask.
static int64_t laneRest(int64_t rest, int64_t main, int64_t lanes) {
  if (rest % lanes == 0 || llvm::isPowerOf2_64(rest))
    return rest;
  int64_t rounded = rest < lanes ? int64_t(llvm::PowerOf2Ceil(rest))
                                 : int64_t(llvm::alignTo(rest, lanes));
  return std::min(rounded, main);
}

/// The vector sizes of each part a peeled op's handle holds, in its order
/// (OpState::peeledLoops).
static std::vector<std::vector<int64_t>> peeledPartSizes(const OpState &op) {
  // Vectors run across the last parallel loop (a matmul's columns).
  unsigned laneLoop = op.numLoops();
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (!op.isReduction[l])
      laneLoop = l;
  int64_t lanes = lanesOf(op, measure::hostMachine().target);
  std::vector<std::vector<int64_t>> parts;
  for (unsigned part = 0; part < (1u << op.peeledLoops.size()); ++part) {
    std::vector<int64_t> sizes = op.ranges;
    for (unsigned j = 0; j < op.peeledLoops.size(); ++j) {
      unsigned l = op.peeledLoops[j];
      if (part >> j & 1)
        sizes[l] = l == laneLoop ? laneRest(op.rests[l], op.ranges[l], lanes)
                                 : op.rests[l];
    }
    parts.push_back(sizes);
  }
  return parts;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &) {
  const OpState &op = state.ops[index];
  if (!op.windows.empty()) {
    if (auto why = whyWindowsDoNotFold(op))
      return why;
  } else if (needsDecomposition(op)) {
    auto window = windowLoops(op.kind);
    if (window.empty() || op.generalized)
      return op.kind + " cannot be vectorized" +
             (op.opClass == OpClass::Conv2d ? " (use img2col first)" : "");
    bool rows =
        op.ranges[window[0].first] == 1 && op.ranges[window[0].second] == 1;
    bool cols =
        op.ranges[window[1].first] == 1 && op.ranges[window[1].second] == 1;
    if (!rows && !cols)
      return "tile the output row and window row loops (" +
             std::to_string(window[0].first) + ", " +
             std::to_string(window[0].second) +
             ") to 1 first, so the op decomposes to a 1-D convolution";
    if (op.hasPartialTiles())
      return std::string("convolution tiles must divide the loops");
  } else if (!hasProjectedMaps(op)) {
    return std::string("the op's indexing maps are not projected "
                       "permutations, which the vectorizer needs");
  }
  if (op.kind == "linalg.reduce" && (op.hasPartialTiles() || op.peeled))
    return std::string("MLIR 19 cannot mask linalg.reduce: tile sizes must "
                       "divide the loops, without peel");
  if (op.iterationCount() > state.limits.maxVectorElements)
    return "the op spans " + std::to_string(op.iterationCount()) +
           " points; tile it to at most " +
           std::to_string(state.limits.maxVectorElements) +
           " (max_vector_elements) first";
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  OpState &op = state.ops[index];
  // A peeled window op's remainder tile is one iteration of a loop whose
  // size MLIR leaves dynamic; the convolution vectorizer cannot mask it, so
  // loops are canonicalized first and the remainder becomes static.
  bool staticRest = needsDecomposition(op) && op.peeled;
  if (staticRest) {
    std::string function = state.script.fresh(op.info->id + "_func");
    state.script.line(function + " = transform.get_parent_op " + op.handle +
                      " {isolated_from_above, deduplicate} : "
                      "(!transform.any_op) -> !transform.any_op");
    state.script.line(
        "transform.apply_patterns to " + function +
        " { transform.apply_patterns.scf.for_loop_canonicalization "
        "transform.apply_patterns.canonicalization } : !transform.any_op");
  }
  if (!op.windows.empty()) {
    std::string parent = state.script.fresh(op.info->id + "_parent");
    state.script.line(parent + " = transform.get_parent_op " + op.handle +
                      " : (!transform.any_op) -> !transform.any_op");
    state.script.line("transform.apply_patterns to " + parent +
                      " { transform.apply_patterns.linalg."
                      "fold_unit_extent_dims_via_slices } : !transform.any_op");
  }
  if (needsDecomposition(op)) {
    std::string decomposed = state.script.fresh(op.info->id + "_1d");
    state.script.line(decomposed + " = transform.structured.decompose " +
                      op.handle +
                      " : (!transform.any_op) -> !transform.any_op");
    op.handle = decomposed;
  }
  // Each part of a peeled op vectorizes at its own tile's sizes. At the
  // main part's sizes a remainder of 4 columns computed 8 times its work
  // under masks, and kept its masked accumulator in memory across the
  // reduction: 40% of a 576 x 196 matmul's time went to its last 4 columns.
  std::vector<std::string> parts = {op.handle};
  std::vector<std::vector<int64_t>> partSizes = {op.ranges};
  bool masked = op.hasPartialTiles() || (op.peeled && !staticRest);
  if (op.peeled && !staticRest) { // peel split at least one loop: 2+ parts
    partSizes = peeledPartSizes(op);
    parts.clear();
    for (size_t i = 0; i < partSizes.size(); ++i)
      parts.push_back(state.script.fresh(op.info->id + "_part"));
    state.script.line(llvm::join(parts, ", ") + " = transform.split_handle " +
                      op.handle + " : (!transform.any_op) -> " +
                      ScriptWriter::anyOps(parts.size()));
  }
  // A split reduction tiled to one step of its outer loop reduces over a
  // unit dimension: canonicalizing it away at once, in the loop around it
  // only, leaves vertical adds, where the later contraction lowering would
  // shuffle lanes.
  bool unitSplit = false;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    unitSplit |= op.splitReduction && op.isReduction[l] && op.ranges[l] == 1;
  std::string parent;
  if (unitSplit) {
    parent = state.script.fresh(op.info->id + "_parent");
    state.script.line(parent + " = transform.get_parent_op " + op.handle +
                      " : (!transform.any_op) -> !transform.any_op");
  }
  for (size_t i = 0; i < parts.size(); ++i)
    state.script.line(
        "transform.structured.vectorize " + parts[i] +
        (masked ? " vector_sizes " + ScriptWriter::intList(partSizes[i]) : "") +
        " : !transform.any_op");
  if (unitSplit)
    state.script.line("transform.apply_patterns to " + parent +
                      " { transform.apply_patterns.canonicalization } : "
                      "!transform.any_op");
  op.vectorized = true;
  state.lowerVectors = true;
}

Transformation vectorizeTransformation() {
  return {"vectorize", ParamKind::None,
          "vectorize the op (masked for partial tiles); ends its schedule",
          check, emit};
}

} // namespace rlopt::linalg
