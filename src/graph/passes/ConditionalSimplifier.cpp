// ConditionalSimplifier: a conditional whose predicate or branch index is a
// constant is replaced by the chosen branch, inlined with its operand (an
// index out of range picks the last branch, as XLA defines). Conditionals
// with a computed predicate are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// The branch a constant selector picks, or null.
Computation *chosenBranch(const Instruction &conditional, int64_t &operand) {
  auto selector = uniformConstantValue(conditional.operand(0));
  if (!selector || conditional.operand(0)->shape().rank() != 0)
    return nullptr;
  if (conditional.operand(0)->shape().type() == ElementType::Pred) {
    operand = *selector != 0 ? 1 : 2;
    return conditional.calledComputation(*selector != 0 ? "true_computation"
                                                        : "false_computation");
  }
  const Attribute *branches = conditional.findAttribute("branch_computations");
  if (!branches || branches->computations.empty())
    return nullptr;
  int64_t count = static_cast<int64_t>(branches->computations.size());
  int64_t index = static_cast<int64_t>(*selector);
  if (index < 0 || index >= count)
    index = count - 1;
  operand = index + 1;
  return branches->computations[index];
}

} // namespace

Result<bool> runConditionalSimplifier(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    for (Instruction *conditional : topologicalOrder(*computation)) {
      if (conditional->opcode() != Opcode::Conditional)
        continue;
      int64_t operand = 0;
      Computation *branch = chosenBranch(*conditional, operand);
      if (!branch ||
          operand >= static_cast<int64_t>(conditional->operandCount()))
        continue;
      auto root = inlineComputation(editor, *computation, *branch,
                                    {conditional->operand(operand)});
      if (root)
        editor.replace(conditional, *root);
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
