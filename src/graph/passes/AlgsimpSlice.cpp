// AlgebraicSimplifier, slices: slice(slice(x)) -> one slice; a slice of a
// concatenate that lies within one operand -> a slice of that operand; a
// slice of a pad (without interior padding) that lies within the padded
// array -> a slice of the array; dynamic-slice with constant start indices
// -> slice, the indices clamped as dynamic-slice clamps them.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

Instruction *sliceOfSlice(Instruction &instruction, ModuleEditor &editor) {
  Instruction *inner = instruction.operand(0);
  std::vector<SliceDim> composed;
  for (size_t i = 0; i < instruction.slice().size(); ++i) {
    const SliceDim &outer = instruction.slice()[i];
    const SliceDim &first = inner->slice()[i];
    int64_t count = instruction.shape().dim(static_cast<int64_t>(i));
    SliceDim dim;
    dim.start = first.start + outer.start * first.stride;
    dim.stride = first.stride * outer.stride;
    dim.limit =
        count == 0 ? dim.start : dim.start + (count - 1) * dim.stride + 1;
    composed.push_back(dim);
  }
  return addSlice(editor, *instruction.parent(), inner->operand(0), composed);
}

Instruction *sliceOfConcat(Instruction &instruction, ModuleEditor &editor) {
  Instruction *concat = instruction.operand(0);
  if (concat->dimensions().size() != 1)
    return nullptr;
  int64_t dimension = concat->dimensions()[0];
  const SliceDim &range = instruction.slice()[dimension];
  int64_t count = instruction.shape().dim(dimension);
  if (count == 0)
    return nullptr;
  int64_t first = range.start, last = range.start + (count - 1) * range.stride;
  int64_t offset = 0;
  for (Instruction *operand : concat->operands()) {
    int64_t size = operand->shape().dim(dimension);
    if (first >= offset && last < offset + size) {
      std::vector<SliceDim> slice = instruction.slice();
      slice[dimension].start -= offset;
      slice[dimension].limit =
          slice[dimension].start + (count - 1) * range.stride + 1;
      return addSlice(editor, *instruction.parent(), operand, slice);
    }
    offset += size;
  }
  return nullptr;
}

Instruction *sliceOfPad(Instruction &instruction, ModuleEditor &editor) {
  Instruction *pad = instruction.operand(0);
  Instruction *source = pad->operand(0);
  std::vector<SliceDim> slice = instruction.slice();
  for (size_t i = 0; i < slice.size(); ++i) {
    const PadDim &padding = pad->padding()[i];
    int64_t count = instruction.shape().dim(static_cast<int64_t>(i));
    if (padding.interior != 0 || count == 0)
      return nullptr;
    int64_t first = slice[i].start - padding.low;
    int64_t last = first + (count - 1) * slice[i].stride;
    if (first < 0 || last >= source->shape().dim(static_cast<int64_t>(i)))
      return nullptr;
    slice[i].start = first;
    slice[i].limit = last + 1;
  }
  return addSlice(editor, *instruction.parent(), source, slice);
}

Instruction *constantDynamicSlice(Instruction &instruction,
                                  ModuleEditor &editor) {
  Instruction *operand = instruction.operand(0);
  int64_t rank = operand->shape().rank();
  if (static_cast<int64_t>(instruction.operandCount()) != rank + 1)
    return nullptr;
  std::vector<SliceDim> slice;
  for (int64_t i = 0; i < rank; ++i) {
    auto start = uniformConstantValue(instruction.operand(i + 1));
    if (!start || instruction.operand(i + 1)->shape().rank() != 0)
      return nullptr;
    int64_t size = instruction.shape().dim(i);
    int64_t clamped = std::clamp(static_cast<int64_t>(*start), int64_t(0),
                                 operand->shape().dim(i) - size);
    slice.push_back({clamped, clamped + size, 1});
  }
  return addSlice(editor, *instruction.parent(), operand, slice);
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (!isStaticArray(instruction.shape()))
    return nullptr;
  if (instruction.opcode() == Opcode::DynamicSlice)
    return constantDynamicSlice(instruction, editor);
  if (instruction.opcode() != Opcode::Slice)
    return nullptr;
  switch (instruction.operand(0)->opcode()) {
  case Opcode::Slice:
    return sliceOfSlice(instruction, editor);
  case Opcode::Concatenate:
    return sliceOfConcat(instruction, editor);
  case Opcode::Pad:
    return sliceOfPad(instruction, editor);
  default:
    return nullptr;
  }
}

} // namespace

Result<bool> runAlgsimpSlice(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
