// pack(s0, ..., sn-1): data tiling. Loop i is split into an outer loop of
// ceil(range/s_i) blocks, the last padded (parallel loops only), and an
// inner loop of s_i (0 = not packed), and every operand is
// copied once into a tiled layout whose inner tiles are the s_i blocks, as
// IREE's data tiling and linalg.mmt4d do. An input's tiles come reduction
// dimensions first (a k x n panel of B, a k x m panel of A: one row per step
// of the outer-product kernel), and its outer dimensions reduction last, so
// the panels one register tile reads across the reduction are contiguous
// instead of a row stride apart. The result is unpacked once at the end.
// The op becomes a linalg.generic over (outer loops..., inner loops...),
// which the later steps tile and vectorize; only parallelize may come
// before it. A convolution packs along loops that index whole dimensions
// (filters, channels), never along one that slides over its window.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include <algorithm>
#include <numeric>

namespace rlopt::linalg {

static unsigned packedCount(const std::vector<int64_t> &sizes) {
  return std::count_if(sizes.begin(), sizes.end(),
                       [](int64_t s) { return s != 0; });
}

/// The loop that operand dimension `d` reads; none for a window's sum of
/// loops (output row + window row).
static std::optional<unsigned> loopOf(mlir::AffineMap map, unsigned d) {
  if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(map.getResult(d)))
    return dim.getPosition();
  return std::nullopt;
}

/// Whether `expr` is a window's sum of loops (oh * stride + kh * dilation):
/// at least two loops, positive coefficients, no offset and no division.
static bool isWindowSum(mlir::AffineExpr expr, int &loops) {
  if (mlir::isa<mlir::AffineDimExpr>(expr)) {
    ++loops;
    return true;
  }
  auto binary = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (expr.getKind() == mlir::AffineExprKind::Add)
    return isWindowSum(binary.getLHS(), loops) &&
           isWindowSum(binary.getRHS(), loops);
  auto scale = mlir::dyn_cast<mlir::AffineConstantExpr>(binary.getRHS());
  return expr.getKind() == mlir::AffineExprKind::Mul && scale &&
         scale.getValue() > 0 &&
         mlir::isa<mlir::AffineDimExpr>(binary.getLHS()) && ++loops > 0;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  const OpState &op = state.ops[index];
  // After parallelize, each thread packs the operands of its own tile.
  bool onlyParallelized = std::all_of(
      op.history.begin(), op.history.end(),
      [](const TransformStep &s) { return s.name == "parallelize"; });
  if (!onlyParallelized || op.fusedInto >= 0)
    return std::string("pack must come before every step but parallelize");
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  if (linalgOp.getNumDpsInits() != 1 || linalgOp->getNumResults() != 1)
    return std::string("the op needs exactly one result");
  llvm::SmallVector<mlir::AffineMap> maps = linalgOp.getIndexingMapsArray();
  for (mlir::AffineMap map : maps)
    for (unsigned d = 0; d < map.getNumResults(); ++d) {
      int loops = 0;
      if (!loopOf(map, d) &&
          !(isWindowSum(map.getResult(d), loops) && loops >= 2))
        return std::string("an operand dimension is read neither by one loop "
                           "nor by a window's sum of loops (an offset, a "
                           "scale or a division)");
    }
  // A window's extent in the operand is read from its type, whole.
  std::vector<std::vector<WindowLoop>> windows = analyzedWindows(*op.info);
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (inWindow(windows, l) && op.ranges[l] != op.info->loopRanges[l])
      return "loop " + std::to_string(l) +
             " slides over a window: pack before parallelizing it";
  bool blocks = false;
  for (unsigned l = 0; l < sizes.size(); ++l) {
    if (sizes[l] == 0)
      continue;
    // A packed loop must read whole operand dimensions.
    if (inWindow(windows, l))
      return "loop " + std::to_string(l) +
             " slides over a window and does not pack";
    if (sizes[l] < 0 || sizes[l] > op.ranges[l])
      return "the size for loop " + std::to_string(l) + " must lie in 1.." +
             std::to_string(op.ranges[l]);
    // The last block of a parallel loop is padded with zeros and its extra
    // results dropped; padding a reduction would add its zeros in.
    if (op.ranges[l] % sizes[l] != 0 && op.isReduction[l])
      return "the size for reduction loop " + std::to_string(l) +
             " must divide its range (" + std::to_string(op.ranges[l]) + ")";
    blocks |= sizes[l] > 1;
  }
  if (!blocks)
    return std::string("no size above 1: nothing to pack");
  if (op.numLoops() + packedCount(sizes) > state.limits.maxLoops)
    return "packing makes " +
           std::to_string(op.numLoops() + packedCount(sizes)) +
           " loops, above max_loops (" + std::to_string(state.limits.maxLoops) +
           ")";
  return std::nullopt;
}

