// Data-movement opcodes: reshape, broadcast, transpose, slice, reverse,
// pad, concatenate, dynamic-slice, dynamic-update-slice and iota. Each is
// one strided box copy (InterpreterIndexing.h).
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <cmath>

namespace rlopt::graph::interp {

namespace {

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string text = "{";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "}";
}

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

Result<RuntimeValue> transpose(const Instruction &instruction,
                               RuntimeValue operand) {
  const Shape &shape = instruction.shape();
  const std::vector<int64_t> &permutation = instruction.dimensions();
  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape.dims());
  std::vector<int64_t> inStrides(shape.rank(), 0);
  std::vector<bool> used(shape.rank(), false);
  if (static_cast<int64_t>(permutation.size()) != shape.rank() ||
      operand.shape.rank() != shape.rank())
    return failAt(instruction, "dimensions=" + dimsText(permutation) +
                                   " is not a permutation of the operand's");
  bool identity = true;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    int64_t d = permutation[i];
    if (d < 0 || d >= shape.rank() || used[d] ||
        operand.shape.dim(d) != shape.dim(i))
      return failAt(instruction, "dimensions=" + dimsText(permutation) +
                                     " does not permute " +
                                     operand.shape.toString(false) + " to " +
                                     shape.toString(false));
    used[d] = true;
    inStrides[i] = operandStrides[d];
    identity = identity && d == i;
  }
  if (identity)
    return reshape(instruction, std::move(operand));
  RuntimeValue result = makeScratchArray(shape);
  copyBox(operand.data(), inStrides, result.buffer->data(),
          rowMajorStrides(shape.dims()), shape.dims());
  return result;
}

Result<RuntimeValue> slice(const Instruction &instruction,
                           const RuntimeValue &operand) {
  const Shape &shape = instruction.shape();
  const std::vector<SliceDim> &ranges = instruction.slice();
  if (static_cast<int64_t>(ranges.size()) != operand.shape.rank() ||
      shape.rank() != operand.shape.rank())
    return failAt(instruction, "slice needs one range per dimension");
  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape.dims());
  std::vector<int64_t> inStrides(shape.rank());
  int64_t base = 0;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const SliceDim &range = ranges[d];
    int64_t expected =
        range.stride > 0 && range.limit >= range.start
            ? (range.limit - range.start + range.stride - 1) / range.stride
            : -1;
    if (range.start < 0 || range.limit > operand.shape.dim(d) ||
        expected != shape.dim(d))
      return failAt(instruction, "slice range " + std::to_string(d) +
                                     " does not fit " +
                                     operand.shape.toString(false) + " -> " +
                                     shape.toString(false));
    base += range.start * operandStrides[d];
    inStrides[d] = range.stride * operandStrides[d];
  }
  RuntimeValue result = makeScratchArray(shape);
  copyBox(operand.data() + base, inStrides, result.buffer->data(),
          rowMajorStrides(shape.dims()), shape.dims());
  return result;
}

Result<RuntimeValue> reverse(const Instruction &instruction,
                             const RuntimeValue &operand) {
  const Shape &shape = instruction.shape();
  std::vector<int64_t> inStrides = rowMajorStrides(operand.shape.dims());
  int64_t base = 0;
  for (int64_t d : instruction.dimensions()) {
    if (d < 0 || d >= shape.rank())
      return failAt(instruction, "reverses dimension " + std::to_string(d) +
                                     " of a rank-" +
                                     std::to_string(shape.rank()) + " array");
    base += (shape.dim(d) - 1) * inStrides[d];
    inStrides[d] = -inStrides[d];
  }
  RuntimeValue result = makeScratchArray(shape);
  if (result.size() > 0)
    copyBox(operand.data() + base, inStrides, result.buffer->data(),
            rowMajorStrides(shape.dims()), shape.dims());
  return result;
}

