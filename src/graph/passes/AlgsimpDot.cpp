// AlgebraicSimplifier, dot strength reduction: a dot whose contracting
// dimensions all have size 1 (an outer product, possibly batched) computes
// one product per output element, so it becomes multiply(broadcast(lhs),
// broadcast(rhs)), the size-1 dimensions reshaped away. Exact in floating
// point; it adds instructions. Dots that really contract, or mix element
// types, are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

// Reshapes away `operand`'s contracting dimensions and broadcasts the rest
// into the dot's output: batch dimension k to output dimension k, free
// dimension j to firstFree + j.
Instruction *spread(ModuleEditor &editor, Instruction &dot,
                    Instruction *operand, const std::vector<int64_t> &batch,
                    const std::vector<int64_t> &contracting,
                    int64_t firstFree) {
  Computation &computation = *dot.parent();
  std::vector<int64_t> kept, positions;
  int64_t free = 0;
  for (int64_t d = 0; d < operand->shape().rank(); ++d) {
    if (std::count(contracting.begin(), contracting.end(), d))
      continue;
    kept.push_back(operand->shape().dim(d));
    auto it = std::find(batch.begin(), batch.end(), d);
    positions.push_back(it != batch.end() ? it - batch.begin()
                                          : firstFree + free++);
  }
  Instruction *narrowed = operand;
  if (kept != operand->shape().dims())
    narrowed = addReshape(editor, computation, operand, kept);
  return addBroadcast(editor, computation, narrowed, dot.shape(), positions);
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Dot ||
      !isStaticArray(instruction.shape()))
    return nullptr;
  Instruction *lhs = instruction.operand(0), *rhs = instruction.operand(1);
  ElementType type = instruction.shape().type();
  if (lhs->shape().type() != type || rhs->shape().type() != type ||
      isComplex(type) || type == ElementType::Pred)
    return nullptr;
  const DotDims &dims = instruction.dotDims();
  for (int64_t d : dims.lhsContracting)
    if (lhs->shape().dim(d) != 1)
      return nullptr;
  int64_t batch = static_cast<int64_t>(dims.lhsBatch.size());
  int64_t lhsFree = lhs->shape().rank() - batch -
                    static_cast<int64_t>(dims.lhsContracting.size());
  Instruction *left = spread(editor, instruction, lhs, dims.lhsBatch,
                             dims.lhsContracting, batch);
  Instruction *right = spread(editor, instruction, rhs, dims.rhsBatch,
                              dims.rhsContracting, batch + lhsFree);
  return addBinary(editor, *instruction.parent(), Opcode::Multiply, left,
                   right);
}

} // namespace

Result<bool> runAlgsimpDot(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
