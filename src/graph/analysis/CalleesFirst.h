// The walk both analyses of a module make: every computation once, the
// ones it calls first.
#ifndef RLOPT_SRC_GRAPH_ANALYSIS_CALLEESFIRST_H
#define RLOPT_SRC_GRAPH_ANALYSIS_CALLEESFIRST_H

#include "rlopt/graph/Computation.h"

#include <utility>
#include <vector>

namespace rlopt::graph {

/// Calls `visit` on `root` and on every computation it calls, callees before
/// their callers, skipping those `done` says are handled already (visit
/// makes them so). Iterative, so a long call chain cannot exhaust the
/// stack; the verifier rules out call cycles.
template <typename Done, typename Visit>
void forEachCalleeFirst(const Computation &root, Done &&done, Visit &&visit) {
  std::vector<std::pair<const Computation *, bool>> stack{{&root, false}};
  while (!stack.empty()) {
    auto [current, calleesDone] = stack.back();
    stack.pop_back();
    if (done(current))
      continue;
    if (!calleesDone) {
      stack.emplace_back(current, true);
      for (const auto &instruction : current->instructions())
        for (const Computation *callee : instruction->calledComputations())
          if (!done(callee))
            stack.emplace_back(callee, false);
      continue;
    }
    visit(current);
  }
}

} // namespace rlopt::graph

#endif