Result<RuntimeValue> pad(const Instruction &instruction,
                         const RuntimeValue &operand,
                         const RuntimeValue &padValue) {
  const Shape &shape = instruction.shape();
  const std::vector<PadDim> &padding = instruction.padding();
  int64_t rank = operand.shape.rank();
  if (static_cast<int64_t>(padding.size()) != rank || shape.rank() != rank ||
      padValue.size() != 1)
    return failAt(instruction, "needs a scalar padding value and one "
                               "padding entry per dimension");
  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape.dims());
  std::vector<int64_t> outStrides = rowMajorStrides(shape.dims());
  std::vector<int64_t> boxDims(rank), boxOutStrides(rank);
  int64_t inBase = 0, outBase = 0;
  bool empty = false;
  for (int64_t d = 0; d < rank; ++d) {
    const PadDim &p = padding[d];
    int64_t size = operand.shape.dim(d);
    int64_t expected =
        p.low + p.high + size + std::max<int64_t>(size - 1, 0) * p.interior;
    if (p.interior < 0 || expected != shape.dim(d))
      return failAt(instruction, "padding of dimension " + std::to_string(d) +
                                     " does not give " + shape.toString(false));
    // Operand element i lands at low + i * step; negative padding crops.
    int64_t step = p.interior + 1;
    int64_t first = p.low < 0 ? (-p.low + step - 1) / step : 0;
    int64_t lastPosition = shape.dim(d) - 1 - p.low;
    int64_t last =
        lastPosition < 0 ? -1 : std::min(size - 1, lastPosition / step);
    boxDims[d] = last - first + 1;
    if (boxDims[d] <= 0)
      empty = true;
    inBase += first * operandStrides[d];
    outBase += (p.low + first * step) * outStrides[d];
    boxOutStrides[d] = step * outStrides[d];
  }
  RuntimeValue result =
      makeArray(shape, newBuffer(shape.elementCount(), padValue.data()[0]));
  if (!empty)
    copyBox(operand.data() + inBase, operandStrides,
            result.buffer->data() + outBase, boxOutStrides, boxDims);
  return result;
}

Result<RuntimeValue> concatenate(const Instruction &instruction,
                                 const Operands &operands) {
  const Shape &shape = instruction.shape();
  if (instruction.dimensions().size() != 1)
    return failAt(instruction, "needs one concatenation dimension");
  int64_t axis = instruction.dimensions()[0];
  if (axis < 0 || axis >= shape.rank())
    return failAt(instruction,
                  "dimension " + std::to_string(axis) + " is out of range");
  std::vector<int64_t> outStrides = rowMajorStrides(shape.dims());
  RuntimeValue result = makeScratchArray(shape);
  int64_t offset = 0;
  for (const RuntimeValue &operand : operands) {
    const Shape &part = operand.shape;
    bool fits = part.rank() == shape.rank() &&
                offset + part.dim(axis) <= shape.dim(axis);
    for (int64_t d = 0; fits && d < shape.rank(); ++d)
      fits = d == axis || part.dim(d) == shape.dim(d);
    if (!fits)
      return failAt(instruction, "operand " + part.toString(false) +
                                     " does not fit " + shape.toString(false));
    if (operand.size() > 0)
      copyBox(operand.data(), rowMajorStrides(part.dims()),
              result.buffer->data() + offset * outStrides[axis], outStrides,
              part.dims());
    offset += part.dim(axis);
  }
  if (offset != shape.dim(axis))
    return failAt(instruction, "operands do not fill " + shape.toString(false));
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
    return transpose(instruction, std::move(operands[0]));
  case Opcode::Slice:
    return slice(instruction, operands[0]);
  case Opcode::Reverse:
    return reverse(instruction, operands[0]);
  case Opcode::Pad:
    return pad(instruction, operands[0], operands[1]);
  case Opcode::Concatenate:
    return concatenate(instruction, operands);
  case Opcode::DynamicSlice:
    return dynamicSlice(instruction, operands);
  case Opcode::DynamicUpdateSlice:
    return dynamicUpdateSlice(instruction, operands);
  default:
    return failAt(instruction, "is not a data-movement opcode");
  }
}

} // namespace rlopt::graph::interp
