// Shape rules of dot and of the opcodes that call computations: the
// called computation's signature must fit the operands, and the result
// follows from both.
#include "ShapeCheck.h"

#include "rlopt/graph/Computation.h"

#include <algorithm>

namespace rlopt::graph::detail {

const std::vector<const Shape *> &
Signatures::parameters(const Computation &computation) {
  auto [it, inserted] = cache.try_emplace(&computation);
  if (inserted)
    for (const Instruction *parameter : computation.parameters())
      it->second.push_back(&parameter->shape());
  return it->second;
}

ShapeProblem checkDotShape(const Instruction &instruction) {
  const Shape &lhs = instruction.operand(0)->shape();
  const Shape &rhs = instruction.operand(1)->shape();
  const DotDims &dims = instruction.dotDims();
  auto joined = [](std::vector<int64_t> a, const std::vector<int64_t> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  if (auto problem =
          checkDimensionList(joined(dims.lhsBatch, dims.lhsContracting),
                             lhs.rank(), "lhs batch or contracting dimension"))
    return problem;
  if (auto problem =
          checkDimensionList(joined(dims.rhsBatch, dims.rhsContracting),
                             rhs.rank(), "rhs batch or contracting dimension"))
    return problem;
  auto pairsMatch = [&](const std::vector<int64_t> &l,
                        const std::vector<int64_t> &r,
                        const char *what) -> ShapeProblem {
    for (size_t i = 0; i < l.size(); ++i)
      if (lhs.dim(l[i]) != rhs.dim(r[i]))
        return std::string(what) + " dimensions lhs " + std::to_string(l[i]) +
               " (size " + std::to_string(lhs.dim(l[i])) + ") and rhs " +
               std::to_string(r[i]) + " (size " +
               std::to_string(rhs.dim(r[i])) + ") differ";
    return std::nullopt;
  };
  if (auto problem = pairsMatch(dims.lhsBatch, dims.rhsBatch, "batch"))
    return problem;
  if (auto problem =
          pairsMatch(dims.lhsContracting, dims.rhsContracting, "contracting"))
    return problem;
  std::vector<int64_t> result;
  for (int64_t dim : dims.lhsBatch)
    result.push_back(lhs.dim(dim));
  auto appendFree = [&](const Shape &side, const std::vector<int64_t> &batch,
                        const std::vector<int64_t> &contracting) {
    for (int64_t d = 0; d < side.rank(); ++d)
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contracting.begin(), contracting.end(), d) ==
              contracting.end())
        result.push_back(side.dim(d));
  };
  appendFree(lhs, dims.lhsBatch, dims.lhsContracting);
  appendFree(rhs, dims.rhsBatch, dims.rhsContracting);
  // The result type may be wider than the operands' (preferred type).
  return expectShape(instruction.shape(),
                     Shape::array(instruction.shape().type(), result));
}

