// HloConstantSplitter: a constant or iota with several users gets its own
// copy per user (the first user keeps the original), so later passes can
// treat each use separately. Adds instructions. Elided constants are not
// copied: their unknown values are tied to their names.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

Result<bool> runConstantSplitter(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    UseMap uses(*computation);
    for (Instruction *value : topologicalOrder(*computation)) {
      bool splittable =
          (value->opcode() == Opcode::Constant && !value->literal().elided) ||
          value->opcode() == Opcode::Iota;
      if (!splittable)
        continue;
      const std::vector<Instruction *> &users = uses.users(value);
      for (size_t u = 1; u < users.size(); ++u) {
        Instruction *copy = editor.adopt(
            *computation,
            copyInstruction(
                *value, editor.names().fresh(opcodeName(value->opcode())), {}));
        for (size_t i = 0; i < users[u]->operandCount(); ++i)
          if (users[u]->operand(i) == value)
            users[u]->setOperand(i, copy);
      }
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
