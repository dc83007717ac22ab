// FlattenCallGraph: a computation called from several places in sequential
// context (call, while condition and body, conditional branches, fusion,
// async) gets one clone per extra call site, so every such computation has
// a single caller; clones of callers clone their callees in turn. Reducers
// and comparators (to_apply of reduce, sort, map, scatter, ...) are shared
// as XLA leaves them.
#include "PassSupport.h"
#include "Passes.h"

#include <deque>

namespace rlopt::graph {

namespace {

bool isSequentialCall(const Instruction &instruction) {
  switch (instruction.opcode()) {
  case Opcode::Call:
  case Opcode::While:
  case Opcode::Conditional:
  case Opcode::Fusion:
  case Opcode::AsyncStart:
    return true;
  default:
    return false;
  }
}

} // namespace

Result<bool> runFlattenCallGraph(Module &module) {
  ModuleEditor editor(module);
  std::unordered_set<const Computation *> claimed;
  if (module.entry())
    claimed.insert(module.entry());
  // Callers first, so a clone's own calls are seen after it is made.
  std::vector<Computation *> order = reachableComputations(module);
  std::deque<Computation *> work(order.rbegin(), order.rend());
  bool changed = false;
  while (!work.empty()) {
    Computation *computation = work.front();
    work.pop_front();
    for (Instruction *instruction : topologicalOrder(*computation)) {
      if (!isSequentialCall(*instruction))
        continue;
      std::vector<Attribute> attributes = instruction->attributes();
      for (const Attribute &attribute : attributes) {
        if (attribute.computations.empty())
          continue;
        std::vector<Computation *> called = attribute.computations;
        bool cloned = false;
        for (Computation *&callee : called) {
          if (!callee || claimed.insert(callee).second)
            continue;
          callee = cloneComputation(editor, *callee);
          claimed.insert(callee);
          work.push_back(callee);
          cloned = true;
        }
        if (cloned) {
          instruction->setCalledComputations(attribute.key, called,
                                             attribute.braced);
          changed = true;
        }
      }
    }
  }
  if (changed)
    editor.markChanged();
  return editor.commit();
}

} // namespace rlopt::graph
