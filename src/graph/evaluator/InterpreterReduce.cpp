// reduce, reduce-window and select-and-scatter. Reducers that are one
// binary op on their two parameters run as a direct loop; any other
// reducer (variadic argmax, ...) runs per element as a scalar function.
#include "InterpreterElements.h"
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlopt::graph::interp {

namespace {

bool narrowFloat(ElementType type) {
  return domainOf(type) == Domain::Float && type != ElementType::F64;
}

/// Folds input elements into accumulators: acc[k] = f(acc..., in...).
class Folder {
public:
  Folder(const ScalarFunction &function, size_t count, bool round)
      : function(function), count(count), type(function.resultType(0)),
        round(round && narrowFloat(type)), arguments(2 * count),
        results(count) {}

  bool isBinary() const { return count == 1 && function.binaryOp(); }
  Opcode binaryOp() const { return *function.binaryOp(); }
  ElementType elementType() const { return type; }
  bool rounds() const { return round; }

  double binary(double acc, double x) const {
    double value = applyBinary(*function.binaryOp(), type, acc, x);
    return round ? roundFloat(type, value) : value;
  }

  /// acc[k][a] = f(acc[.][a], in[.][i]).
  Status fold(double *const *acc, int64_t a, const double *const *in,
              int64_t i) {
    if (isBinary()) {
      acc[0][a] = binary(acc[0][a], in[0][i]);
      return Status::success();
    }
    for (size_t k = 0; k < count; ++k) {
      arguments[k] = acc[k][a];
      arguments[count + k] = in[k][i];
    }
    Status status = function.apply(arguments.data(), results.data());
    for (size_t k = 0; k < count; ++k)
      acc[k][a] = results[k];
    return status;
  }

private:
  const ScalarFunction &function;
  size_t count;
  ElementType type;
  bool round;
  std::vector<double> arguments, results;
};

template <typename Combine>
void foldAll(const std::vector<int64_t> &dims,
             const std::vector<int64_t> &accStrides, const double *in,
             double *acc, Combine combine) {
  forEachIndex(dims, rowMajorStrides(dims), accStrides,
               [&](int64_t i, int64_t a) { acc[a] = combine(acc[a], in[i]); });
}

/// The common single-op reducers as tight loops; others through Folder.
void foldBinary(const Folder &folder, const std::vector<int64_t> &dims,
                const std::vector<int64_t> &accStrides, const double *in,
                double *acc) {
  Opcode op = folder.binaryOp();
  ElementType type = folder.elementType();
  bool isFloat = domainOf(type) == Domain::Float;
  if (isFloat && op == Opcode::Add && type == ElementType::F32 &&
      folder.rounds())
    return foldAll(dims, accStrides, in, acc, [](double a, double b) {
      return static_cast<double>(static_cast<float>(a + b));
    });
  if (isFloat && op == Opcode::Add && !folder.rounds())
    return foldAll(dims, accStrides, in, acc,
                   [](double a, double b) { return a + b; });
  if (isFloat && op == Opcode::Maximum)
    return foldAll(dims, accStrides, in, acc, [](double a, double b) {
      return std::isnan(a) || std::isnan(b)
                 ? std::numeric_limits<double>::quiet_NaN()
             : a > b ? a
                     : b;
    });
  if (isFloat && op == Opcode::Minimum)
    return foldAll(dims, accStrides, in, acc, [](double a, double b) {
      return std::isnan(a) || std::isnan(b)
                 ? std::numeric_limits<double>::quiet_NaN()
             : a < b ? a
                     : b;
    });
  foldAll(dims, accStrides, in, acc,
          [&](double a, double b) { return folder.binary(a, b); });
}

/// Variadic ops: N arrays then N scalar initial values.
struct VariadicOperands {
  size_t count = 0;
  std::vector<const double *> inputs;
  std::vector<double> initial;
};

Result<VariadicOperands> splitOperands(const Instruction &instruction,
                                       const Operands &operands) {
  if (operands.size() < 2 || operands.size() % 2 != 0)
    return failAt(instruction, "needs N inputs and N initial values");
  VariadicOperands split;
  split.count = operands.size() / 2;
  for (size_t k = 0; k < split.count; ++k) {
    const RuntimeValue &input = operands[k];
    const RuntimeValue &init = operands[split.count + k];
    if (!input.shape.isArray() || isComplex(input.shape.type()) ||
        input.shape.dims() != operands[0].shape.dims())
      return failAt(instruction, "inputs must be real arrays of one shape");
    if (init.size() != 1)
      return failAt(instruction, "initial values must be scalars");
    split.inputs.push_back(input.data());
    split.initial.push_back(init.data()[0]);
  }
  return split;
}

Result<Folder> makeFolder(Interpreter &interpreter,
                          const Instruction &instruction, const char *key,
                          size_t count, std::optional<ScalarFunction> &holder) {
  const Computation *computation = instruction.calledComputation(key);
  if (!computation)
    return failAt(instruction, "has no " + std::string(key) + " computation");
  auto function = ScalarFunction::make(interpreter, *computation, instruction);
  if (!function)
    return function.error();
  if (function->parameterCount() != 2 * count ||
      function->resultCount() != count)
    return failAt(instruction, std::string(key) + " " + computation->name() +
                                   " must reduce " + std::to_string(count) +
                                   " scalar pairs");
  holder = function.takeValue();
  return Folder(*holder, count, interpreter.options().roundToElementType);
}

/// The result: one array, or a tuple of arrays for variadic ops.
RuntimeValue packResults(const Instruction &instruction,
                         std::vector<std::vector<double>> data) {
  const Shape &shape = instruction.shape();
  if (!shape.isTuple())
    return makeArray(shape, std::move(data[0]));
  std::vector<RuntimeValue> elements;
  for (size_t k = 0; k < data.size(); ++k)
    elements.push_back(makeArray(shape.tupleShape(k), std::move(data[k])));
  RuntimeValue tuple = makeTuple(std::move(elements));
  tuple.shape = shape;
  return tuple;
}

const Shape &firstResultShape(const Instruction &instruction) {
  const Shape &shape = instruction.shape();
  return shape.isTuple() && !shape.tupleShapes().empty() ? shape.tupleShape(0)
                                                         : shape;
}

std::vector<double *> pointers(std::vector<std::vector<double>> &data) {
  std::vector<double *> result;
  for (std::vector<double> &values : data)
    result.push_back(values.data());
  return result;
}

/// For each dimension and each output coordinate, the input offsets a
/// window covers there, skipping padding and base-dilation holes (XLA's
/// evaluator skips them rather than folding in the initial value).
struct WindowTable {
  std::vector<std::vector<int64_t>> offsets; // per dim, all coordinates
  std::vector<std::vector<int64_t>> begin;   // per dim, per coordinate + 1
};

Result<WindowTable> windowTable(const Instruction &instruction,
                                const std::vector<int64_t> &inDims,
                                const std::vector<int64_t> &outDims) {
  const std::vector<WindowDim> &window = instruction.window();
  if (window.size() != inDims.size() || outDims.size() != inDims.size())
    return failAt(instruction, "window needs one entry per dimension");
  std::vector<int64_t> inStrides = rowMajorStrides(inDims);
  WindowTable table;
  table.offsets.resize(inDims.size());
  table.begin.resize(inDims.size());
  for (size_t d = 0; d < inDims.size(); ++d) {
    const WindowDim &w = window[d];
    if (w.size < 1 || w.stride < 1 || w.baseDilation < 1 ||
        w.windowDilation < 1)
      return failAt(instruction, "window sizes, strides and dilations must "
                                 "be positive");
    table.begin[d].push_back(0);
    for (int64_t o = 0; o < outDims[d]; ++o) {
      for (int64_t k = 0; k < w.size; ++k) {
        int64_t position = o * w.stride + k * w.windowDilation - w.padLow;
        if (position < 0 || position % w.baseDilation != 0)
          continue;
        int64_t coordinate = position / w.baseDilation;
        if (coordinate >= inDims[d])
          continue;
        table.offsets[d].push_back(coordinate * inStrides[d]);
      }
      table.begin[d].push_back(static_cast<int64_t>(table.offsets[d].size()));
    }
  }
  return table;
}

/// Calls visit(outOffset, inOffsets...) per output position with the
/// window's input offsets, via a callback per window element.
template <typename Start, typename Visit>
void forEachWindow(const WindowTable &table,
                   const std::vector<int64_t> &outDims, Start start,
                   Visit visit) {
  size_t rank = outDims.size();
  int64_t outCount = product(outDims);
  std::vector<int64_t> outIndex(rank, 0), position(rank), limit(rank);
  for (int64_t out = 0; out < outCount; ++out) {
    start(out);
    bool empty = false;
    for (size_t d = 0; d < rank; ++d) {
      position[d] = table.begin[d][outIndex[d]];
      limit[d] = table.begin[d][outIndex[d] + 1];
      empty = empty || position[d] == limit[d];
    }
    while (!empty) {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d)
        offset += table.offsets[d][position[d]];
      visit(out, offset);
      size_t d = rank;
      while (d > 0) {
        --d;
        if (++position[d] < limit[d])
          break;
        position[d] = table.begin[d][outIndex[d]];
        if (d == 0)
          empty = true;
      }
      if (rank == 0)
        empty = true;
    }
    for (size_t d = rank; d-- > 0;) {
      if (++outIndex[d] < outDims[d])
        break;
      outIndex[d] = 0;
    }
  }
}

} // namespace

