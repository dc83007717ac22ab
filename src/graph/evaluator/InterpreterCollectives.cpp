// Collectives on one device. The interpreter models a single replica whose
// peers hold the same values: reductions and permutations are the
// identity, all-gather repeats the operand, reduce-scatter keeps the
// first shard.
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

namespace rlopt::graph::interp {

namespace {

/// `value` grown (repeated) or shrunk (leading part) along `axis` to
/// `target`.
Result<RuntimeValue> resizeAlong(const Instruction &instruction,
                                 const RuntimeValue &value, const Shape &target,
                                 int64_t axis) {
  const Shape &shape = value.shape;
  if (!shape.isArray() || !target.isArray() || shape.rank() != target.rank() ||
      axis < 0 || axis >= shape.rank())
    return failAt(instruction, "cannot gather or scatter " +
                                   shape.toString(false) + " into " +
                                   target.toString(false));
  for (int64_t d = 0; d < shape.rank(); ++d)
    if (d != axis && shape.dim(d) != target.dim(d))
      return failAt(instruction, "cannot gather or scatter " +
                                     shape.toString(false) + " into " +
                                     target.toString(false));
  if (shape.dims() == target.dims()) {
    RuntimeValue same = value;
    same.shape = target;
    return same;
  }
  RuntimeValue result = makeScratchArray(target);
  std::vector<int64_t> inStrides = rowMajorStrides(shape.dims());
  std::vector<int64_t> outStrides = rowMajorStrides(target.dims());
  if (target.dim(axis) < shape.dim(axis)) {
    copyBox(value.data(), inStrides, result.buffer->data(), outStrides,
            target.dims());
    return result;
  }
  if (shape.dim(axis) == 0 || target.dim(axis) % shape.dim(axis) != 0)
    return failAt(instruction, "result is not a multiple of the operand");
  for (int64_t start = 0; start < target.dim(axis); start += shape.dim(axis))
    copyBox(value.data(), inStrides,
            result.buffer->data() + start * outStrides[axis], outStrides,
            shape.dims());
  return result;
}

} // namespace

Result<RuntimeValue> evaluateCollective(Interpreter &,
                                        const Instruction &instruction,
                                        Operands &operands) {
  const Shape &shape = instruction.shape();
  Opcode opcode = instruction.opcode();
  if (operands.empty())
    return failAt(instruction, "needs an operand");
  if (opcode == Opcode::AllReduceDone || opcode == Opcode::CollectivePermute) {
    RuntimeValue value = std::move(operands[0]);
    if (value.shape.compatible(shape))
      value.shape = shape;
    return value;
  }
  bool resizes = opcode == Opcode::AllGather || opcode == Opcode::ReduceScatter;
  if (resizes && instruction.dimensions().size() != 1)
    return failAt(instruction, "needs one dimensions entry");
  auto adapt = [&](RuntimeValue &value,
                   const Shape &target) -> Result<RuntimeValue> {
    if (resizes)
      return resizeAlong(instruction, value, target,
                         instruction.dimensions()[0]);
    if (!value.shape.compatible(target))
      return failAt(instruction, "result " + target.toString(false) +
                                     " differs from the operand " +
                                     value.shape.toString(false));
    value.shape = target;
    return std::move(value);
  };
  if (!shape.isTuple()) {
    if (operands.size() != 1)
      return failAt(instruction, "needs one operand for an array result");
    return adapt(operands[0], shape);
  }
  if (shape.tupleShapes().size() != operands.size())
    return failAt(instruction, "needs one operand per result element");
  std::vector<RuntimeValue> elements;
  for (size_t i = 0; i < operands.size(); ++i) {
    auto element = adapt(operands[i], shape.tupleShape(i));
    if (!element)
      return element.error();
    elements.push_back(element.takeValue());
  }
  RuntimeValue tuple = makeTuple(std::move(elements));
  tuple.shape = shape;
  return tuple;
}

} // namespace rlopt::graph::interp
