// DotDimensionSorter: a dot with several contracting dimensions lists them
// with the lhs ones ascending (the rhs ones permuted alike), the order XLA's
// dot emitters expect. The pairs contracted are the same; only the order of
// summation may change.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <numeric>

namespace rlopt::graph {

Result<bool> runDotDimensionSorter(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    for (const auto &instruction : computation->instructions()) {
      if (instruction->opcode() != Opcode::Dot)
        continue;
      const DotDims &dims = instruction->dotDims();
      if (std::is_sorted(dims.lhsContracting.begin(),
                         dims.lhsContracting.end()))
        continue;
      std::vector<size_t> order(dims.lhsContracting.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return dims.lhsContracting[a] < dims.lhsContracting[b];
      });
      std::vector<int64_t> lhs, rhs;
      for (size_t i : order) {
        lhs.push_back(dims.lhsContracting[i]);
        rhs.push_back(dims.rhsContracting[i]);
      }
      if (!instruction->setAttribute("lhs_contracting_dims",
                                     formatIntList(lhs)) ||
          !instruction->setAttribute("rhs_contracting_dims",
                                     formatIntList(rhs)))
        return makeError("dot '" + instruction->name() +
                         "': cannot rewrite its contracting dimensions");
      editor.markChanged();
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
