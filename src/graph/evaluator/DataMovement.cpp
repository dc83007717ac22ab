#include "DataMovement.h"

#include <algorithm>

namespace rlopt::graph::interp {

namespace {

using Dims = std::vector<int64_t>;

std::string shapeText(const Shape &shape, const Dims &dims) {
  return Shape::array(shape.type(), dims).toString(false);
}

/// One box over the whole result: its elements in row-major order.
BoxCopy wholeResult(const Shape &shape) {
  BoxCopy box;
  box.dims = shape.dims();
  box.outStrides = rowMajorStrides(box.dims);
  return box;
}

Result<MovementPlan> transpose(const Instruction &instruction,
                               const Dims &operand) {
  const Shape &shape = instruction.shape();
  const Dims &permutation = instruction.dimensions();
  int64_t rank = shape.rank();
  if (static_cast<int64_t>(permutation.size()) != rank ||
      static_cast<int64_t>(operand.size()) != rank)
    return failAt(instruction, "dimensions=" + dimsText(permutation) +
                                   " is not a permutation of the operand's");
  Dims operandStrides = rowMajorStrides(operand);
  BoxCopy box = wholeResult(shape);
  box.inStrides.assign(rank, 0);
  std::vector<bool> used(rank, false);
  MovementPlan plan;
  plan.identity = true;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = permutation[i];
    if (d < 0 || d >= rank || used[d] || operand[d] != shape.dim(i))
      return failAt(instruction, "dimensions=" + dimsText(permutation) +
                                     " does not permute " +
                                     shapeText(shape, operand) + " to " +
                                     shape.toString(false));
    used[d] = true;
    box.inStrides[i] = operandStrides[d];
    plan.identity = plan.identity && d == i;
  }
  plan.copies.push_back(std::move(box));
  return plan;
}

Result<MovementPlan> slice(const Instruction &instruction,
                           const Dims &operand) {
  const Shape &shape = instruction.shape();
  const std::vector<SliceDim> &ranges = instruction.slice();
  int64_t rank = static_cast<int64_t>(operand.size());
  if (static_cast<int64_t>(ranges.size()) != rank || shape.rank() != rank)
    return failAt(instruction, "slice needs one range per dimension");
  Dims operandStrides = rowMajorStrides(operand);
  BoxCopy box = wholeResult(shape);
  box.inStrides.resize(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const SliceDim &range = ranges[d];
    int64_t expected =
        range.stride > 0 && range.limit >= range.start
            ? (range.limit - range.start + range.stride - 1) / range.stride
            : -1;
    if (range.start < 0 || range.limit > operand[d] || expected != shape.dim(d))
      return failAt(instruction, "slice range " + std::to_string(d) +
                                     " does not fit " +
                                     shapeText(shape, operand) + " -> " +
                                     shape.toString(false));
    box.inBase += range.start * operandStrides[d];
    box.inStrides[d] = range.stride * operandStrides[d];
  }
  MovementPlan plan;
  plan.copies.push_back(std::move(box));
  return plan;
}

Result<MovementPlan> reverse(const Instruction &instruction,
                             const Dims &operand) {
  const Shape &shape = instruction.shape();
  if (operand != shape.dims())
    return failAt(instruction, "reverses " + shapeText(shape, operand) +
                                   " into " + shape.toString(false));
  BoxCopy box = wholeResult(shape);
  box.inStrides = rowMajorStrides(operand);
  for (int64_t d : instruction.dimensions()) {
    if (d < 0 || d >= shape.rank())
      return failAt(instruction, "reverses dimension " + std::to_string(d) +
                                     " of a rank-" +
                                     std::to_string(shape.rank()) + " array");
    box.inBase += (shape.dim(d) - 1) * box.inStrides[d];
    box.inStrides[d] = -box.inStrides[d];
  }
  MovementPlan plan;
  if (shape.elementCount() > 0)
    plan.copies.push_back(std::move(box));
  return plan;
}

Result<MovementPlan> pad(const Instruction &instruction, const Dims &operand,
                         const Dims &padValue) {
  const Shape &shape = instruction.shape();
  const std::vector<PadDim> &padding = instruction.padding();
  int64_t rank = static_cast<int64_t>(operand.size());
  if (static_cast<int64_t>(padding.size()) != rank || shape.rank() != rank ||
      product(padValue) != 1)
    return failAt(instruction, "needs a scalar padding value and one "
                               "padding entry per dimension");
  Dims outStrides = rowMajorStrides(shape.dims());
  BoxCopy box;
  box.inStrides = rowMajorStrides(operand);
  box.dims.resize(rank);
  box.outStrides.resize(rank);
  bool empty = false;
  for (int64_t d = 0; d < rank; ++d) {
    const PadDim &p = padding[d];
    int64_t size = operand[d];
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
    box.dims[d] = last - first + 1;
    empty = empty || box.dims[d] <= 0;
    box.inBase += first * box.inStrides[d];
    box.outBase += (p.low + first * step) * outStrides[d];
    box.outStrides[d] = step * outStrides[d];
  }
  MovementPlan plan;
  plan.padded = true;
  if (!empty)
    plan.copies.push_back(std::move(box));
  return plan;
}

Result<MovementPlan> concatenate(const Instruction &instruction,
                                 const std::vector<Dims> &operands) {
  const Shape &shape = instruction.shape();
  if (instruction.dimensions().size() != 1)
    return failAt(instruction, "needs one concatenation dimension");
  int64_t axis = instruction.dimensions()[0];
  if (axis < 0 || axis >= shape.rank())
    return failAt(instruction,
                  "dimension " + std::to_string(axis) + " is out of range");
  Dims outStrides = rowMajorStrides(shape.dims());
  MovementPlan plan;
  int64_t offset = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Dims &part = operands[i];
    bool fits = static_cast<int64_t>(part.size()) == shape.rank() &&
                offset + part[axis] <= shape.dim(axis);
    for (int64_t d = 0; fits && d < shape.rank(); ++d)
      fits = d == axis || part[d] == shape.dim(d);
    if (!fits)
      return failAt(instruction, "operand " + shapeText(shape, part) +
                                     " does not fit " + shape.toString(false));
    if (product(part) > 0) {
      BoxCopy box;
      box.operand = i;
      box.inStrides = rowMajorStrides(part);
      box.outBase = offset * outStrides[axis];
      box.outStrides = outStrides;
      box.dims = part;
      plan.copies.push_back(std::move(box));
    }
    offset += part[axis];
  }
  if (offset != shape.dim(axis))
    return failAt(instruction, "operands do not fill " + shape.toString(false));
  return plan;
}

} // namespace

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string text = "{";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "}";
}

Result<MovementPlan> planMovement(const Instruction &instruction,
                                  const std::vector<Dims> &operandDims) {
  Opcode opcode = instruction.opcode();
  size_t needed = opcode == Opcode::Pad ? 2 : 1;
  if (operandDims.size() < needed ||
      (opcode != Opcode::Concatenate && operandDims.size() != needed))
    return failAt(instruction, "takes " + std::to_string(needed) + " operand" +
                                   (needed > 1 ? "s" : ""));
  switch (opcode) {
  case Opcode::Transpose:
    return transpose(instruction, operandDims[0]);
  case Opcode::Slice:
    return slice(instruction, operandDims[0]);
  case Opcode::Reverse:
    return reverse(instruction, operandDims[0]);
  case Opcode::Pad:
    return pad(instruction, operandDims[0], operandDims[1]);
  case Opcode::Concatenate:
    return concatenate(instruction, operandDims);
  default:
    return failAt(instruction, "is not a planned data-movement opcode");
  }
}

} // namespace rlopt::graph::interp
