// AlgebraicSimplifier, concatenate: drops zero-sized operands, flattens a
// concatenate operand along the same dimension, merges adjacent unit-stride
// slices of one array that continue each other, and turns a concatenate of
// broadcasts of one scalar into a broadcast. A single remaining operand is
// returned as is.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// `next` continues `previous` along `dimension`: both slice the same array
// with stride 1 there and agree on every other dimension.
bool continues(const Instruction *previous, const Instruction *next,
               int64_t dimension) {
  if (previous->opcode() != Opcode::Slice || next->opcode() != Opcode::Slice ||
      previous->operand(0) != next->operand(0))
    return false;
  const auto &a = previous->slice(), &b = next->slice();
  for (size_t i = 0; i < a.size(); ++i) {
    if (static_cast<int64_t>(i) == dimension) {
      if (a[i].stride != 1 || b[i].stride != 1 || a[i].limit != b[i].start)
        return false;
    } else if (a[i].start != b[i].start || a[i].limit != b[i].limit ||
               a[i].stride != b[i].stride) {
      return false;
    }
  }
  return true;
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Concatenate ||
      !isStaticArray(instruction.shape()) ||
      instruction.dimensions().size() != 1)
    return nullptr;
  Computation &computation = *instruction.parent();
  int64_t dimension = instruction.dimensions()[0];
  bool changed = false;

  std::vector<Instruction *> operands;
  for (Instruction *operand : instruction.operands()) {
    if (operand->shape().elementCount() == 0 &&
        instruction.operandCount() > 1) {
      changed = true;
      continue;
    }
    if (operand->opcode() == Opcode::Concatenate &&
        operand->dimensions() == instruction.dimensions()) {
      operands.insert(operands.end(), operand->operands().begin(),
                      operand->operands().end());
      changed = true;
      continue;
    }
    operands.push_back(operand);
  }
  if (operands.empty())
    return nullptr;

  // Merge runs of continuing slices.
  std::vector<Instruction *> merged;
  for (Instruction *operand : operands) {
    if (!merged.empty() && continues(merged.back(), operand, dimension)) {
      std::vector<SliceDim> slice = merged.back()->slice();
      slice[dimension].limit = operand->slice()[dimension].limit;
      merged.back() = addSlice(editor, computation, operand->operand(0), slice);
      changed = true;
      continue;
    }
    merged.push_back(operand);
  }

  bool sameScalar = merged.size() > 1;
  for (Instruction *operand : merged)
    if (operand->opcode() != Opcode::Broadcast ||
        operand->operand(0)->shape().rank() != 0 ||
        operand->operand(0) != merged.front()->operand(0))
      sameScalar = false;
  if (sameScalar)
    return addBroadcast(editor, computation, merged.front()->operand(0),
                        instruction.shape(), {});

  if (merged.size() == 1 &&
      merged.front()->shape().compatible(instruction.shape()))
    return merged.front();
  if (!changed)
    return nullptr;
  return editor.add(
      computation, Opcode::Concatenate,
      arrayShape(instruction.shape().type(), instruction.shape().dims()),
      merged, {{"dimensions", formatIntList({dimension})}});
}

} // namespace

Result<bool> runAlgsimpConcat(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
