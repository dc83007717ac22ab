// HloDCE: removes instructions nothing depends on (not reachable from their
// computation's root) and computations the entry no longer reaches.
// Parameters and side-effecting instructions (with what they depend on) stay;
// so do dead tuple elements of while loops (the while-loop simplifier's job).
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

Result<bool> runDce(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    std::unordered_set<const Instruction *> live;
    std::vector<const Instruction *> work;
    auto markLive = [&](const Instruction *instruction) {
      if (live.insert(instruction).second)
        work.push_back(instruction);
    };
    markLive(computation->root());
    for (const auto &instruction : computation->instructions())
      if (instruction->opcode() == Opcode::Parameter ||
          hasSideEffect(*instruction))
        markLive(instruction.get());
    while (!work.empty()) {
      const Instruction *instruction = work.back();
      work.pop_back();
      for (const Instruction *operand : instruction->operands())
        markLive(operand);
    }
    for (const auto &instruction : computation->instructions())
      if (!live.count(instruction.get()))
        editor.removeIfDead(instruction.get());
  }
  return editor.commit(/*dropUnreachableComputations=*/true);
}

} // namespace rlopt::graph
