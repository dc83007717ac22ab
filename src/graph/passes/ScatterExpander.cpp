// ScatterExpander in its "eliminate simple scatters" mode: a scatter that
// writes one window (every batch dimension of the indices has size 1)
// becomes a dynamic-update-slice of the reshaped update at the window's
// start. A combiner that assigns writes the update itself; one that is a
// binary op of (old, update) writes op(dynamic-slice, update).
//
// Scatter skips a window that does not fit the operand, while
// dynamic-update-slice clamps its start into range, so only windows whose
// start is a known constant inside the operand are rewritten. Computed
// indices, several windows, variadic scatters and batching dimensions are
// left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

/// How the combiner merges the old value with the update.
struct Combiner {
  bool assigns = false;
  Opcode opcode = Opcode::Add; // when it does not assign
};

std::optional<Combiner> combinerOf(const Computation *computation,
                                   ElementType type) {
  if (!computation)
    return std::nullopt;
  std::vector<Instruction *> params = computation->parameters();
  if (params.size() != 2)
    return std::nullopt;
  for (const Instruction *param : params)
    if (param->shape().rank() != 0 || param->shape().type() != type)
      return std::nullopt;
  const Instruction *root = computation->root();
  if (root == params[1])
    return Combiner{true, Opcode::Add};
  auto opcode = binaryReducerOpcode(computation);
  if (!opcode || root->shape().type() != type)
    return std::nullopt;
  return Combiner{false, *opcode};
}

/// The window's size along each operand dimension, when the update's
/// window dimensions are in order and its other dimensions are `batchDims`
/// dimensions of size 1 (so a reshape turns the update into the window).
std::optional<std::vector<int64_t>>
windowSizes(const Shape &operand, const Shape &update,
            const std::vector<int64_t> &updateWindowDims,
            const std::vector<int64_t> &insertedWindowDims, int64_t batchDims) {
  for (size_t i = 1; i < updateWindowDims.size(); ++i)
    if (updateWindowDims[i] <= updateWindowDims[i - 1])
      return std::nullopt;
  if (update.rank() !=
      static_cast<int64_t>(updateWindowDims.size()) + batchDims)
    return std::nullopt;
  for (int64_t d = 0; d < update.rank(); ++d)
    if (update.dim(d) != 1 && !std::binary_search(updateWindowDims.begin(),
                                                  updateWindowDims.end(), d))
      return std::nullopt;
  std::vector<int64_t> sizes;
  size_t next = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (std::count(insertedWindowDims.begin(), insertedWindowDims.end(), d)) {
      sizes.push_back(1);
      continue;
    }
    if (next >= updateWindowDims.size())
      return std::nullopt;
    int64_t updateDim = updateWindowDims[next++];
    if (updateDim < 0 || updateDim >= update.rank() ||
        update.dim(updateDim) > operand.dim(d))
      return std::nullopt;
    sizes.push_back(update.dim(updateDim));
  }
  if (next != updateWindowDims.size() ||
      static_cast<int64_t>(insertedWindowDims.size()) !=
          operand.rank() - static_cast<int64_t>(next))
    return std::nullopt;
  return sizes;
}

Instruction *expand(Instruction &scatter, ModuleEditor &editor) {
  if (scatter.opcode() != Opcode::Scatter || scatter.operandCount() != 3 ||
      !isStaticArray(scatter.shape()))
    return nullptr;
  Instruction *operand = scatter.operand(0), *indices = scatter.operand(1),
              *update = scatter.operand(2);
  const Shape &operandShape = operand->shape(), &indexShape = indices->shape();
  ElementType type = operandShape.type();
  if (!isStaticArray(operandShape) || !isStaticArray(update->shape()) ||
      update->shape().type() != type)
    return nullptr;
  auto updateWindowDims = intListAttribute(scatter, "update_window_dims");
  auto insertedWindowDims = intListAttribute(scatter, "inserted_window_dims");
  auto toOperandDims =
      intListAttribute(scatter, "scatter_dims_to_operand_dims");
  auto inputBatching = intListAttribute(scatter, "input_batching_dims");
  auto indexBatching =
      intListAttribute(scatter, "scatter_indices_batching_dims");
  auto vectorDim = intAttribute(scatter, "index_vector_dim", indexShape.rank());
  int64_t rank = operandShape.rank();
  if (!updateWindowDims || !insertedWindowDims || !toOperandDims ||
      !inputBatching || !inputBatching->empty() || !indexBatching ||
      !indexBatching->empty() || !vectorDim ||
      !isSingleWindow(indexShape, *vectorDim, *toOperandDims, rank))
    return nullptr;
  int64_t batchDims =
      indexShape.rank() - (*vectorDim < indexShape.rank() ? 1 : 0);
  auto sizes = windowSizes(operandShape, update->shape(), *updateWindowDims,
                           *insertedWindowDims, batchDims);
  auto combiner = combinerOf(scatter.calledComputation("to_apply"), type);
  auto starts = knownIntegerValues(indices);
  if (!sizes || !combiner || !starts)
    return nullptr;
  // The one window must fit where it starts: scatter would skip it, the
  // rewrite would clamp it.
  for (size_t k = 0; k < toOperandDims->size(); ++k) {
    int64_t d = (*toOperandDims)[k];
    if ((*starts)[k] < 0 || (*starts)[k] > operandShape.dim(d) - (*sizes)[d])
      return nullptr;
  }

  Computation &computation = *scatter.parent();
  std::vector<Instruction *> startScalars = addWindowStarts(
      editor, computation, indices, *vectorDim, *toOperandDims, rank);
  Instruction *window = update;
  if (update->shape().dims() != *sizes)
    window = addReshape(editor, computation, update, *sizes);
  if (!combiner->assigns) {
    std::vector<Instruction *> sliceOperands = {operand};
    sliceOperands.insert(sliceOperands.end(), startScalars.begin(),
                         startScalars.end());
    Instruction *old = editor.add(
        computation, Opcode::DynamicSlice, arrayShape(type, *sizes),
        sliceOperands, {{"dynamic_slice_sizes", formatIntList(*sizes)}});
    window = addBinary(editor, computation, combiner->opcode, old, window);
  }
  std::vector<Instruction *> operands = {operand, window};
  operands.insert(operands.end(), startScalars.begin(), startScalars.end());
  return editor.add(computation, Opcode::DynamicUpdateSlice,
                    arrayShape(type, operandShape.dims()), operands);
}

} // namespace

Result<bool> runScatterExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