/// The operand's packed dimensions in the order the pack op lays out their
/// tiles: by loop.
static std::vector<unsigned>
packedDimsByLoop(mlir::AffineMap map, const std::vector<int64_t> &sizes) {
  std::vector<unsigned> dims;
  for (unsigned d = 0; d < map.getNumResults(); ++d)
    if (std::optional<unsigned> l = loopOf(map, d); l && sizes[*l] != 0)
      dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](unsigned a, unsigned b) {
    return *loopOf(map, a) < *loopOf(map, b);
  });
  return dims;
}

/// Blocks of `size` that cover `range`, the last one padded.
static int64_t blocksOf(int64_t range, int64_t size) {
  return (range + size - 1) / size;
}

/// Whether operand dimension `d` is packed.
static bool isPacked(mlir::AffineMap map, unsigned d,
                     const std::vector<int64_t> &sizes) {
  std::optional<unsigned> l = loopOf(map, d);
  return l && sizes[*l] != 0;
}

/// The layout of input `operand` after packing: outer dimensions with the
/// reduction ones last, inner tiles with the reduction ones first, each
/// group in the operand's own order; a window's dimension counts as a
/// parallel one. Permutations relative to the layout the pack op writes
/// (outer dimensions in operand order, inner tiles in loop order).
static void inputLayout(const OpState &op, mlir::AffineMap map,
                        const std::vector<int64_t> &sizes,
                        std::vector<int64_t> &outerPerm,
                        std::vector<int64_t> &innerPerm) {
  unsigned dims = map.getNumResults();
  auto reduces = [&](unsigned d) {
    std::optional<unsigned> l = loopOf(map, d);
    return l && op.isReduction[*l];
  };
  outerPerm.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (unsigned d = 0; d < dims; ++d)
      if (reduces(d) == (pass == 1))
        outerPerm.push_back(d);
  std::vector<unsigned> byLoop = packedDimsByLoop(map, sizes);
  innerPerm.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (unsigned d = 0; d < dims; ++d)
      if (isPacked(map, d, sizes) && reduces(d) == (pass == 0))
        innerPerm.push_back(std::find(byLoop.begin(), byLoop.end(), d) -
                            byLoop.begin());
}

/// Tiles a transpose written by lowering a pack or an unpack to one vector
/// per step: its output's last dimension whole, and 8 of the dimension its
/// input reads contiguously, so the copy moves whole vectors.
static void vectorizeTranspose(ScheduleState &state, const std::string &handle,
                               llvm::ArrayRef<int64_t> outputShape,
                               llvm::ArrayRef<int64_t> permutation) {
  unsigned rank = outputShape.size();
  std::vector<int64_t> tile(rank, 1);
  tile[rank - 1] = 0;
  // Output dimension i reads input dimension permutation[i]; find the one
  // that reads the input's last non-unit dimension.
  std::vector<int64_t> inputShape(rank);
  for (unsigned i = 0; i < rank; ++i)
    inputShape[permutation[i]] = outputShape[i];
  int64_t contiguous = rank - 1;
  while (contiguous > 0 && inputShape[contiguous] == 1)
    --contiguous;
  for (unsigned i = 0; i + 1 < rank; ++i)
    if (permutation[i] == contiguous && outputShape[i] > 1) {
      int64_t block = 8;
      while (block > 1 && outputShape[i] % block != 0)
        block /= 2;
      tile[i] = block;
    }
  int64_t elements = outputShape[rank - 1];
  for (unsigned i = 0; i + 1 < rank; ++i)
    elements *= tile[i];
  if (elements > state.limits.maxVectorElements)
    return; // left to the scalar loops
  std::string tiled = state.script.tileUsingFor(
      handle, tile, "pack_copy", "!transform.op<\"linalg.transpose\">");
  state.script.line("transform.structured.vectorize " + tiled +
                    " : !transform.any_op");
}

