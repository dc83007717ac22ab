// SimplifyFPConversions, restricted to exact cases: convert(convert(x))
// where the middle type holds every value of x's type (bf16/f16 -> f32,
// f32 -> f64, narrow integers widened, pred -> anything) depends only on
// x's value, so it becomes convert(x), or x itself when the types round-trip.
// Lossy chains such as f32 -> bf16 -> f32, which XLA removes when asked to
// trade accuracy for speed, are kept.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Convert ||
      !isStaticArray(instruction.shape()))
    return nullptr;
  Instruction *middle = instruction.operand(0);
  if (middle->opcode() != Opcode::Convert)
    return nullptr;
  Instruction *source = middle->operand(0);
  if (!holdsEveryValue(source->shape().type(), middle->shape().type()))
    return nullptr;
  if (source->shape().compatible(instruction.shape()))
    return source;
  return addConvert(editor, *instruction.parent(), source,
                    instruction.shape().type());
}

} // namespace

Result<bool> runSimplifyFPConversions(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
