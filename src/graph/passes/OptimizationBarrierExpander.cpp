// OptimizationBarrierExpander: opt-barrier(x) -> x. The barrier only stops
// other passes from moving code across it; its value is its operand.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *expand(Instruction &instruction, ModuleEditor &) {
  if (instruction.opcode() != Opcode::OptimizationBarrier)
    return nullptr;
  Instruction *operand = instruction.operand(0);
  return operand->shape().compatible(instruction.shape()) ? operand : nullptr;
}

} // namespace

Result<bool> runOptimizationBarrierExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
