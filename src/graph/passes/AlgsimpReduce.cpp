// AlgebraicSimplifier, reductions: a single-input reduce over dimensions
// of size 1 only (or over none) whose reducer is add, multiply, maximum,
// minimum, and, or or xor with that op's identity as init value combines
// every element with the identity alone, so it becomes a reshape. Other
// init values and variadic reduces are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <cmath>

namespace rlopt::graph {

namespace {

bool isIdentity(Opcode op, ElementType type, const Instruction *init) {
  bool floating = isFloating(type);
  switch (op) {
  case Opcode::Add:
  case Opcode::Or:
  case Opcode::Xor:
    return isUniformConstant(init, 0);
  case Opcode::Multiply:
    return isUniformConstant(init, 1);
  case Opcode::And:
    return type == ElementType::Pred && isUniformConstant(init, 1);
  case Opcode::Maximum:
    return floating && isUniformConstant(init, -INFINITY);
  case Opcode::Minimum:
    return floating && isUniformConstant(init, INFINITY);
  default:
    return false;
  }
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Reduce ||
      instruction.operandCount() != 2 || !isStaticArray(instruction.shape()))
    return nullptr;
  Instruction *input = instruction.operand(0), *init = instruction.operand(1);
  ElementType type = instruction.shape().type();
  if (input->shape().type() != type)
    return nullptr;
  for (int64_t d : instruction.dimensions())
    if (input->shape().dim(d) != 1)
      return nullptr;
  auto op = binaryReducerOpcode(instruction.calledComputation("to_apply"));
  if (!op || !isIdentity(*op, type, init))
    return nullptr;
  if (input->shape().compatible(instruction.shape()))
    return input;
  return addReshape(editor, *instruction.parent(), input,
                    instruction.shape().dims());
}

} // namespace

Result<bool> runAlgsimpReduce(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
