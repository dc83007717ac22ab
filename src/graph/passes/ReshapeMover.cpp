// ReshapeMover: an elementwise op whose operands are reshapes of arrays of
// one shape (or transposes with one permutation), the other operands being
// broadcast scalars or scalar constants, is done on the un-reshaped arrays
// and reshaped (transposed) once after: op(reshape(a), reshape(b)) ->
// reshape(op(a, b)). At least two operands must be reshapes (transposes),
// so the move saves one; unary ops and ops whose operands need reshaping of
// full-size arrays are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool isMovable(const Instruction *operand) {
  return operand->opcode() == Opcode::Reshape ||
         operand->opcode() == Opcode::Transpose;
}

bool isScalarLike(const Instruction *operand) {
  if (operand->shape().rank() == 0)
    return true;
  return operand->opcode() == Opcode::Broadcast &&
         operand->operand(0)->shape().rank() == 0;
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isElementwise(instruction.opcode()) ||
      !isStaticArray(instruction.shape()) || instruction.shape().rank() == 0)
    return nullptr;
  const Instruction *first = nullptr;
  for (Instruction *operand : instruction.operands()) {
    if (isMovable(operand) && operand->operand(0)->shape().elementCount() ==
                                  instruction.shape().elementCount()) {
      first = operand;
      break;
    }
  }
  if (!first)
    return nullptr;
  const Shape &inner = first->operand(0)->shape();
  Computation &computation = *instruction.parent();
  auto matches = [&](const Instruction *operand) {
    return operand->opcode() == first->opcode() &&
           operand->operand(0)->shape().dims() == inner.dims() &&
           (operand->opcode() == Opcode::Reshape ||
            operand->dimensions() == first->dimensions());
  };
  int64_t reshapes = 0;
  for (Instruction *operand : instruction.operands()) {
    if (matches(operand))
      ++reshapes;
    else if (!isScalarLike(operand))
      return nullptr;
  }
  // One reshape moved through a unary op saves nothing and would undo the
  // convert mover's work.
  if (reshapes < 2)
    return nullptr;
  std::vector<Instruction *> operands;
  for (Instruction *operand : instruction.operands()) {
    if (matches(operand))
      operands.push_back(operand->operand(0));
    else if (operand->shape().rank() == 0)
      operands.push_back(operand); // select/clamp scalar operands
    else
      operands.push_back(
          addBroadcast(editor, computation, operand->operand(0),
                       arrayShape(operand->shape().type(), inner.dims()), {}));
  }
  auto op = copyInstruction(
      instruction, editor.names().fresh(opcodeName(instruction.opcode())),
      operands);
  op->setShape(arrayShape(instruction.shape().type(), inner.dims()));
  Instruction *moved = editor.adopt(computation, std::move(op));
  if (first->opcode() == Opcode::Reshape)
    return addReshape(editor, computation, moved, instruction.shape().dims());
  return addTranspose(editor, computation, moved, first->dimensions());
}

} // namespace

Result<bool> runReshapeMover(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
