// ZeroSizedHloElimination: an instruction producing an array with no
// elements is replaced by an empty constant of its shape. Parameters,
// constants and side-effecting instructions are kept.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *eliminate(Instruction &instruction, ModuleEditor &editor) {
  const Shape &shape = instruction.shape();
  if (!isStaticArray(shape) || shape.elementCount() != 0 ||
      instruction.opcode() == Opcode::Constant ||
      instruction.opcode() == Opcode::Parameter || hasSideEffect(instruction))
    return nullptr;
  return editor.addConstant(*instruction.parent(),
                            arrayShape(shape.type(), shape.dims()),
                            formatLiteral(shape, {}));
}

} // namespace

Result<bool> runZeroSizedHloElimination(Module &module) {
  return rewriteEachInstruction(module, eliminate);
}

} // namespace rlopt::graph
