// AlgebraicSimplifier, pads: pad(broadcast(c), c) -> broadcast(c) into the
// padded shape; pad(pad(x, v), v) with the same padding value and no
// interior or negative padding -> one pad. Negative padding is left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool sameValue(const Instruction *a, const Instruction *b) {
  if (a == b)
    return true;
  auto x = uniformConstantValue(a), y = uniformConstantValue(b);
  return x && y && *x == *y && a->shape().type() == b->shape().type();
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Pad ||
      !isStaticArray(instruction.shape()))
    return nullptr;
  Instruction *operand = instruction.operand(0);
  Instruction *value = instruction.operand(1);
  Computation &computation = *instruction.parent();
  if (operand->opcode() == Opcode::Broadcast &&
      operand->operand(0)->shape().rank() == 0 &&
      sameValue(operand->operand(0), value))
    return addBroadcast(editor, computation, value, instruction.shape(), {});
  if (operand->opcode() != Opcode::Pad ||
      !sameValue(operand->operand(1), value))
    return nullptr;
  std::vector<PadDim> combined;
  for (size_t i = 0; i < instruction.padding().size(); ++i) {
    const PadDim &outer = instruction.padding()[i];
    const PadDim &inner = operand->padding()[i];
    if (outer.interior != 0 || inner.interior != 0 || outer.low < 0 ||
        outer.high < 0 || inner.low < 0 || inner.high < 0)
      return nullptr;
    combined.push_back({outer.low + inner.low, outer.high + inner.high, 0});
  }
  if (combined.empty())
    return nullptr;
  return editor.add(
      computation, Opcode::Pad,
      arrayShape(instruction.shape().type(), instruction.shape().dims()),
      {operand->operand(0), value}, {{"padding", formatPadding(combined)}});
}

} // namespace

Result<bool> runAlgsimpPad(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
