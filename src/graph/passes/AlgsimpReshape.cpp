// AlgebraicSimplifier, data-movement chains: reshape(reshape(x)) ->
// reshape(x), transpose(transpose(x)) -> one transpose (or x), a transpose
// that only moves dimensions of size 1 -> reshape, reverse(reverse(x)) ->
// one reverse over the dimensions reversed an odd number of times (or x).
// Reshapes of other ops (transpose, broadcast) are left to the other groups.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isStaticArray(instruction.shape()) || instruction.operandCount() != 1)
    return nullptr;
  Computation &computation = *instruction.parent();
  Instruction *operand = instruction.operand(0);
  switch (instruction.opcode()) {
  case Opcode::Reshape: {
    if (operand->opcode() != Opcode::Reshape)
      return nullptr;
    Instruction *source = operand->operand(0);
    if (source->shape().compatible(instruction.shape()))
      return source;
    return addReshape(editor, computation, source, instruction.shape().dims());
  }
  case Opcode::Transpose: {
    const std::vector<int64_t> &outer = instruction.dimensions();
    if (operand->opcode() == Opcode::Transpose) {
      const std::vector<int64_t> &inner = operand->dimensions();
      std::vector<int64_t> composed;
      for (int64_t dim : outer)
        composed.push_back(inner[dim]);
      Instruction *source = operand->operand(0);
      if (isIdentityPermutation(composed))
        return source;
      return addTranspose(editor, computation, source, composed);
    }
    // Moving only size-1 dimensions keeps the row-major order: a reshape.
    int64_t last = -1;
    for (int64_t source : outer) {
      if (operand->shape().dim(source) == 1)
        continue;
      if (source < last)
        return nullptr;
      last = source;
    }
    if (isIdentityPermutation(outer))
      return nullptr; // the no-op group removes it
    return addReshape(editor, computation, operand, instruction.shape().dims());
  }
  case Opcode::Reverse: {
    if (operand->opcode() != Opcode::Reverse)
      return nullptr;
    std::vector<int64_t> dims;
    for (int64_t dim : instruction.dimensions())
      if (std::count(operand->dimensions().begin(), operand->dimensions().end(),
                     dim) == 0)
        dims.push_back(dim);
    for (int64_t dim : operand->dimensions())
      if (std::count(instruction.dimensions().begin(),
                     instruction.dimensions().end(), dim) == 0)
        dims.push_back(dim);
    std::sort(dims.begin(), dims.end());
    Instruction *source = operand->operand(0);
    if (dims.empty())
      return source;
    return editor.add(
        computation, Opcode::Reverse,
        arrayShape(source->shape().type(), source->shape().dims()), {source},
        {{"dimensions", formatIntList(dims)}});
  }
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpReshape(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
