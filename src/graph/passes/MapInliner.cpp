// MapInliner: a map whose computation is a single elementwise op of its
// parameters becomes that op on the map's operands (a map returning a
// parameter becomes that operand). Maps of larger computations are left
// alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *inlineMap(Instruction &map, ModuleEditor &editor) {
  if (map.opcode() != Opcode::Map || !isStaticArray(map.shape()))
    return nullptr;
  const Computation *applied = map.calledComputation("to_apply");
  if (!applied)
    return nullptr;
  const Instruction *root = applied->root();
  auto operandFor = [&](const Instruction *parameter) -> Instruction * {
    int64_t number = parameter->parameterNumber();
    if (parameter->opcode() != Opcode::Parameter || number < 0 ||
        number >= static_cast<int64_t>(map.operandCount()))
      return nullptr;
    return map.operand(number);
  };
  if (root->opcode() == Opcode::Parameter) {
    Instruction *operand = operandFor(root);
    return operand && operand->shape().compatible(map.shape()) ? operand
                                                               : nullptr;
  }
  if (!isElementwise(root->opcode()))
    return nullptr;
  std::vector<Instruction *> operands;
  for (const Instruction *operand : root->operands()) {
    Instruction *mapped = operandFor(operand);
    if (!mapped)
      return nullptr;
    operands.push_back(mapped);
  }
  auto op = copyInstruction(
      *root, editor.names().fresh(opcodeName(root->opcode())), operands);
  op->setShape(arrayShape(map.shape().type(), map.shape().dims()));
  return editor.adopt(*map.parent(), std::move(op));
}

} // namespace

Result<bool> runMapInliner(Module &module) {
  return rewriteEachInstruction(module, inlineMap);
}

} // namespace rlopt::graph
