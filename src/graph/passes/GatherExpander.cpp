// GatherExpander in its "eliminate simple gathers" mode: a gather that
// reads one slice (every batch dimension of the indices has size 1)
// becomes dynamic-slice + reshape, the start indices sliced out of the index
// vector; both clamp out-of-range starts the same way. Gathers of several
// slices (embedding lookups) would need a while loop and are left alone, as
// are gathers with operand batching dimensions.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

std::optional<std::vector<int64_t>> intListAttribute(const Instruction &op,
                                                     const char *key) {
  const Attribute *attribute = op.findAttribute(key);
  if (!attribute)
    return std::vector<int64_t>{};
  auto values = parseIntList(attribute->value);
  if (!values)
    return std::nullopt;
  return values.takeValue();
}

Instruction *expand(Instruction &gather, ModuleEditor &editor) {
  if (gather.opcode() != Opcode::Gather || !isStaticArray(gather.shape()))
    return nullptr;
  Instruction *operand = gather.operand(0), *indices = gather.operand(1);
  auto startIndexMap = intListAttribute(gather, "start_index_map");
  auto sliceSizes = intListAttribute(gather, "slice_sizes");
  auto batching = intListAttribute(gather, "operand_batching_dims");
  const Attribute *vectorDimAttribute =
      gather.findAttribute("index_vector_dim");
  if (!startIndexMap || !sliceSizes || !batching || !batching->empty() ||
      !vectorDimAttribute ||
      static_cast<int64_t>(sliceSizes->size()) != operand->shape().rank())
    return nullptr;
  int64_t vectorDim =
      std::strtoll(vectorDimAttribute->value.c_str(), nullptr, 10);
  const Shape &indexShape = indices->shape();
  if (vectorDim < 0 || vectorDim > indexShape.rank() ||
      !isStaticArray(indexShape))
    return nullptr;
  for (int64_t d = 0; d < indexShape.rank(); ++d)
    if (d != vectorDim && indexShape.dim(d) != 1)
      return nullptr;
  int64_t vectorLength =
      vectorDim < indexShape.rank() ? indexShape.dim(vectorDim) : 1;
  if (vectorLength != static_cast<int64_t>(startIndexMap->size()))
    return nullptr;

  Computation &computation = *gather.parent();
  ElementType indexType = indexShape.type();
  std::vector<Instruction *> starts(operand->shape().rank(), nullptr);
  for (int64_t k = 0; k < vectorLength; ++k) {
    std::vector<SliceDim> slice;
    for (int64_t d = 0; d < indexShape.rank(); ++d)
      slice.push_back(d == vectorDim ? SliceDim{k, k + 1, 1}
                                     : SliceDim{0, indexShape.dim(d), 1});
    Instruction *element = indices;
    if (indexShape.elementCount() != 1)
      element = addSlice(editor, computation, indices, slice);
    Instruction *scalar = element->shape().rank() == 0
                              ? element
                              : addReshape(editor, computation, element, {});
    int64_t dim = (*startIndexMap)[k];
    if (dim < 0 || dim >= operand->shape().rank() || starts[dim])
      return nullptr;
    starts[dim] = scalar;
  }
  std::vector<Instruction *> operands = {operand};
  for (Instruction *&start : starts) {
    if (!start)
      start = addScalar(editor, computation, indexType, 0);
    operands.push_back(start);
  }
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
