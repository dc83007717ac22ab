// LogisticExpander: logistic(x) -> 1 / (1 + exp(-x)), XLA's kExp expansion.
// Adds instructions.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *expand(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Logistic ||
      !isStaticArray(instruction.shape()) ||
      !isFloating(instruction.shape().type()))
    return nullptr;
  Computation &computation = *instruction.parent();
  const Shape &shape = instruction.shape();
  Instruction *x = instruction.operand(0);
  Instruction *negated = addUnary(editor, computation, Opcode::Negate, x);
  Instruction *exp = addUnary(editor, computation, Opcode::Exp, negated);
  Instruction *one = addFilled(editor, computation, shape, 1);
  Instruction *denominator =
      addBinary(editor, computation, Opcode::Add, one, exp);
  return addBinary(editor, computation, Opcode::Divide, one, denominator);
}

} // namespace

Result<bool> runLogisticExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