Result<RuntimeValue> evaluateReduce(Interpreter &interpreter,
                                    const Instruction &instruction,
                                    Operands &operands) {
  auto split = splitOperands(instruction, operands);
  if (!split)
    return split.error();
  std::optional<ScalarFunction> holder;
  auto folder =
      makeFolder(interpreter, instruction, "to_apply", split->count, holder);
  if (!folder)
    return folder.error();
  const std::vector<int64_t> &inDims = operands[0].shape.dims();
  std::vector<bool> reduced(inDims.size(), false);
  for (int64_t d : instruction.dimensions()) {
    if (d < 0 || d >= static_cast<int64_t>(inDims.size()) || reduced[d])
      return failAt(instruction, "reduces dimension " + std::to_string(d) +
                                     " of " +
                                     operands[0].shape.toString(false));
    reduced[d] = true;
  }
  std::vector<int64_t> outDims;
  for (size_t d = 0; d < inDims.size(); ++d)
    if (!reduced[d])
      outDims.push_back(inDims[d]);
  if (outDims != firstResultShape(instruction).dims())
    return failAt(instruction, "result shape does not match the reduced "
                               "dimensions");
  std::vector<int64_t> outStrides = rowMajorStrides(outDims);
  std::vector<int64_t> accStrides(inDims.size(), 0);
  for (size_t d = 0, o = 0; d < inDims.size(); ++d)
    if (!reduced[d])
      accStrides[d] = outStrides[o++];

  int64_t outCount = product(outDims);
  std::vector<std::vector<double>> accumulators;
  for (size_t k = 0; k < split->count; ++k)
    accumulators.push_back(newBuffer(outCount, split->initial[k]));
  if (folder->isBinary()) {
    foldBinary(*folder, inDims, accStrides, split->inputs[0],
               accumulators[0].data());
  } else {
    std::vector<double *> acc = pointers(accumulators);
    Status status;
    forEachIndex(
        inDims, rowMajorStrides(inDims), accStrides, [&](int64_t i, int64_t a) {
          if (status)
            status = folder->fold(acc.data(), a, split->inputs.data(), i);
        });
    if (!status)
      return status.error();
  }
  return packResults(instruction, std::move(accumulators));
}

