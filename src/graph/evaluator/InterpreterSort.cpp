// sort: every operand permuted along one dimension by the order the
// comparator gives the first-to-last lines of all operands together.
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <numeric>

namespace rlopt::graph::interp {

Result<RuntimeValue> evaluateSort(Interpreter &interpreter,
                                  const Instruction &instruction,
                                  Operands &operands) {
  if (operands.empty())
    return failAt(instruction, "needs at least one operand");
  const Shape &shape = operands[0].shape;
  for (const RuntimeValue &operand : operands)
    if (!operand.shape.isArray() || operand.shape.dims() != shape.dims())
      return failAt(instruction, "operands must be arrays of one shape");
  if (instruction.dimensions().size() != 1 || instruction.dimensions()[0] < 0 ||
      instruction.dimensions()[0] >= shape.rank())
    return failAt(instruction, "needs one sort dimension of the operands");
  int64_t axis = instruction.dimensions()[0];
  const Computation *comparator = instruction.calledComputation("to_apply");
  if (!comparator)
    return failAt(instruction, "has no comparator computation");
  auto compare = ScalarFunction::make(interpreter, *comparator, instruction);
  if (!compare)
    return compare.error();
  size_t count = operands.size();
  if (compare->parameterCount() != 2 * count || compare->resultCount() != 1)
    return failAt(instruction, "comparator " + comparator->name() +
                                   " must take two scalars per operand");

  std::vector<int64_t> strides = rowMajorStrides(shape.dims());
  int64_t length = shape.dim(axis), stride = strides[axis];
  // Every line along the axis starts at an index whose axis coordinate is 0.
  std::vector<int64_t> lineDims = shape.dims();
  lineDims[axis] = 1;
  std::vector<std::vector<double>> sorted;
  for (const RuntimeValue &operand : operands)
    sorted.push_back(newScratchBuffer(operand.size()));
  std::vector<int64_t> order(length);
  std::vector<double> arguments(2 * count);
  Status status;
  forEachIndex(lineDims, strides, strides, [&](int64_t base, int64_t) {
    if (!status)
      return;
    std::iota(order.begin(), order.end(), 0);
    // Stable whether or not is_stable is set, so results are reproducible.
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      if (!status)
        return false;
      for (size_t k = 0; k < count; ++k) {
        arguments[2 * k] = operands[k].data()[base + a * stride];
        arguments[2 * k + 1] = operands[k].data()[base + b * stride];
      }
      double less = 0;
      status = compare->apply(arguments.data(), &less);
      return less != 0;
    });
    for (size_t k = 0; k < count; ++k)
      for (int64_t i = 0; i < length; ++i)
        sorted[k][base + i * stride] =
            operands[k].data()[base + order[i] * stride];
  });
  if (!status)
    return status.error();
  const Shape &result = instruction.shape();
  if (!result.isTuple())
    return makeArray(result, std::move(sorted[0]));
  std::vector<RuntimeValue> elements;
  for (size_t k = 0; k < count; ++k)
    elements.push_back(makeArray(result.tupleShape(k), std::move(sorted[k])));
  RuntimeValue tuple = makeTuple(std::move(elements));
  tuple.shape = result;
  return tuple;
}

} // namespace rlopt::graph::interp
