#include "rlopt/graph/OpCount.h"

namespace rlopt::graph {

OpCounts &OpCounts::operator+=(const OpCounts &other) {
  for (size_t i = 0; i < kNumOpcodes; ++i)
    perOpcode[i] += other.perOpcode[i];
  total += other.total;
  return *this;
}

OpCounts countOps(const Computation &computation) {
  OpCounts counts;
  for (const auto &instruction : computation.instructions())
    counts.add(instruction->opcode());
  return counts;
}

OpCounts countEntryOps(const Module &module) {
  return module.entry() ? countOps(*module.entry()) : OpCounts();
}

OpCounts countModuleOps(const Module &module) {
  OpCounts counts;
  for (const auto &computation : module.computations())
    counts += countOps(*computation);
  return counts;
}

} // namespace rlopt::graph
