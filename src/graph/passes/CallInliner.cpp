// CallInliner: every `call` is replaced by a copy of its computation's
// instructions, parameters bound to the call's operands; callees left
// without callers are removed. A call whose callee holds an elided constant
// that would need renaming in the caller is kept (the constant's unknown
// value is tied to its name).
// Defuser, in the same file: the same for `fusion` instructions.
//
// Inlining goes top-down in one sweep: a computation that keeps existing
// (the entry, a while body, a reducer, ...) gets its calls inlined, and the
// calls those copies bring along are inlined in turn. A computation that
// only inlined calls reach is never rewritten itself, so each instruction
// is copied once per call site that survives: linear in the result, where
// inlining one nesting level per round is quadratic in the depth.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// Every computation, each before the ones it calls.
std::vector<Computation *> callersFirst(const Module &module) {
  std::vector<Computation *> order;
  std::unordered_set<const Computation *> seen;
  std::vector<std::pair<Computation *, std::vector<Computation *>>> stack;
  auto calleesOf = [](const Computation *computation) {
    std::vector<Computation *> callees;
    for (const auto &instruction : computation->instructions())
      for (Computation *called : instruction->calledComputations())
        if (called)
          callees.push_back(called);
    return callees;
  };
  for (const auto &start : module.computations()) {
    if (!seen.insert(start.get()).second)
      continue;
    stack.emplace_back(start.get(), calleesOf(start.get()));
    while (!stack.empty()) {
      auto &[computation, callees] = stack.back();
      if (callees.empty()) {
        order.push_back(computation);
        stack.pop_back();
        continue;
      }
      Computation *callee = callees.back();
      callees.pop_back();
      if (seen.insert(callee).second)
        stack.emplace_back(callee, calleesOf(callee));
    }
  }
  return {order.rbegin(), order.rend()};
}

class Inliner {
public:
  Inliner(Module &module, Opcode opcode, const char *key)
      : module(module), editor(module), opcode(opcode), key(key),
        callers(callersOf(module)) {}

  Result<bool> run() {
    for (Computation *computation : callersFirst(module)) {
      if (!keeps(*computation)) {
        editor.removeComputation(computation);
        continue;
      }
      inlineInto(*computation);
    }
    return editor.commit();
  }

private:
  // Whether `computation` survives: the entry, a computation nothing
  // called to begin with, or one that an instruction of a surviving
  // computation (a copy included) still calls.
  bool keeps(const Computation &computation) const {
    return &computation == module.entry() || !callers.count(&computation) ||
           stillCalled.count(&computation);
  }

  void inlineInto(Computation &computation) {
    std::unordered_set<std::string> names;
    for (const auto &instruction : computation.instructions())
      names.insert(instruction->name());
    // How many inlined calls led to each copied call: a call cycle would
    // otherwise inline forever (the verifier rejects those, passes may run
    // on unverified modules).
    std::unordered_map<const Instruction *, size_t> depth;
    size_t maxDepth = module.computations().size();
    std::vector<Instruction *> order = topologicalOrder(computation);
    size_t existing = computation.instructionCount();
    auto keepCallees = [&](const Instruction *instruction) {
      for (const Computation *called : instruction->calledComputations())
        stillCalled.insert(called);
    };
    auto visit = [&](Instruction *call) {
      Computation *callee =
          call->opcode() == opcode ? call->calledComputation(key) : nullptr;
      size_t level = depth.count(call) ? depth[call] : 0;
      if (!callee || level > maxDepth)
        return keepCallees(call);
      size_t before = computation.instructionCount();
      auto root = inlineComputation(editor, computation, *callee,
                                    call->operands(), names);
      if (!root)
        return keepCallees(call);
      editor.replace(call, *root);
      for (size_t i = before; i < computation.instructionCount(); ++i)
        depth[computation.instructions()[i].get()] = level + 1;
    };
    for (Instruction *instruction : order)
      visit(instruction);
    // Copies are appended; the calls among them are inlined in turn.
    for (size_t i = existing; i < computation.instructionCount(); ++i)
      visit(computation.instructions()[i].get());
  }

  Module &module;
  ModuleEditor editor;
  Opcode opcode;
  const char *key;
  std::unordered_map<const Computation *, std::vector<Instruction *>> callers;
  std::unordered_set<const Computation *> stillCalled;
};

} // namespace

Result<bool> runCallInliner(Module &module) {
  return Inliner(module, Opcode::Call, "to_apply").run();
}

Result<bool> runDefuser(Module &module) {
  return Inliner(module, Opcode::Fusion, "calls").run();
}

} // namespace rlopt::graph
