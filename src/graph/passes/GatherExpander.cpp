// GatherExpander in its "eliminate simple gathers" mode: a gather that
// reads one slice (every batch dimension of the indices has size 1)
// becomes dynamic-slice + reshape, the start indices sliced out of the index
// vector (constants when the indices are known); both clamp out-of-range
// starts the same way. Gathers of several slices (embedding lookups) would
// need a while loop and are left alone, as are gathers with operand
// batching dimensions.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *expand(Instruction &gather, ModuleEditor &editor) {
  if (gather.opcode() != Opcode::Gather || !isStaticArray(gather.shape()))
    return nullptr;
  Instruction *operand = gather.operand(0), *indices = gather.operand(1);
  auto startIndexMap = intListAttribute(gather, "start_index_map");
  auto sliceSizes = intListAttribute(gather, "slice_sizes");
  auto batching = intListAttribute(gather, "operand_batching_dims");
  // index_vector_dim has no default worth guessing for gathers.
  auto vectorDim = intAttribute(gather, "index_vector_dim", -1);
  int64_t rank = operand->shape().rank();
  if (!startIndexMap || !sliceSizes || !batching || !batching->empty() ||
      !vectorDim || static_cast<int64_t>(sliceSizes->size()) != rank ||
      !isSingleWindow(indices->shape(), *vectorDim, *startIndexMap, rank))
    return nullptr;

  Computation &computation = *gather.parent();
  std::vector<Instruction *> operands = {operand};
  for (Instruction *start : addWindowStarts(editor, computation, indices,
                                            *vectorDim, *startIndexMap, rank))
    operands.push_back(start);
  Instruction *slice =
      editor.add(computation, Opcode::DynamicSlice,
                 arrayShape(operand->shape().type(), *sliceSizes), operands,
                 {{"dynamic_slice_sizes", formatIntList(*sliceSizes)}});
  if (slice->shape().dims() == gather.shape().dims())
    return slice;
  return addReshape(editor, computation, slice, gather.shape().dims());
}

} // namespace

Result<bool> runGatherExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
