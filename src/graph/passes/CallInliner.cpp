// CallInliner: every `call` is replaced by a copy of its computation's
// instructions, parameters bound to the call's operands; callees left
// without callers are removed. Nested calls are inlined innermost first.
// A call whose callee holds an elided constant that would need renaming in
// the caller is kept (the constant's unknown value is tied to its name).
// Defuser, in the same file: the same for `fusion` instructions.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool callsAnything(const Computation &computation, Opcode opcode) {
  for (const auto &instruction : computation.instructions())
    if (instruction->opcode() == opcode)
      return true;
  return false;
}

// One round: inlines the calls whose callees make no such calls themselves.
Result<bool> inlineRound(Module &module, Opcode opcode, const char *key) {
  ModuleEditor editor(module);
  auto callers = callersOf(module);
  std::unordered_map<Computation *, size_t> inlinedSites;
  for (const auto &computation : module.computations()) {
    for (Instruction *instruction : topologicalOrder(*computation)) {
      if (instruction->opcode() != opcode)
        continue;
      Computation *callee = instruction->calledComputation(key);
      if (!callee || callsAnything(*callee, opcode))
        continue;
      auto root = inlineComputation(editor, *computation, *callee,
                                    instruction->operands());
      if (!root)
        continue;
      editor.replace(instruction, *root);
      ++inlinedSites[callee];
    }
  }
  for (const auto &[callee, sites] : inlinedSites)
    if (callers[callee].size() == sites && callee != module.entry())
      editor.removeComputation(callee);
  return editor.commit();
}

Result<bool> inlineAll(Module &module, Opcode opcode, const char *key) {
  bool changed = false;
  // Each round removes one level of nesting.
  for (int round = 0; round < 64; ++round) {
    auto roundChanged = inlineRound(module, opcode, key);
    if (!roundChanged)
      return roundChanged;
    if (!*roundChanged)
      break;
    changed = true;
  }
  return changed;
}

} // namespace

Result<bool> runCallInliner(Module &module) {
  return inlineAll(module, Opcode::Call, "to_apply");
}

Result<bool> runDefuser(Module &module) {
  return inlineAll(module, Opcode::Fusion, "calls");
}

} // namespace rlopt::graph
