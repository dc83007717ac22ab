// ConvertOperandFolding: a dot or convolution operand that is an exact
// widening convert of the same kind (bf16/f16 -> f32, f32 -> f64, narrow
// integers widened) is replaced by the convert's input: the dot computes in
// its result type anyway, so the values are the same. Narrowing converts
// and int <-> float converts stay.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool foldable(const Instruction *operand) {
  if (operand->opcode() != Opcode::Convert)
    return false;
  ElementType from = operand->operand(0)->shape().type();
  ElementType to = operand->shape().type();
  return from != to && isFloating(from) == isFloating(to) &&
         from != ElementType::Pred && !isComplex(from) &&
         holdsEveryValue(from, to);
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Dot &&
      instruction.opcode() != Opcode::Convolution)
    return nullptr;
  if (instruction.operandCount() != 2)
    return nullptr;
  std::vector<Instruction *> operands = instruction.operands();
  bool folded = false;
  for (Instruction *&operand : operands)
    if (foldable(operand)) {
      operand = operand->operand(0);
      folded = true;
    }
  if (!folded)
    return nullptr;
  auto copy = copyInstruction(
      instruction, editor.names().fresh(opcodeName(instruction.opcode())),
      operands);
  return editor.adopt(*instruction.parent(), std::move(copy));
}

} // namespace

Result<bool> runConvertOperandFolding(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