namespace {

std::string typeName(ElementType type) {
  return std::string(elementTypeName(type));
}

// XLA lets reducers and combiners mix floating-point precisions.
bool sameTypeIgnoringFp(ElementType a, ElementType b) {
  return a == b || (isFloating(a) && isFloating(b));
}

std::string countText(size_t parameters) {
  return std::to_string(parameters) +
         (parameters == 1 ? " parameter" : " parameters");
}

std::string calledText(const char *key, const Computation &callee) {
  return std::string(key) + " '" + callee.name() + "'";
}

// `callee` takes exactly `expected` and, when `result` is set, returns it.
ShapeProblem checkSignature(Signatures &signatures, const char *key,
                            const Computation &callee,
                            const std::vector<Shape> &expected,
                            const Shape *result) {
  const std::vector<const Shape *> &parameters = signatures.parameters(callee);
  if (parameters.size() != expected.size())
    return calledText(key, callee) + " takes " + countText(parameters.size()) +
           ", expected " + std::to_string(expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    if (!parameters[i]->compatible(expected[i]))
      return calledText(key, callee) + " parameter " + std::to_string(i) +
             " is " + shapeText(*parameters[i]) + ", expected " +
             shapeText(expected[i]);
  if (result && !callee.root()->shape().compatible(*result))
    return calledText(key, callee) + " returns " +
           shapeText(callee.root()->shape()) + ", expected " +
           shapeText(*result);
  return std::nullopt;
}

std::vector<Shape> operandShapes(const Instruction &instruction, size_t first,
                                 size_t count) {
  std::vector<Shape> shapes;
  for (size_t i = first; i < first + count; ++i)
    shapes.push_back(instruction.operand(i)->shape());
  return shapes;
}

// A reducer or combiner of `n` values: 2n scalar parameters, the first n
// of `accumulators`' types and the next n of `elements`' (either may be
// another floating-point precision), returning n scalars of the
// accumulator types, as one scalar or a tuple.
ShapeProblem checkReducer(Signatures &signatures, const char *key,
                          const Computation &reducer,
                          const std::vector<ElementType> &accumulators,
                          const std::vector<ElementType> &elements) {
  size_t n = accumulators.size();
  const std::vector<const Shape *> &parameters = signatures.parameters(reducer);
  std::string expectation = "reducing " + std::to_string(n) + " input" +
                            (n == 1 ? "" : "s") + " needs " +
                            std::to_string(2 * n) + " scalar parameters";
  if (parameters.size() != 2 * n)
    return calledText(key, reducer) + " takes " + countText(parameters.size()) +
           "; " + expectation;
  for (size_t i = 0; i < 2 * n; ++i) {
    ElementType type = i < n ? accumulators[i] : elements[i - n];
    const Shape &parameter = *parameters[i];
    if (!parameter.isArray() || parameter.rank() != 0 ||
        !sameTypeIgnoringFp(parameter.type(), type))
      return calledText(key, reducer) + " parameter " + std::to_string(i) +
             " is " + shapeText(parameter) + ", expected " + typeName(type) +
             "[]";
  }
  const Shape &root = reducer.root()->shape();
  std::vector<Shape> results;
  if (root.isTuple())
    results = root.tupleShapes();
  else
    results = {root};
  bool fits = results.size() == n;
  for (size_t i = 0; fits && i < n; ++i)
    fits = results[i].isArray() && results[i].rank() == 0 &&
           sameTypeIgnoringFp(results[i].type(), accumulators[i]);
  if (!fits) {
    std::string expected;
    for (size_t i = 0; i < n; ++i)
      expected += (i ? ", " : "") + typeName(accumulators[i]) + "[]";
    return calledText(key, reducer) + " returns " + shapeText(root) +
           ", expected " + (n == 1 ? expected : "(" + expected + ")");
  }
  return std::nullopt;
}

std::vector<ElementType> elementTypes(const std::vector<Shape> &shapes) {
  std::vector<ElementType> types;
  for (const Shape &shape : shapes)
    types.push_back(shape.type());
  return types;
}

// One result for one array, a tuple for several.
Shape resultOf(std::vector<Shape> shapes) {
  return shapes.size() == 1 ? shapes[0] : Shape::tuple(std::move(shapes));
}

// Inputs of variadic reductions: arrays of one set of dimensions.
ShapeProblem checkInputs(const std::vector<Shape> &inputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].isArray() || inputs[i].dims() != inputs[0].dims())
      return "input " + std::to_string(i) + " " + shapeText(inputs[i]) +
             " differs in dimensions from input 0 " + shapeText(inputs[0]);
  return std::nullopt;
}

ShapeProblem checkScalars(const std::vector<Shape> &values, const char *what) {
  for (size_t i = 0; i < values.size(); ++i)
    if (!values[i].isArray() || values[i].rank() != 0)
      return std::string(what) + " " + std::to_string(i) + " is " +
             shapeText(values[i]) + ", not a scalar";
  return std::nullopt;
}

ShapeProblem checkReduce(const Instruction &instruction,
                         Signatures &signatures) {
  size_t n = instruction.operandCount() / 2;
  std::vector<Shape> inputs = operandShapes(instruction, 0, n);
  std::vector<Shape> inits = operandShapes(instruction, n, n);
  if (auto problem = checkInputs(inputs))
    return problem;
  if (auto problem = checkScalars(inits, "init value"))
    return problem;
  const std::vector<int64_t> &reduced = instruction.dimensions();
  if (auto problem =
          checkDimensionList(reduced, inputs[0].rank(), "reduce dimension"))
    return problem;
  if (auto problem = checkReducer(signatures, "to_apply",
                                  *instruction.calledComputation("to_apply"),
                                  elementTypes(inits), elementTypes(inputs)))
    return problem;
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < inputs[0].rank(); ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end())
      kept.push_back(inputs[0].dim(d));
  std::vector<Shape> results;
  for (const Shape &init : inits)
    results.push_back(Shape::array(init.type(), kept));
  return expectShape(instruction.shape(), resultOf(std::move(results)));
}

