// AlgebraicSimplifier, arithmetic identities: x+0, x-0, x*1, x/1, x*0 and
// x-x for integers, double negation and complement, idempotent and/or/
// max/min, shifts by 0, x^1 and x^2, negations folded into add/subtract/
// multiply. Float rules only where IEEE arithmetic makes them exact (x*0 is
// not: NaN*0 and inf*0 are NaN).
#include "PassSupport.h"
#include "Passes.h"

#include <cmath>

namespace rlopt::graph {

namespace {

bool isIntegral(const Instruction *instruction) {
  ElementType type = instruction->shape().type();
  return !isFloating(type) && !isComplex(type);
}

bool sameShape(const Instruction *a, const Instruction *b) {
  return a->shape().compatible(b->shape());
}

// `x op identity` or `identity op x` -> x.
Instruction *dropIdentity(Instruction &instruction, double identity,
                          bool commutes) {
  Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
  if (isUniformConstant(rhs, identity) && sameShape(lhs, &instruction))
    return lhs;
  if (commutes && isUniformConstant(lhs, identity) &&
      sameShape(rhs, &instruction))
    return rhs;
  return nullptr;
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isStaticArray(instruction.shape()) ||
      isComplex(instruction.shape().type()))
    return nullptr;
  Computation &computation = *instruction.parent();
  Opcode opcode = instruction.opcode();
  bool integral = isIntegral(&instruction);
  bool pred = instruction.shape().type() == ElementType::Pred;

  if (isBinaryElementwise(opcode)) {
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (!sameShape(lhs, &instruction) || !sameShape(rhs, &instruction))
      return nullptr;
  }

  switch (opcode) {
  case Opcode::Add: {
    if (auto *x = dropIdentity(instruction, 0, true))
      return x;
    // a + (-b) -> a - b; (-a) + b -> b - a.
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (rhs->opcode() == Opcode::Negate)
      return addBinary(editor, computation, Opcode::Subtract, lhs,
                       rhs->operand(0));
    if (lhs->opcode() == Opcode::Negate)
      return addBinary(editor, computation, Opcode::Subtract, rhs,
                       lhs->operand(0));
    return nullptr;
  }
  case Opcode::Subtract: {
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (isUniformConstant(rhs, 0))
      return lhs;
    if (integral && lhs == rhs)
      return addFilled(editor, computation, instruction.shape(), 0);
    if (rhs->opcode() == Opcode::Negate)
      return addBinary(editor, computation, Opcode::Add, lhs, rhs->operand(0));
    return nullptr;
  }
  case Opcode::Multiply: {
    if (auto *x = dropIdentity(instruction, 1, true))
      return x;
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (integral) {
      if (isUniformConstant(rhs, 0))
        return rhs;
      if (isUniformConstant(lhs, 0))
        return lhs;
    }
    if (lhs->opcode() == Opcode::Negate && rhs->opcode() == Opcode::Negate)
      return addBinary(editor, computation, Opcode::Multiply, lhs->operand(0),
                       rhs->operand(0));
    return nullptr;
  }
  case Opcode::Divide:
    return dropIdentity(instruction, 1, false);
  case Opcode::Negate: {
    Instruction *operand = instruction.operand(0);
    if (operand->opcode() == Opcode::Negate)
      return operand->operand(0);
    return nullptr;
  }
  case Opcode::Not: {
    Instruction *operand = instruction.operand(0);
    if (operand->opcode() == Opcode::Not)
      return operand->operand(0);
    return nullptr;
  }
  case Opcode::Abs: {
    Instruction *operand = instruction.operand(0);
    if (operand->opcode() == Opcode::Abs)
      return operand;
    if (isUnsignedInteger(instruction.shape().type()) || pred)
      return operand;
    return nullptr;
  }
  case Opcode::And:
  case Opcode::Or: {
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (lhs == rhs)
      return lhs;
    bool isAnd = opcode == Opcode::And;
    // x & 0 = 0, x | 0 = x; for predicates also x & true = x, x | true =
    // true.
    if (auto *x = dropIdentity(instruction, isAnd ? 1 : 0, true);
        x && (pred || !isAnd))
      return x;
    if (isAnd || pred) {
      double absorbing = isAnd ? 0 : 1;
      if (isUniformConstant(rhs, absorbing))
        return rhs;
      if (isUniformConstant(lhs, absorbing))
        return lhs;
    }
    return nullptr;
  }
  case Opcode::Xor:
    return dropIdentity(instruction, 0, true);
  case Opcode::Maximum:
  case Opcode::Minimum: {
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (lhs == rhs)
      return lhs;
    if (!integral) {
      double identity = opcode == Opcode::Maximum ? -INFINITY : INFINITY;
      return dropIdentity(instruction, identity, true);
    }
    return nullptr;
  }
  case Opcode::ShiftLeft:
  case Opcode::ShiftRightArithmetic:
  case Opcode::ShiftRightLogical:
    return dropIdentity(instruction, 0, false);
  case Opcode::Power: {
    Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
    if (isUniformConstant(rhs, 1))
      return lhs;
    if (isUniformConstant(rhs, 2) && !integral)
      return addBinary(editor, computation, Opcode::Multiply, lhs, lhs);
    return nullptr;
  }
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpArith(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
