// AlgebraicSimplifier, no-op removal: reshape, broadcast, transpose, slice,
// pad, reverse, convert, bitcast(-convert), copy, concatenate, sort,
// dynamic-slice and dynamic-update-slice that leave their operand's data
// and shape unchanged are replaced by the operand (the update for a
// dynamic-update-slice covering the whole operand, whose start indices clamp
// to 0). Ops that only change the layout count as no-ops, as before XLA's
// layout assignment.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// The permutation keeps the order of the dimensions larger than 1.
bool movesOnlyDegenerateDims(const std::vector<int64_t> &permutation,
                             const Shape &operand) {
  int64_t last = -1;
  for (int64_t source : permutation) {
    if (operand.dim(source) == 1)
      continue;
    if (source < last)
      return false;
    last = source;
  }
  return true;
}

Instruction *simplify(Instruction &instruction, ModuleEditor &) {
  if (!isStaticArray(instruction.shape()) || instruction.operandCount() == 0)
    return nullptr;
  Instruction *operand = instruction.operand(0);
  bool sameShape = operand->shape().compatible(instruction.shape());
  switch (instruction.opcode()) {
  case Opcode::Reshape:
  case Opcode::Copy:
  case Opcode::Bitcast:
  case Opcode::Convert:
  case Opcode::BitcastConvert:
    return sameShape ? operand : nullptr;
  case Opcode::Broadcast:
    return sameShape && isIdentityPermutation(instruction.dimensions())
               ? operand
               : nullptr;
  case Opcode::Transpose:
    return sameShape && movesOnlyDegenerateDims(instruction.dimensions(),
                                                operand->shape())
               ? operand
               : nullptr;
  case Opcode::Slice: {
    if (!sameShape)
      return nullptr;
    for (const SliceDim &dim : instruction.slice())
      if (dim.start != 0 || dim.stride != 1)
        return nullptr;
    return operand;
  }
  case Opcode::Pad: {
    for (const PadDim &dim : instruction.padding())
      if (dim.low != 0 || dim.high != 0 || dim.interior != 0)
        return nullptr;
    return sameShape ? operand : nullptr;
  }
  case Opcode::Reverse: {
    for (int64_t dim : instruction.dimensions())
      if (operand->shape().dim(dim) > 1)
        return nullptr;
    return sameShape ? operand : nullptr;
  }
  case Opcode::Concatenate:
    return instruction.operandCount() == 1 && sameShape ? operand : nullptr;
  case Opcode::Sort: {
    if (instruction.operandCount() != 1 || !sameShape ||
        instruction.dimensions().size() != 1)
      return nullptr;
    return operand->shape().dim(instruction.dimensions()[0]) <= 1 ? operand
                                                                  : nullptr;
  }
  case Opcode::DynamicSlice:
    return sameShape ? operand : nullptr;
  case Opcode::DynamicUpdateSlice: {
    Instruction *update = instruction.operand(1);
    return update->shape().compatible(instruction.shape()) ? update : nullptr;
  }
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpNoOp(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