int64_t dilated(int64_t size, int64_t dilation) {
  return size == 0 ? 0 : (size - 1) * dilation + 1;
}

ShapeProblem checkReduceWindow(const Instruction &instruction,
                               Signatures &signatures) {
  size_t n = instruction.operandCount() / 2;
  std::vector<Shape> inputs = operandShapes(instruction, 0, n);
  std::vector<Shape> inits = operandShapes(instruction, n, n);
  if (auto problem = checkInputs(inputs))
    return problem;
  if (auto problem = checkScalars(inits, "init value"))
    return problem;
  if (auto problem = checkReducer(signatures, "to_apply",
                                  *instruction.calledComputation("to_apply"),
                                  elementTypes(inits), elementTypes(inputs)))
    return problem;
  const std::vector<WindowDim> &window = instruction.window();
  if (window.empty())
    return std::nullopt;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < window.size(); ++i) {
    const WindowDim &w = window[i];
    if (w.size < 1 || w.stride < 1 || w.baseDilation < 1 ||
        w.windowDilation < 1)
      return "window dimension " + std::to_string(i) +
             " needs positive size, stride and dilations";
    int64_t base =
        w.padLow + dilated(inputs[0].dim(i), w.baseDilation) + w.padHigh;
    int64_t extent = dilated(w.size, w.windowDilation);
    dims.push_back(extent > base ? 0 : (base - extent) / w.stride + 1);
  }
  std::vector<Shape> results;
  for (const Shape &init : inits)
    results.push_back(Shape::array(init.type(), dims));
  return expectShape(instruction.shape(), resultOf(std::move(results)));
}

ShapeProblem checkSort(const Instruction &instruction, Signatures &signatures) {
  std::vector<Shape> inputs =
      operandShapes(instruction, 0, instruction.operandCount());
  if (auto problem = checkInputs(inputs))
    return problem;
  const std::vector<int64_t> &dimensions = instruction.dimensions();
  if (dimensions.size() > 1)
    return "sort needs one dimension, got " + listText(dimensions);
  if (auto problem =
          checkDimensionList(dimensions, inputs[0].rank(), "sort dimension"))
    return problem;
  std::vector<Shape> parameters;
  for (const Shape &input : inputs)
    for (int side = 0; side < 2; ++side)
      parameters.push_back(Shape::scalar(input.type()));
  Shape pred = Shape::scalar(ElementType::Pred);
  if (auto problem = checkSignature(signatures, "to_apply",
                                    *instruction.calledComputation("to_apply"),
                                    parameters, &pred))
    return problem;
  return expectShape(instruction.shape(), resultOf(std::move(inputs)));
}

ShapeProblem checkMap(const Instruction &instruction, Signatures &signatures) {
  std::vector<Shape> inputs =
      operandShapes(instruction, 0, instruction.operandCount());
  if (auto problem = checkInputs(inputs))
    return problem;
  std::vector<Shape> parameters;
  for (const Shape &input : inputs)
    parameters.push_back(Shape::scalar(input.type()));
  const Computation &mapped = *instruction.calledComputation("to_apply");
  if (auto problem =
          checkSignature(signatures, "to_apply", mapped, parameters, nullptr))
    return problem;
  const Shape &root = mapped.root()->shape();
  if (!root.isArray() || root.rank() != 0)
    return calledText("to_apply", mapped) + " returns " + shapeText(root) +
           ", expected a scalar";
  return expectShape(instruction.shape(),
                     Shape::array(root.type(), inputs[0].dims()));
}

// all-reduce and scatter combine with a reducer over their element types.
ShapeProblem checkAllReduce(const Instruction &instruction,
                            Signatures &signatures) {
  std::vector<Shape> inputs =
      operandShapes(instruction, 0, instruction.operandCount());
  if (inputs.empty())
    return "all-reduce needs at least one operand";
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].isArray())
      return "operand " + std::to_string(i) + " is " + shapeText(inputs[i]) +
             ", not an array";
  // One reducer serves every operand, so it is checked on the first type.
  std::vector<ElementType> type = {inputs[0].type()};
  if (auto problem =
          checkReducer(signatures, "to_apply",
                       *instruction.calledComputation("to_apply"), type, type))
    return problem;
  return expectShape(instruction.shape(), resultOf(std::move(inputs)));
}

