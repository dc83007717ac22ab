// Data-movement opcodes: reshape, broadcast, transpose, slice, reverse,
// pad, concatenate, dynamic-slice, dynamic-update-slice and iota. Each is
// a strided box copy (InterpreterIndexing.h); the five that constant
// folding shares are planned in DataMovement.h.
#include "DataMovement.h"
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <cmath>

namespace rlopt::graph::interp {

namespace {

Status requireArray(const Instruction &instruction, const RuntimeValue &value) {
  if (!value.shape.isArray() || isComplex(value.shape.type()))
    return failAt(instruction, "operand must be a real array, got " +
                                   value.shape.toString(false));
  return Status::success();
}

Result<RuntimeValue> reshape(const Instruction &instruction,
                             RuntimeValue operand) {
  if (operand.size() != instruction.shape().elementCount())
    return failAt(instruction, "cannot reshape " +
                                   operand.shape.toString(false) + " to " +
                                   instruction.shape().toString(false));
  operand.shape = instruction.shape();
  return operand;
}

Result<RuntimeValue> broadcast(const Instruction &instruction,
                               const RuntimeValue &operand) {
  const Shape &shape = instruction.shape();
  const std::vector<int64_t> &mapping = instruction.dimensions();
  if (static_cast<int64_t>(mapping.size()) != operand.shape.rank())
    return failAt(instruction, "dimensions=" + dimsText(mapping) +
                                   " must name one result dimension per "
                                   "operand dimension");
  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape.dims());
  std::vector<int64_t> inStrides(shape.rank(), 0);
  for (size_t i = 0; i < mapping.size(); ++i) {
    int64_t d = mapping[i];
    if (d < 0 || d >= shape.rank() ||
        shape.dim(d) != operand.shape.dim(static_cast<int64_t>(i)))
      return failAt(instruction, "dimensions=" + dimsText(mapping) +
                                     " do not map " +
                                     operand.shape.toString(false) + " into " +
                                     shape.toString(false));
    inStrides[d] = operandStrides[i];
  }
  RuntimeValue result = makeScratchArray(shape);
  copyBox(operand.data(), inStrides, result.buffer->data(),
          rowMajorStrides(shape.dims()), shape.dims());
  return result;
}

/// Transpose, slice, reverse, pad and concatenate (DataMovement.h).
Result<RuntimeValue> movement(const Instruction &instruction,
                              Operands &operands) {
  std::vector<std::vector<int64_t>> dims;
  std::vector<const double *> data;
  for (const RuntimeValue &operand : operands) {
    dims.push_back(operand.shape.dims());
    data.push_back(operand.data());
  }
  auto plan = planMovement(instruction, dims);
  if (!plan)
    return plan.error();
  if (plan->identity)
    return reshape(instruction, std::move(operands[0]));
  RuntimeValue result = makeScratchArray(instruction.shape());
  applyMovement(*plan, data, *result.buffer);
  return result;
}

/// Start indices from scalar operands (or, in old HLO, one index vector),
/// each clamped so that a box of `boxDims` fits the operand.
Result<std::vector<int64_t>> startIndices(const Instruction &instruction,
                                          const Operands &operands,
                                          size_t first, const Shape &operand,
                                          const std::vector<int64_t> &boxDims) {
  int64_t rank = operand.rank();
  std::vector<double> raw;
  if (static_cast<int64_t>(operands.size() - first) == rank) {
    for (size_t i = first; i < operands.size(); ++i) {
      if (operands[i].size() != 1)
        return failAt(instruction, "start indices must be scalars");
      raw.push_back(operands[i].data()[0]);
    }
  } else if (operands.size() == first + 1 && operands[first].size() == rank) {
    raw.assign(operands[first].data(), operands[first].data() + rank);
  } else {
    return failAt(instruction, "needs one start index per dimension");
  }
  std::vector<int64_t> starts(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (boxDims[d] > operand.dim(d))
      return failAt(instruction, "slice of " + std::to_string(boxDims[d]) +
                                     " does not fit dimension " +
                                     std::to_string(d) + " of " +
                                     operand.toString(false));
    // XLA clamps start indices so the slice stays inside the operand.
    double limit = static_cast<double>(operand.dim(d) - boxDims[d]);
    double start = std::isnan(raw[d]) ? 0 : std::clamp(raw[d], 0.0, limit);
    starts[d] = static_cast<int64_t>(start);
  }
  return starts;
}

Result<RuntimeValue> dynamicSlice(const Instruction &instruction,
                                  const Operands &operands) {
  const Shape &shape = instruction.shape();
  const RuntimeValue &operand = operands[0];
  if (shape.rank() != operand.shape.rank())
    return failAt(instruction, "result rank differs from the operand's");
  auto starts =
      startIndices(instruction, operands, 1, operand.shape, shape.dims());
  if (!starts)
    return starts.error();
  std::vector<int64_t> strides = rowMajorStrides(operand.shape.dims());
  int64_t base = 0;
  for (int64_t d = 0; d < shape.rank(); ++d)
    base += (*starts)[d] * strides[d];
  RuntimeValue result = makeScratchArray(shape);
  copyBox(operand.data() + base, strides, result.buffer->data(),
          rowMajorStrides(shape.dims()), shape.dims());
  return result;
}

Result<RuntimeValue> dynamicUpdateSlice(const Instruction &instruction,
                                        Operands &operands) {
  const RuntimeValue &update = operands[1];
  if (update.shape.rank() != operands[0].shape.rank())
    return failAt(instruction, "update rank differs from the operand's");
  auto starts = startIndices(instruction, operands, 2, operands[0].shape,
                             update.shape.dims());
  if (!starts)
    return starts.error();
  std::vector<int64_t> strides = rowMajorStrides(operands[0].shape.dims());
  int64_t base = 0;
  for (int64_t d = 0; d < operands[0].shape.rank(); ++d)
    base += (*starts)[d] * strides[d];
  RuntimeValue result = std::move(operands[0]);
  std::vector<double> &data = result.writable();
  if (update.size() > 0)
    copyBox(update.data(), rowMajorStrides(update.shape.dims()),
            data.data() + base, strides, update.shape.dims());
  result.shape = instruction.shape();
  return result;
}

Result<RuntimeValue> iota(const Instruction &instruction) {
  const Shape &shape = instruction.shape();
  int64_t axis = instruction.iotaDimension();
  if (axis < 0 || axis >= shape.rank())
    return failAt(instruction, "iota_dimension is out of range");
  int64_t stride = rowMajorStrides(shape.dims())[axis];
  int64_t size = shape.dim(axis);
  std::vector<double> data = newScratchBuffer(shape.elementCount());
  for (int64_t i = 0; i < static_cast<int64_t>(data.size()); ++i)
    data[i] = static_cast<double>((i / stride) % size);
  return makeArray(shape, std::move(data));
}

} // namespace

Result<RuntimeValue> evaluateShapeOp(Interpreter &,
                                     const Instruction &instruction,
                                     Operands &operands) {
  Opcode opcode = instruction.opcode();
  if (opcode == Opcode::Iota)
    return iota(instruction);
  if (operands.empty())
    return failAt(instruction, "needs an operand");
  if (!instruction.shape().isArray())
    return failAt(instruction, "result must be an array, got " +
                                   instruction.shape().toString(false));
  for (const RuntimeValue &operand : operands)
    if (Status status = requireArray(instruction, operand); !status)
      return status.error();
  switch (opcode) {
  case Opcode::Reshape:
  case Opcode::DynamicReshape:
  case Opcode::Bitcast:
    return reshape(instruction, std::move(operands[0]));
  case Opcode::Broadcast:
    return broadcast(instruction, operands[0]);
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::Reverse:
  case Opcode::Pad:
  case Opcode::Concatenate:
    return movement(instruction, operands);
  case Opcode::DynamicSlice:
    return dynamicSlice(instruction, operands);
  case Opcode::DynamicUpdateSlice:
    return dynamicUpdateSlice(instruction, operands);
  default:
    return failAt(instruction, "is not a data-movement opcode");
  }
}

} // namespace rlopt::graph::interp