/// The operand with every packed dimension expanded to (outer, inner), in
/// operand order: the input of a lowered pack's transpose. A window's
/// dimension keeps the operand's extent.
static std::vector<int64_t> expandedShape(const OpState &op,
                                          mlir::AffineMap map,
                                          llvm::ArrayRef<int64_t> operandShape,
                                          const std::vector<int64_t> &sizes) {
  std::vector<int64_t> shape;
  for (unsigned d = 0; d < map.getNumResults(); ++d) {
    std::optional<unsigned> l = loopOf(map, d);
    if (!l) {
      shape.push_back(operandShape[d]);
      continue;
    }
    shape.push_back(sizes[*l] ? blocksOf(op.ranges[*l], sizes[*l])
                              : op.ranges[*l]);
    if (sizes[*l])
      shape.push_back(sizes[*l]);
  }
  return shape;
}

/// The permutation the transpose of a lowered pack applies: its input is
/// the operand with every packed dimension expanded to (outer, inner), in
/// operand order; its output the packed layout.
static std::vector<int64_t>
packTransposePermutation(mlir::AffineMap map, const std::vector<int64_t> &sizes,
                         const std::vector<int64_t> &outerPerm,
                         const std::vector<int64_t> &innerPerm) {
  unsigned dims = map.getNumResults();
  std::vector<int64_t> outerPos(dims), innerPos(dims, -1);
  int64_t position = 0;
  for (unsigned d = 0; d < dims; ++d) {
    outerPos[d] = position++;
    if (isPacked(map, d, sizes))
      innerPos[d] = position++;
  }
  std::vector<unsigned> byLoop = packedDimsByLoop(map, sizes);
  std::vector<int64_t> permutation;
  for (int64_t d : outerPerm)
    permutation.push_back(outerPos[d]);
  for (int64_t i : innerPerm)
    permutation.push_back(innerPos[byLoop[i]]);
  return permutation;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  OpState &op = state.ops[index];
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  llvm::SmallVector<mlir::AffineMap> maps = linalgOp.getIndexingMapsArray();
  const std::string &id = op.info->id;
  const char *packType = "!transform.op<\"tensor.pack\">";
  const char *genericType = "!transform.op<\"linalg.generic\">";

  std::string packed = state.script.fresh(id + "_packed");
  state.script.line(packed + " = transform.structured.pack " + op.handle +
                    " packed_sizes = " + ScriptWriter::intList(sizes) +
                    " : (!transform.any_op) -> (" + genericType + ")");
  struct Copy {
    std::string pack;
    std::vector<int64_t> expanded, permutation;
  };
  std::vector<Copy> copies;
  int resultCopy = -1;
  unsigned inputs = linalgOp.getNumDpsInputs();
  for (unsigned i = 0; i <= inputs; ++i) {
    unsigned packedDims = 0;
    for (unsigned d = 0; d < maps[i].getNumResults(); ++d)
      packedDims += isPacked(maps[i], d, sizes);
    if (packedDims == 0)
      continue; // read as it is
    // The result keeps the layout the pack op gives it.
    std::vector<int64_t> outerPerm(maps[i].getNumResults()),
        innerPerm(packedDims);
    std::iota(outerPerm.begin(), outerPerm.end(), 0);
    std::iota(innerPerm.begin(), innerPerm.end(), 0);
    if (i < inputs)
      inputLayout(op, maps[i], sizes, outerPerm, innerPerm);
    std::string pack = state.script.fresh(id + "_pack");
    state.script.line(pack + " = transform.get_producer_of_operand " + packed +
                      "[" + std::to_string(i) + "] : (" + genericType +
                      ") -> (" + packType + ")");
    if (!mlir::isIdentityPermutation(outerPerm) ||
        !mlir::isIdentityPermutation(innerPerm)) {
      std::string transposed = state.script.fresh(id + "_packed");
      std::string newPack = state.script.fresh(id + "_pack");
      std::string unpack = state.script.fresh(id + "_unpack");
      state.script.line(transposed + ", " + newPack + ", " + unpack +
                        " = transform.structured.pack_transpose " + pack +
                        " with_compute_op(" + packed +
                        ") outer_perm = " + ScriptWriter::intList(outerPerm) +
                        " inner_perm = " + ScriptWriter::intList(innerPerm) +
                        " : (" + packType + ", " + genericType + ") -> (" +
                        genericType + ", " + packType + ", !transform.any_op)");
      packed = transposed;
      pack = newPack;
    }
    if (i == inputs)
      resultCopy = copies.size();
    auto type =
        mlir::cast<mlir::ShapedType>(linalgOp->getOpOperand(i).get().getType());
    copies.push_back(
        {pack, expandedShape(op, maps[i], type.getShape(), sizes),
         packTransposePermutation(maps[i], sizes, outerPerm, innerPerm)});
  }
  // The packs become pad + expand_shape + transpose; the unpack transpose +
  // collapse_shape + extract_slice. Each transpose is then a vector copy.
  for (const Copy &copy : copies) {
    std::string pad = state.script.fresh(id + "_pack_pad");
    std::string expand = state.script.fresh(id + "_pack_expand");
    std::string transpose = state.script.fresh(id + "_pack_transpose");
    state.script.line(pad + ", " + expand + ", " + transpose +
                      " = transform.structured.lower_pack " + copy.pack +
                      " : (" + packType +
                      ") -> (!transform.op<\"tensor.pad\">, "
                      "!transform.op<\"tensor.expand_shape\">, "
                      "!transform.op<\"linalg.transpose\">)");
    vectorizeTranspose(
        state, transpose,
        mlir::applyPermutation(llvm::ArrayRef(copy.expanded), copy.permutation),
        copy.permutation);
  }
  if (resultCopy >= 0) {
    std::string unpack = state.script.fresh(id + "_unpack");
    state.script.line(unpack + " = transform.get_consumers_of_result " +
                      packed + "[0] : (" + genericType +
                      ") -> (!transform.op<\"tensor.unpack\">)");
    std::string empty = state.script.fresh(id + "_unpack_empty");
    std::string transpose = state.script.fresh(id + "_unpack_transpose");
    std::string collapse = state.script.fresh(id + "_unpack_collapse");
    std::string slice = state.script.fresh(id + "_unpack_slice");
    state.script.line(empty + ", " + transpose + ", " + collapse + ", " +
                      slice + " = transform.structured.lower_unpack " + unpack +
                      " : (!transform.op<\"tensor.unpack\">) -> "
                      "(!transform.op<\"tensor.empty\">, "
                      "!transform.op<\"linalg.transpose\">, "
                      "!transform.op<\"tensor.collapse_shape\">, "
                      "!transform.op<\"tensor.extract_slice\">)");
    // The unpack's transpose undoes the pack's.
    const Copy &result = copies[resultCopy];
    vectorizeTranspose(state, transpose, result.expanded,
                       mlir::invertPermutationVector(result.permutation));
  }
  state.lowerVectors = true;

  std::string handle = state.script.fresh(id + "_packed_op");
  state.script.line(handle + " = transform.cast " + packed + " : " +
                    genericType + " to !transform.any_op");
  op.handle = handle;
  op.kind = "linalg.generic";
  op.generalized = true;
  std::vector<int64_t> ranges;
  std::vector<bool> reduction;
  for (unsigned l = 0; l < op.numLoops(); ++l) {
    ranges.push_back(sizes[l] ? blocksOf(op.ranges[l], sizes[l])
                              : op.ranges[l]);
    reduction.push_back(op.isReduction[l]);
  }
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (sizes[l]) {
      ranges.push_back(sizes[l]);
      reduction.push_back(op.isReduction[l]);
    }
  op.ranges = ranges;
  op.isReduction = reduction;
  op.partial.assign(ranges.size(), false);
  op.rests.assign(ranges.size(), 0);
  forgetForLoops(op);
  // The outer loops keep their places, so a window's loops stay its loops.
  op.windows = analyzedWindows(*op.info);
  // The register tile's vectors have the outer loops' unit dimensions in
  // front; the contraction lowers to FMAs only without them. A convolution
  // folds its unit loops away before it vectorizes instead, and casting
  // away unit dimensions there measured 2.7x slower.
  if (op.windows.empty())
    state.dropLeadingUnitDims = true;
}

/// A head's size means the largest divisor of the loop up to it.
static void fromHeads(const OpState &op, std::vector<int64_t> &sizes) {
  for (unsigned l = 0; l < sizes.size(); ++l) {
    int64_t chosen = std::min(sizes[l], op.ranges[l]);
    sizes[l] = 0;
    for (int64_t s = chosen; s >= 1; --s)
      if (op.ranges[l] % s == 0) {
        sizes[l] = s;
        break;
      }
  }
  // Blocks of 1 alone copy without tiling: no step.
  if (std::none_of(sizes.begin(), sizes.end(), [](int64_t s) { return s > 1; }))
    std::fill(sizes.begin(), sizes.end(), 0);
}

Transformation packTransformation() {
  return {"pack",
          ParamKind::PerLoop,
          "copy the operands once into tiled layouts (inner tiles of the "
          "given sizes, 0 = loop not packed) so register tiles read "
          "contiguous panels",
          check,
          emit,
          /*extra=*/true,
          fromHeads};
}

} // namespace rlopt::linalg
