// RealImagExpander: real(x) of a real-typed x -> x, and imag(x) -> zeros of
// x's shape. Complex operands are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *expand(Instruction &instruction, ModuleEditor &editor) {
  if ((instruction.opcode() != Opcode::Real &&
       instruction.opcode() != Opcode::Imag) ||
      !isStaticArray(instruction.shape()))
    return nullptr;
  Instruction *operand = instruction.operand(0);
  if (isComplex(operand->shape().type()) ||
      !operand->shape().compatible(instruction.shape()))
    return nullptr;
  if (instruction.opcode() == Opcode::Real)
    return operand;
  return addFilled(editor, *instruction.parent(), instruction.shape(), 0);
}

} // namespace

Result<bool> runRealImagExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
