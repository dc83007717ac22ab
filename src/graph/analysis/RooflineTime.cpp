// A module's run time estimated from its FLOPs and bytes on a roofline:
// each instruction is bound either by the FMA units or by memory.
#include "rlopt/graph/CostAnalysis.h"

#include "CalleesFirst.h"
#include "rlopt/graph/Verifier.h"

#include <algorithm>
#include <unordered_map>

namespace rlopt::graph {

namespace {

/// Instructions that only name or regroup values move no data.
bool movesNoData(Opcode opcode) {
  switch (opcode) {
  case Opcode::Parameter:
  case Opcode::Constant:
  case Opcode::Tuple:
  case Opcode::GetTupleElement:
  case Opcode::Bitcast:
  case Opcode::AfterAll:
    return true;
  default:
    return false;
  }
}

class RooflineTime {
public:
  explicit RooflineTime(const Roofline &roofline) : roofline(roofline) {}

  /// Seconds of one run of `computation`, its callees timed first.
  double computationSeconds(const Computation &computation) {
    forEachCalleeFirst(
        computation, [&](const Computation *c) { return seconds.count(c) > 0; },
        [&](const Computation *c) {
          double total = 0;
          for (const auto &instruction : c->instructions())
            total += instructionSeconds(*instruction);
          seconds[c] = total;
        });
    return seconds.at(&computation);
  }

private:
  /// Callees are timed first (computationSeconds).
  double calledSeconds(const Instruction &instruction, const char *key) {
    Computation *called = instruction.calledComputation(key);
    return called ? seconds.at(called) : 0;
  }

  double instructionSeconds(const Instruction &instruction) {
    switch (instruction.opcode()) {
    case Opcode::Call:
      return calledSeconds(instruction, "to_apply");
    case Opcode::AsyncStart:
      return calledSeconds(instruction, "calls");
    case Opcode::While:
      return calledSeconds(instruction, "body") +
             calledSeconds(instruction, "condition");
    case Opcode::Conditional: {
      double slowest = 0;
      for (Computation *branch : instruction.calledComputations())
        slowest = std::max(slowest, seconds.at(branch));
      return slowest;
    }
    default:
      break;
    }
    // Reduce, map, sort, scatter and fusion: their called computations'
    // FLOPs are in the cost; their data moves once, through the operands
    // and the result.
    Cost cost = costs.instructionCost(instruction);
    double flops = cost.flops + kFlopsPerTranscendental * cost.transcendentals;
    double compute = flops / (roofline.gflops * 1e9);
    double memory = bytesAccessed(instruction) / (roofline.gbps * 1e9);
    return std::max(compute, memory);
  }

  Roofline roofline;
  CostAnalysis costs;
  std::unordered_map<const Computation *, double> seconds;
};

} // namespace

double bytesAccessed(const Instruction &instruction) {
  if (movesNoData(instruction.opcode()))
    return 0;
  double bytes = double(instruction.shape().byteSizeRecursive());
  for (size_t i = 0; i < instruction.operandCount(); ++i)
    bytes += double(instruction.operand(i)->shape().byteSizeRecursive());
  return bytes;
}

Result<double> estimateSeconds(const Module &module, const Roofline &roofline) {
  if (!(roofline.gflops > 0) || !(roofline.gbps > 0))
    return makeError("the roofline needs a positive peak and bandwidth "
                     "(`rlopt peak` measures them)");
  if (auto ok = verifyModule(module); !ok)
    return ok.error();
  return RooflineTime(roofline).computationSeconds(*module.entry());
}

} // namespace rlopt::graph
