// AlgebraicSimplifier, select and compare: select(p, x, x) -> x; select
// with a constant predicate -> the chosen operand; select(not(p), a, b) ->
// select(p, b, a); select(p, true, false) -> p; compare(x, x) on integers
// -> a constant; predicate x == true and x != false -> x; not(compare) on
// integers -> the inverse compare. Float compares are never inverted or
// folded (NaN compares unordered).
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool isIntegralType(ElementType type) {
  return !isFloating(type) && !isComplex(type);
}

ComparisonDirection inverse(ComparisonDirection direction) {
  switch (direction) {
  case ComparisonDirection::Eq:
    return ComparisonDirection::Ne;
  case ComparisonDirection::Ne:
    return ComparisonDirection::Eq;
  case ComparisonDirection::Ge:
    return ComparisonDirection::Lt;
  case ComparisonDirection::Gt:
    return ComparisonDirection::Le;
  case ComparisonDirection::Le:
    return ComparisonDirection::Gt;
  case ComparisonDirection::Lt:
    return ComparisonDirection::Ge;
  }
  return direction;
}

Instruction *simplifySelect(Instruction &instruction, ModuleEditor &editor) {
  Instruction *predicate = instruction.operand(0);
  Instruction *onTrue = instruction.operand(1),
              *onFalse = instruction.operand(2);
  if (!onTrue->shape().compatible(instruction.shape()) ||
      !onFalse->shape().compatible(instruction.shape()))
    return nullptr;
  if (onTrue == onFalse)
    return onTrue;
  if (auto value = uniformConstantValue(predicate))
    return *value != 0 ? onTrue : onFalse;
  if (predicate->opcode() == Opcode::Not) {
    auto swapped = copyInstruction(instruction, editor.names().fresh("select"),
                                   {predicate->operand(0), onFalse, onTrue});
    return editor.adopt(*instruction.parent(), std::move(swapped));
  }
  if (instruction.shape().type() == ElementType::Pred &&
      predicate->shape().compatible(instruction.shape()) &&
      isUniformConstant(onTrue, 1) && isUniformConstant(onFalse, 0))
    return predicate;
  return nullptr;
}

Instruction *simplifyCompare(Instruction &instruction, ModuleEditor &editor) {
  Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
  auto direction = instruction.comparisonDirection();
  ElementType type = lhs->shape().type();
  if (!direction || !isIntegralType(type) ||
      instruction.findAttribute("type") != nullptr)
    return nullptr;
  if (lhs == rhs) {
    bool holds = *direction == ComparisonDirection::Eq ||
                 *direction == ComparisonDirection::Ge ||
                 *direction == ComparisonDirection::Le;
    return addFilled(editor, *instruction.parent(), instruction.shape(),
                     holds ? 1 : 0);
  }
  if (type == ElementType::Pred &&
      lhs->shape().compatible(instruction.shape())) {
    if ((*direction == ComparisonDirection::Eq && isUniformConstant(rhs, 1)) ||
        (*direction == ComparisonDirection::Ne && isUniformConstant(rhs, 0)))
      return lhs;
  }
  return nullptr;
}

Instruction *simplifyNot(Instruction &instruction, ModuleEditor &editor) {
  Instruction *operand = instruction.operand(0);
  if (operand->opcode() != Opcode::Compare ||
      instruction.shape().type() != ElementType::Pred)
    return nullptr;
  auto direction = operand->comparisonDirection();
  if (!direction || !isIntegralType(operand->operand(0)->shape().type()))
    return nullptr;
  auto inverted = copyInstruction(*operand, editor.names().fresh("compare"),
                                  operand->operands());
  Status status = inverted->setAttribute(
      "direction", std::string(comparisonDirectionName(inverse(*direction))));
  if (!status)
    return nullptr;
  return editor.adopt(*instruction.parent(), std::move(inverted));
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isStaticArray(instruction.shape()))
    return nullptr;
  switch (instruction.opcode()) {
  case Opcode::Select:
    return simplifySelect(instruction, editor);
  case Opcode::Compare:
    return simplifyCompare(instruction, editor);
  case Opcode::Not:
    return simplifyNot(instruction, editor);
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpSelect(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
