// ConvertMover: converts commute with pure data movement (reshape,
// transpose, broadcast, slice, reverse, concatenate, pad with its padding
// value converted), so exact widening converts move down past them (the
// movement then runs on narrower data, and a concatenate of several
// converts needs one) and narrowing converts move up before them when the
// moved op has no other user. Pads move only when the padding value is a
// constant the narrow type holds exactly.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool isDataMovement(Opcode opcode) {
  switch (opcode) {
  case Opcode::Reshape:
  case Opcode::Transpose:
  case Opcode::Broadcast:
  case Opcode::Slice:
  case Opcode::Reverse:
  case Opcode::Concatenate:
  case Opcode::Pad:
    return true;
  default:
    return false;
  }
}

bool isWidening(const Instruction *convert) {
  ElementType from = convert->operand(0)->shape().type();
  ElementType to = convert->shape().type();
  return from != to && holdsEveryValue(from, to);
}

// The data operands of a movement op: all but pad's padding value.
size_t dataOperands(const Instruction &op) {
  return op.opcode() == Opcode::Pad ? 1 : op.operandCount();
}

// op(convert(a), convert(b), ...) -> convert(op(a, b, ...)).
Instruction *moveWideningDown(Instruction &op, ModuleEditor &editor) {
  Computation &computation = *op.parent();
  std::vector<Instruction *> operands;
  ElementType narrow = ElementType::Tuple;
  for (size_t i = 0; i < dataOperands(op); ++i) {
    Instruction *operand = op.operand(i);
    if (operand->opcode() != Opcode::Convert || !isWidening(operand))
      return nullptr;
    ElementType from = operand->operand(0)->shape().type();
    if (narrow != ElementType::Tuple && from != narrow)
      return nullptr;
    narrow = from;
    operands.push_back(operand->operand(0));
  }
  if (operands.empty())
    return nullptr;
  if (op.opcode() == Opcode::Pad) {
    // The padding value must survive the trip through the narrow type.
    auto value = uniformConstantValue(op.operand(1));
    if (!value || op.operand(1)->shape().rank() != 0 ||
        isFloating(narrow) != isFloating(op.shape().type()))
      return nullptr;
    Instruction *narrowValue = addScalar(editor, computation, narrow, *value);
    auto back = narrowValue->literal().floats.empty()
                    ? static_cast<double>(narrowValue->literal().integers[0])
                    : narrowValue->literal().floats[0];
    if (back != *value)
      return nullptr;
    operands.push_back(narrowValue);
  }
  auto moved = copyInstruction(
      op, editor.names().fresh(opcodeName(op.opcode())), operands);
  moved->setShape(arrayShape(narrow, op.shape().dims()));
  Instruction *narrowOp = editor.adopt(computation, std::move(moved));
  return addConvert(editor, computation, narrowOp, op.shape().type());
}

// convert(op(a, b, ...)) narrowing -> op(convert(a), convert(b), ...).
Instruction *moveNarrowingUp(Instruction &convert, ModuleEditor &editor,
                             const UseMap &uses) {
  Instruction *op = convert.operand(0);
  ElementType to = convert.shape().type();
  ElementType from = op->shape().type();
  if (!isDataMovement(op->opcode()) || holdsEveryValue(from, to) ||
      uses.useCount(op) != 1)
    return nullptr;
  Computation &computation = *convert.parent();
  std::vector<Instruction *> operands;
  for (Instruction *operand : op->operands())
    operands.push_back(addConvert(editor, computation, operand, to));
  auto moved = copyInstruction(
      *op, editor.names().fresh(opcodeName(op->opcode())), operands);
  moved->setShape(arrayShape(to, op->shape().dims()));
  return editor.adopt(computation, std::move(moved));
}

} // namespace

Result<bool> runConvertMover(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    UseMap uses(*computation);
    std::vector<Instruction *> order = topologicalOrder(*computation);
    for (Instruction *instruction : order) {
      editor.resolveOperands(*instruction);
      if (!isStaticArray(instruction->shape()))
        continue;
      Instruction *replacement = nullptr;
      if (isDataMovement(instruction->opcode()))
        replacement = moveWideningDown(*instruction, editor);
      else if (instruction->opcode() == Opcode::Convert &&
               isStaticArray(instruction->operand(0)->shape()))
        replacement = moveNarrowingUp(*instruction, editor, uses);
      if (replacement)
        editor.replace(instruction, replacement);
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
