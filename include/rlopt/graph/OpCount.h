// Op counts per opcode: the graph environment's observation.
//
// Every instruction counts, parameters, constants, tuple and
// get-tuple-element included: the vector must see everything a pass can
// change (simplification removes tuples and constants; CSE merges
// constants), and instructions no pass touches only add a constant offset.
// Two scopes are provided:
//   - entry: the entry computation's instructions only;
//   - module: every computation's instructions, each computation counted
//     once however often it is called (the module's text, as a whole-module
//     op-count reward counts it).
// Instructions inside called computations (reducers, while bodies, fusion
// bodies) therefore appear only in the module scope.
#ifndef RLOPT_GRAPH_OPCOUNT_H
#define RLOPT_GRAPH_OPCOUNT_H

#include "rlopt/graph/Module.h"

#include <cstdint>
#include <vector>

namespace rlopt::graph {

struct OpCounts {
  /// Indexed by opcodeIndex(); kNumOpcodes entries.
  std::vector<int64_t> perOpcode = std::vector<int64_t>(kNumOpcodes, 0);
  int64_t total = 0;

  int64_t count(Opcode opcode) const { return perOpcode[opcodeIndex(opcode)]; }
  void add(Opcode opcode, int64_t n = 1) {
    perOpcode[opcodeIndex(opcode)] += n;
    total += n;
  }
  OpCounts &operator+=(const OpCounts &other);
};

OpCounts countOps(const Computation &computation);
/// The entry computation's instructions.
OpCounts countEntryOps(const Module &module);
/// Every computation's instructions, each computation once.
OpCounts countModuleOps(const Module &module);

} // namespace rlopt::graph

#endif
