// AlgebraicSimplifier, broadcasts: broadcast(broadcast(x)) -> one
// broadcast; reshape, transpose, slice and reverse of a broadcast of a
// scalar -> a broadcast of the scalar; transpose of any broadcast -> a
// broadcast with permuted dimensions; slices that cut only broadcast
// dimensions -> a broadcast; an elementwise op whose operands are all
// broadcasts with the same dimensions of same-shaped arrays -> a broadcast
// of the op on those arrays (XLA's broadcast sinking). Ops mixing broadcast
// and full-size operands are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *rebroadcast(ModuleEditor &editor, Instruction &instruction,
                         Instruction *source, std::vector<int64_t> dims) {
  return addBroadcast(editor, *instruction.parent(), source,
                      instruction.shape(), dims);
}

Instruction *sinkThroughElementwise(Instruction &instruction,
                                    ModuleEditor &editor) {
  if (!isElementwise(instruction.opcode()) || instruction.operandCount() == 0)
    return nullptr;
  Instruction *first = instruction.operand(0);
  if (first->opcode() != Opcode::Broadcast)
    return nullptr;
  const Shape &inner = first->operand(0)->shape();
  if (inner.elementCount() >= instruction.shape().elementCount())
    return nullptr;
  std::vector<Instruction *> sources;
  for (Instruction *operand : instruction.operands()) {
    if (operand->opcode() != Opcode::Broadcast ||
        operand->dimensions() != first->dimensions() ||
        operand->operand(0)->shape().dims() != inner.dims())
      return nullptr;
    sources.push_back(operand->operand(0));
  }
  auto op = copyInstruction(
      instruction, editor.names().fresh(opcodeName(instruction.opcode())),
      sources);
  op->setShape(arrayShape(instruction.shape().type(), inner.dims()));
  Instruction *narrow = editor.adopt(*instruction.parent(), std::move(op));
  return rebroadcast(editor, instruction, narrow, first->dimensions());
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isStaticArray(instruction.shape()))
    return nullptr;
  if (Instruction *sunk = sinkThroughElementwise(instruction, editor))
    return sunk;
  if (instruction.operandCount() != 1)
    return nullptr;
  Instruction *operand = instruction.operand(0);
  if (operand->opcode() != Opcode::Broadcast)
    return nullptr;
  Instruction *source = operand->operand(0);
  const std::vector<int64_t> &inner = operand->dimensions();
  switch (instruction.opcode()) {
  case Opcode::Broadcast: {
    std::vector<int64_t> composed;
    for (int64_t dim : inner)
      composed.push_back(instruction.dimensions()[dim]);
    return rebroadcast(editor, instruction, source, composed);
  }
  case Opcode::Reshape:
  case Opcode::Reverse:
    if (source->shape().rank() == 0)
      return rebroadcast(editor, instruction, source, {});
    return nullptr;
  case Opcode::Transpose: {
    // Output dimension i is broadcast dimension perm[i].
    const std::vector<int64_t> &perm = instruction.dimensions();
    std::vector<int64_t> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      inverse[perm[i]] = static_cast<int64_t>(i);
    std::vector<int64_t> dims;
    for (int64_t dim : inner)
      dims.push_back(inverse[dim]);
    return rebroadcast(editor, instruction, source, dims);
  }
  case Opcode::Slice: {
    const std::vector<SliceDim> &slice = instruction.slice();
    for (int64_t dim : inner)
      if (slice[dim].start != 0 || slice[dim].stride != 1 ||
          slice[dim].limit != operand->shape().dim(dim))
        return nullptr;
    return rebroadcast(editor, instruction, source, inner);
  }
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpBroadcast(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