Result<RuntimeValue> evaluateReduceWindow(Interpreter &interpreter,
                                          const Instruction &instruction,
                                          Operands &operands) {
  auto split = splitOperands(instruction, operands);
  if (!split)
    return split.error();
  std::optional<ScalarFunction> holder;
  auto folder =
      makeFolder(interpreter, instruction, "to_apply", split->count, holder);
  if (!folder)
    return folder.error();
  const std::vector<int64_t> &outDims = firstResultShape(instruction).dims();
  auto table = windowTable(instruction, operands[0].shape.dims(), outDims);
  if (!table)
    return table.error();
  std::vector<std::vector<double>> accumulators;
  for (size_t k = 0; k < split->count; ++k)
    accumulators.push_back(newBuffer(product(outDims), split->initial[k]));
  std::vector<double *> acc = pointers(accumulators);
  Status status;
  forEachWindow(
      *table, outDims, [](int64_t) {},
      [&](int64_t out, int64_t in) {
        if (status)
          status = folder->fold(acc.data(), out, split->inputs.data(), in);
      });
  if (!status)
    return status.error();
  return packResults(instruction, std::move(accumulators));
}

Result<RuntimeValue> evaluateSelectAndScatter(Interpreter &interpreter,
                                              const Instruction &instruction,
                                              Operands &operands) {
  if (operands.size() != 3 || operands[2].size() != 1)
    return failAt(instruction, "needs an operand, a source and a scalar "
                               "initial value");
  const RuntimeValue &operand = operands[0];
  const RuntimeValue &source = operands[1];
  const Computation *selectComputation =
      instruction.calledComputation("select");
  const Computation *scatterComputation =
      instruction.calledComputation("scatter");
  if (!selectComputation || !scatterComputation)
    return failAt(instruction, "needs select and scatter computations");
  auto select =
      ScalarFunction::make(interpreter, *selectComputation, instruction);
  if (!select)
    return select.error();
  std::optional<ScalarFunction> holder;
  auto scatter = makeFolder(interpreter, instruction, "scatter", 1, holder);
  if (!scatter)
    return scatter.error();
  if (select->parameterCount() != 2 || select->resultCount() != 1)
    return failAt(instruction, "select must compare two scalars");
  auto table =
      windowTable(instruction, operand.shape.dims(), source.shape.dims());
  if (!table)
    return table.error();

  std::vector<std::vector<double>> output(
      1, newBuffer(operand.size(), operands[2].data()[0]));
  double *out = output[0].data();
  const double *in = operand.data();
  const double *sources = source.data();
  int64_t selected = -1;
  Status status;
  auto finishWindow = [&](int64_t sourceOffset) {
    if (selected < 0 || !status)
      return;
    const double *value = sources + sourceOffset;
    status = scatter->fold(&out, selected, &value, 0);
  };
  int64_t current = -1;
  forEachWindow(
      *table, source.shape.dims(),
      [&](int64_t sourceOffset) {
        if (current >= 0)
          finishWindow(current);
        current = sourceOffset;
        selected = -1;
      },
      [&](int64_t, int64_t offset) {
        if (!status)
          return;
        if (selected < 0) {
          selected = offset;
          return;
        }
        // select(current choice, candidate) true keeps the current choice.
        double arguments[2] = {in[selected], in[offset]}, keep = 0;
        status = select->apply(arguments, &keep);
        if (keep == 0)
          selected = offset;
      });
  if (current >= 0)
    finishWindow(current);
  if (!status)
    return status.error();
  return makeArray(instruction.shape(), std::move(output[0]));
}

} // namespace rlopt::graph::interp