/// XLA's scatter dimension numbers for an input of `input`'s shape: each
/// update is a window over the input's dimensions that are not inserted,
/// at most their size, and scatter dimensions matching the indices' batch.
ShapeProblem checkScatterDims(const Instruction &instruction,
                              const Shape &input, const Shape &indices,
                              const Shape &update) {
  auto windowDims = intListOf(instruction, "update_window_dims");
  auto inserted = intListOf(instruction, "inserted_window_dims");
  auto batching = intListOf(instruction, "input_batching_dims");
  auto toOperand = intListOf(instruction, "scatter_dims_to_operand_dims");
  for (const auto *list : {&windowDims, &inserted, &batching, &toOperand})
    if (!*list)
      return list->error().message;
  auto indexDims = indexDimsOf(instruction, indices);
  if (!indexDims)
    return indexDims.error().message;
  if (int64_t(toOperand->size()) != indexDims->count)
    return "scatter_dims_to_operand_dims has " +
           std::to_string(toOperand->size()) + " entries for " +
           std::to_string(indexDims->count) + " indices";
  if (auto problem = checkDimensionList(*toOperand, input.rank(),
                                        "scatter_dims_to_operand_dims entry"))
    return problem;
  std::vector<int64_t> removed = *inserted;
  removed.insert(removed.end(), batching->begin(), batching->end());
  if (auto problem = checkDimensionList(removed, input.rank(),
                                        "inserted or batching dimension"))
    return problem;
  if (windowDims->size() + removed.size() != size_t(input.rank()))
    return "update_window_dims " + listText(*windowDims) + " and the " +
           std::to_string(removed.size()) +
           " inserted dimensions do not cover the input's rank " +
           std::to_string(input.rank());
  if (auto problem =
          checkDimensionList(*windowDims, update.rank(), "update window dim"))
    return problem;
  if (!std::is_sorted(windowDims->begin(), windowDims->end()))
    return "update_window_dims " + listText(*windowDims) + " are not sorted";
  const std::vector<int64_t> &batch = indexDims->batch;
  if (size_t(update.rank()) != windowDims->size() + batch.size())
    return "update " + shapeText(update) + " has rank " +
           std::to_string(update.rank()) + ", not " +
           std::to_string(windowDims->size() + batch.size()) +
           " (window and scatter dimensions)";
  size_t nextWindow = 0, nextBatch = 0;
  int64_t inputDim = 0;
  for (int64_t d = 0; d < update.rank(); ++d) {
    if (nextWindow < windowDims->size() && (*windowDims)[nextWindow] == d) {
      ++nextWindow;
      while (std::find(removed.begin(), removed.end(), inputDim) !=
             removed.end())
        ++inputDim;
      if (update.dim(d) > input.dim(inputDim))
        return "update " + shapeText(update) + " dimension " +
               std::to_string(d) + " is wider than the input's dimension " +
               std::to_string(inputDim);
      ++inputDim;
    } else if (update.dim(d) != batch[nextBatch++]) {
      return "update " + shapeText(update) + " dimension " + std::to_string(d) +
             " does not match the indices " + shapeText(indices);
    }
  }
  return std::nullopt;
}

ShapeProblem checkScatter(const Instruction &instruction,
                          Signatures &signatures) {
  size_t count = instruction.operandCount();
  if (count % 2 == 0)
    return "scatter takes inputs, indices and updates (an odd count), got " +
           std::to_string(count) + " operands";
  size_t n = count / 2;
  std::vector<Shape> inputs = operandShapes(instruction, 0, n);
  std::vector<Shape> updates = operandShapes(instruction, n + 1, n);
  if (auto problem = checkInputs(inputs))
    return problem;
  for (size_t i = 0; i < n; ++i)
    if (!updates[i].isArray())
      return "update " + std::to_string(i) + " is " + shapeText(updates[i]) +
             ", not an array";
  const Shape &indices = instruction.operand(n)->shape();
  if (!indices.isArray())
    return "indices " + shapeText(indices) + " are not an array";
  for (size_t i = 0; i < n; ++i)
    if (auto problem =
            checkScatterDims(instruction, inputs[i], indices, updates[i]))
      return problem;
  if (auto problem = checkReducer(signatures, "to_apply",
                                  *instruction.calledComputation("to_apply"),
                                  elementTypes(inputs), elementTypes(updates)))
    return problem;
  return expectShape(instruction.shape(), resultOf(std::move(inputs)));
}

