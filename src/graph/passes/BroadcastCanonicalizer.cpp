// BroadcastCanonicalizer: a broadcast whose dimensions are not ascending
// becomes a transpose of its operand followed by a broadcast with ascending
// dimensions. Adds a transpose per such broadcast.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <numeric>

namespace rlopt::graph {

namespace {

Instruction *canonicalize(Instruction &broadcast, ModuleEditor &editor) {
  if (broadcast.opcode() != Opcode::Broadcast ||
      !isStaticArray(broadcast.shape()))
    return nullptr;
  const std::vector<int64_t> &dims = broadcast.dimensions();
  if (std::is_sorted(dims.begin(), dims.end()))
    return nullptr;
  std::vector<int64_t> order(dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
  std::vector<int64_t> sorted(dims.begin(), dims.end());
  std::sort(sorted.begin(), sorted.end());
  Computation &computation = *broadcast.parent();
  Instruction *transposed =
      addTranspose(editor, computation, broadcast.operand(0), order);
  return addBroadcast(editor, computation, transposed, broadcast.shape(),
                      sorted);
}

} // namespace

Result<bool> runBroadcastCanonicalizer(Module &module) {
  return rewriteEachInstruction(module, canonicalize);
}

} // namespace rlopt::graph