ShapeProblem checkSelectAndScatter(const Instruction &instruction,
                                   Signatures &signatures) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &source = instruction.operand(1)->shape();
  const Shape &init = instruction.operand(2)->shape();
  if (!operand.isArray() || !source.isArray() || !init.isArray() ||
      init.rank() != 0)
    return "select-and-scatter takes two arrays and a scalar init value";
  Shape element = Shape::scalar(operand.type());
  Shape pred = Shape::scalar(ElementType::Pred);
  if (auto problem = checkSignature(signatures, "select",
                                    *instruction.calledComputation("select"),
                                    {element, element}, &pred))
    return problem;
  std::vector<ElementType> type = {source.type()};
  if (auto problem =
          checkReducer(signatures, "scatter",
                       *instruction.calledComputation("scatter"), type, type))
    return problem;
  return expectShape(instruction.shape(), operand);
}

ShapeProblem checkWhile(const Instruction &instruction,
                        Signatures &signatures) {
  const Shape &state = instruction.operand(0)->shape();
  Shape pred = Shape::scalar(ElementType::Pred);
  if (auto problem = checkSignature(signatures, "condition",
                                    *instruction.calledComputation("condition"),
                                    {state}, &pred))
    return problem;
  if (auto problem = checkSignature(signatures, "body",
                                    *instruction.calledComputation("body"),
                                    {state}, &state))
    return problem;
  return expectShape(instruction.shape(), state);
}

ShapeProblem checkConditional(const Instruction &instruction,
                              Signatures &signatures) {
  std::vector<Computation *> branches;
  const char *key = "branch_computations";
  if (const Attribute *listed = instruction.findAttribute(key))
    branches = listed->computations;
  else
    branches = {instruction.calledComputation("true_computation"),
                instruction.calledComputation("false_computation")};
  if (instruction.operandCount() != branches.size() + 1)
    return "conditional with " + std::to_string(branches.size()) +
           " branches takes " + std::to_string(branches.size() + 1) +
           " operands, got " + std::to_string(instruction.operandCount());
  const Shape &selector = instruction.operand(0)->shape();
  if (!selector.isArray() || selector.rank() != 0 ||
      !(selector.type() == ElementType::Pred ||
        isSignedInteger(selector.type()) || isUnsignedInteger(selector.type())))
    return "conditional selector " + shapeText(selector) +
           " is not a pred or integer scalar";
  for (size_t i = 0; i < branches.size(); ++i) {
    if (!branches[i])
      return "conditional is missing branch " + std::to_string(i);
    if (auto problem = checkSignature(signatures, "branch", *branches[i],
                                      {instruction.operand(i + 1)->shape()},
                                      &instruction.shape()))
      return problem;
  }
  return std::nullopt;
}

ShapeProblem checkCall(const Instruction &instruction, const char *key,
                       Signatures &signatures) {
  return checkSignature(
      signatures, key, *instruction.calledComputation(key),
      operandShapes(instruction, 0, instruction.operandCount()),
      &instruction.shape());
}

} // namespace

ShapeProblem checkCallShape(const Instruction &instruction,
                            Signatures &signatures) {
  switch (instruction.opcode()) {
  case Opcode::Call:
    return checkCall(instruction, "to_apply", signatures);
  case Opcode::Fusion:
    return checkCall(instruction, "calls", signatures);
  case Opcode::While:
    return checkWhile(instruction, signatures);
  case Opcode::Conditional:
    return checkConditional(instruction, signatures);
  case Opcode::Reduce:
    return checkReduce(instruction, signatures);
  case Opcode::ReduceWindow:
    return checkReduceWindow(instruction, signatures);
  case Opcode::Sort:
    return checkSort(instruction, signatures);
  case Opcode::Map:
    return checkMap(instruction, signatures);
  case Opcode::AllReduce:
    return checkAllReduce(instruction, signatures);
  case Opcode::Scatter:
    return checkScatter(instruction, signatures);
  case Opcode::SelectAndScatter:
    return checkSelectAndScatter(instruction, signatures);
  default:
    return std::nullopt;
  }
}

} // namespace rlopt::graph::detail
