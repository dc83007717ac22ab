// Shape rules of the elementwise and data-movement opcodes.
#include "ShapeCheck.h"

#include "rlopt/graph/Computation.h"

#include <algorithm>

namespace rlopt::graph::detail {

std::string shapeText(const Shape &shape) { return shape.toString(false); }

std::string listText(const std::vector<int64_t> &values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

ShapeProblem expectShape(const Shape &declared, const Shape &inferred) {
  if (declared.compatible(inferred))
    return std::nullopt;
  return "shape " + shapeText(declared) + " differs from the inferred " +
         shapeText(inferred);
}

Result<std::vector<int64_t>> intListOf(const Instruction &instruction,
                                       const char *key) {
  const Attribute *text = instruction.findAttribute(key);
  auto values = parseIntList(text ? text->value : "{}");
  if (!values)
    return makeError(std::string(key) + ": " + values.error().message);
  return values;
}

Result<IndexDims> indexDimsOf(const Instruction &instruction,
                              const Shape &indices) {
  IndexDims dims;
  int64_t vectorDim = indices.rank();
  if (const Attribute *text = instruction.findAttribute("index_vector_dim")) {
    auto parsed = parseIntList("{" + text->value + "}");
    if (!parsed || parsed->size() != 1)
      return makeError("index_vector_dim is not an integer");
    vectorDim = (*parsed)[0];
  }
  if (vectorDim < 0 || vectorDim > indices.rank())
    return makeError("index_vector_dim " + std::to_string(vectorDim) +
                     " is out of range for indices " + shapeText(indices));
  if (!isSignedInteger(indices.type()) && !isUnsignedInteger(indices.type()))
    return makeError("indices " + shapeText(indices) + " are not integers");
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d == vectorDim)
      dims.count = indices.dim(d);
    else
      dims.batch.push_back(indices.dim(d));
  }
  return dims;
}

ShapeProblem checkDimensionList(const std::vector<int64_t> &dims, int64_t rank,
                                const std::string &what) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)));
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return what + " " + std::to_string(dim) + " is out of range for rank " +
             std::to_string(rank);
    if (seen[dim])
      return what + " " + std::to_string(dim) + " is repeated";
    seen[dim] = true;
  }
  return std::nullopt;
}

namespace {

// `?` sizes follow XLA's dynamic-shape rules, which are not modelled here.
bool hasUnbounded(const Shape &shape) {
  if (shape.isTuple())
    return std::any_of(shape.tupleShapes().begin(), shape.tupleShapes().end(),
                       hasUnbounded);
  return std::any_of(shape.dims().begin(), shape.dims().end(),
                     [](int64_t dim) { return dim < 0; });
}

ElementType componentType(ElementType type) {
  if (type == ElementType::C64)
    return ElementType::F32;
  if (type == ElementType::C128)
    return ElementType::F64;
  return type;
}

// The result element type of a unary elementwise opcode (reduce-precision
// and copy included), or nothing for other opcodes.
std::optional<ElementType> unaryResultType(Opcode opcode, ElementType operand) {
  switch (opcode) {
  case Opcode::IsFinite:
    return ElementType::Pred;
  case Opcode::Abs:
  case Opcode::Real:
  case Opcode::Imag:
    return componentType(operand);
  case Opcode::ReducePrecision:
  case Opcode::Copy:
    return operand;
  default:
    if (isUnaryElementwise(opcode))
      return operand;
    return std::nullopt;
  }
}

// The result element type of a binary elementwise opcode on operands of
// `operand`, or nothing for other opcodes.
std::optional<ElementType> binaryResultType(Opcode opcode,
                                            ElementType operand) {
  if (isBinaryElementwise(opcode))
    return operand;
  switch (opcode) {
  case Opcode::Compare:
    return ElementType::Pred;
  case Opcode::Complex:
    return operand == ElementType::F64 ? ElementType::C128 : ElementType::C64;
  default:
    return std::nullopt;
  }
}

ShapeProblem needArrays(const Instruction &instruction) {
  if (!instruction.shape().isArray())
    return "result " + shapeText(instruction.shape()) + " is not an array";
  for (size_t i = 0; i < instruction.operandCount(); ++i)
    if (!instruction.operand(i)->shape().isArray())
      return "operand " + std::to_string(i) + " is " +
             shapeText(instruction.operand(i)->shape()) + ", not an array";
  return std::nullopt;
}

bool isIntegerScalar(const Shape &shape) {
  return shape.isArray() && shape.rank() == 0 &&
         (isSignedInteger(shape.type()) || isUnsignedInteger(shape.type()));
}

ShapeProblem checkBinary(const Instruction &instruction, ElementType result) {
  const Shape &lhs = instruction.operand(0)->shape();
  const Shape &rhs = instruction.operand(1)->shape();
  if (!lhs.compatible(rhs))
    return "operands " + shapeText(lhs) + " and " + shapeText(rhs) + " differ";
  return expectShape(instruction.shape(), Shape::array(result, lhs.dims()));
}

ShapeProblem checkSelect(const Instruction &instruction) {
  const Shape &pred = instruction.operand(0)->shape();
  const Shape &onTrue = instruction.operand(1)->shape();
  const Shape &onFalse = instruction.operand(2)->shape();
  if (!onTrue.compatible(onFalse))
    return "select branches " + shapeText(onTrue) + " and " +
           shapeText(onFalse) + " differ";
  if (!pred.isArray() || pred.type() != ElementType::Pred)
    return "select predicate " + shapeText(pred) + " is not pred";
  if (pred.rank() != 0 && pred.dims() != onTrue.dims())
    return "select predicate " + shapeText(pred) +
           " does not match the branches " + shapeText(onTrue);
  return expectShape(instruction.shape(), onTrue);
}

ShapeProblem checkClamp(const Instruction &instruction) {
  const Shape &low = instruction.operand(0)->shape();
  const Shape &operand = instruction.operand(1)->shape();
  const Shape &high = instruction.operand(2)->shape();
  for (const Shape *bound : {&low, &high})
    if (bound->type() != operand.type() ||
        (bound->rank() != 0 && bound->dims() != operand.dims()))
      return "clamp bound " + shapeText(*bound) +
             " is neither a scalar nor the operand's shape " +
             shapeText(operand);
  return expectShape(instruction.shape(), operand);
}

ShapeProblem checkBitcastConvert(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &result = instruction.shape();
  int from = elementBitWidth(operand.type());
  int to = elementBitWidth(result.type());
  // pred's storage width is the platform's; leave it out.
  if (operand.type() == ElementType::Pred ||
      result.type() == ElementType::Pred || from == 0 || to == 0)
    return std::nullopt;
  std::vector<int64_t> dims = operand.dims();
  if (from > to) {
    dims.push_back(from / to);
  } else if (from < to) {
    if (dims.empty() || dims.back() != to / from)
      return "bitcast-convert from " + shapeText(operand) + " to " +
             std::string(elementTypeName(result.type())) +
             " needs a last dimension of size " + std::to_string(to / from);
    dims.pop_back();
  }
  return expectShape(result, Shape::array(result.type(), dims));
}

ShapeProblem checkBroadcast(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &result = instruction.shape();
  const std::vector<int64_t> &dims = instruction.dimensions();
  if (int64_t(dims.size()) != operand.rank())
    return "broadcast has " + std::to_string(dims.size()) +
           " dimensions for an operand of rank " +
           std::to_string(operand.rank());
  if (auto problem =
          checkDimensionList(dims, result.rank(), "broadcast dimension"))
    return problem;
  for (size_t i = 0; i < dims.size(); ++i)
    if (operand.dim(i) != result.dim(dims[i]))
      return "operand dimension " + std::to_string(i) + " (size " +
             std::to_string(operand.dim(i)) + ") maps to result dimension " +
             std::to_string(dims[i]) + " of size " +
             std::to_string(result.dim(dims[i]));
  return expectShape(result, Shape::array(operand.type(), result.dims()));
}

ShapeProblem checkReshape(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &result = instruction.shape();
  if (operand.elementCount() != result.elementCount())
    return "reshape of " + shapeText(operand) + " to " + shapeText(result) +
           " changes the element count (" +
           std::to_string(operand.elementCount()) + " to " +
           std::to_string(result.elementCount()) + ")";
  return expectShape(result, Shape::array(operand.type(), result.dims()));
}

ShapeProblem checkTranspose(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const std::vector<int64_t> &permutation = instruction.dimensions();
  if (int64_t(permutation.size()) != operand.rank() ||
      checkDimensionList(permutation, operand.rank(), "dimension"))
    return "transpose dimensions " + listText(permutation) +
           " are not a permutation of the " + std::to_string(operand.rank()) +
           " dimensions of " + shapeText(operand);
  std::vector<int64_t> dims;
  for (int64_t dim : permutation)
    dims.push_back(operand.dim(dim));
  return expectShape(instruction.shape(), Shape::array(operand.type(), dims));
}

ShapeProblem checkSlice(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const std::vector<SliceDim> &slice = instruction.slice();
  if (int64_t(slice.size()) != operand.rank())
    return "slice has " + std::to_string(slice.size()) +
           " dimensions for an operand of rank " +
           std::to_string(operand.rank());
  std::vector<int64_t> dims;
  for (size_t i = 0; i < slice.size(); ++i) {
    const SliceDim &range = slice[i];
    if (range.start < 0 || range.start > range.limit ||
        range.limit > operand.dim(i) || range.stride < 1)
      return "slice [" + std::to_string(range.start) + ":" +
             std::to_string(range.limit) + ":" + std::to_string(range.stride) +
             "] is out of range for dimension " + std::to_string(i) + " of " +
             shapeText(operand);
    dims.push_back((range.limit - range.start + range.stride - 1) /
                   range.stride);
  }
  return expectShape(instruction.shape(), Shape::array(operand.type(), dims));
}

ShapeProblem checkReverse(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  if (auto problem = checkDimensionList(instruction.dimensions(),
                                        operand.rank(), "reverse dimension"))
    return problem;
  return expectShape(instruction.shape(), operand);
}

ShapeProblem checkConcatenate(const Instruction &instruction) {
  const std::vector<int64_t> &dimensions = instruction.dimensions();
  const Shape &first = instruction.operand(0)->shape();
  if (dimensions.size() != 1)
    return "concatenate needs one dimension, got " + listText(dimensions);
  int64_t axis = dimensions[0];
  if (auto problem =
          checkDimensionList(dimensions, first.rank(), "concatenate dimension"))
    return problem;
  std::vector<int64_t> dims = first.dims();
  for (size_t i = 1; i < instruction.operandCount(); ++i) {
    const Shape &operand = instruction.operand(i)->shape();
    bool fits =
        operand.type() == first.type() && operand.rank() == first.rank();
    for (int64_t d = 0; fits && d < first.rank(); ++d)
      fits = d == axis || operand.dim(d) == first.dim(d);
    if (!fits)
      return "operand " + std::to_string(i) + " " + shapeText(operand) +
             " does not concatenate with " + shapeText(first) +
             " along dimension " + std::to_string(axis);
    dims[axis] += operand.dim(axis);
  }
  return expectShape(instruction.shape(), Shape::array(first.type(), dims));
}

ShapeProblem checkPad(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &value = instruction.operand(1)->shape();
  if (value.rank() != 0 || value.type() != operand.type())
    return "padding value " + shapeText(value) + " is not a scalar of " +
           std::string(elementTypeName(operand.type()));
  const std::vector<PadDim> &padding = instruction.padding();
  if (int64_t(padding.size()) != operand.rank())
    return "padding has " + std::to_string(padding.size()) +
           " dimensions for an operand of rank " +
           std::to_string(operand.rank());
  std::vector<int64_t> dims;
  for (size_t i = 0; i < padding.size(); ++i) {
    int64_t size = operand.dim(i);
    int64_t padded = padding[i].low + padding[i].high + size +
                     std::max<int64_t>(size - 1, 0) * padding[i].interior;
    if (padding[i].interior < 0 || padded < 0)
      return "padding of dimension " + std::to_string(i) + " of " +
             shapeText(operand) + " is out of range";
    dims.push_back(padded);
  }
  return expectShape(instruction.shape(), Shape::array(operand.type(), dims));
}

// Start indices: one integer scalar per dimension, or (XLA's older form)
// one vector of them.
ShapeProblem checkStartIndices(const Instruction &instruction, size_t first,
                               int64_t rank) {
  size_t count = instruction.operandCount() - first;
  if (count == 1) {
    const Shape &vector = instruction.operand(first)->shape();
    if (vector.isArray() && vector.rank() == 1 && vector.dim(0) == rank &&
        (isSignedInteger(vector.type()) || isUnsignedInteger(vector.type())))
      return std::nullopt;
  }
  if (int64_t(count) != rank)
    return std::string(opcodeName(instruction.opcode())) + " takes " +
           std::to_string(rank) + " start indices, got " +
           std::to_string(count);
  for (size_t i = first; i < instruction.operandCount(); ++i)
    if (!isIntegerScalar(instruction.operand(i)->shape()))
      return "start index " + std::to_string(i - first) + " is " +
             shapeText(instruction.operand(i)->shape()) +
             ", not an integer scalar";
  return std::nullopt;
}

ShapeProblem checkDynamicSlice(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  if (auto problem = checkStartIndices(instruction, 1, operand.rank()))
    return problem;
  auto sizes = intListOf(instruction, "dynamic_slice_sizes");
  if (!sizes)
    return sizes.error().message;
  if (int64_t(sizes->size()) != operand.rank())
    return "dynamic_slice_sizes has " + std::to_string(sizes->size()) +
           " sizes for an operand of rank " + std::to_string(operand.rank());
  for (size_t i = 0; i < sizes->size(); ++i)
    if ((*sizes)[i] < 0 || (*sizes)[i] > operand.dim(i))
      return "dynamic_slice_sizes " + listText(*sizes) + " do not fit in " +
             shapeText(operand);
  return expectShape(instruction.shape(), Shape::array(operand.type(), *sizes));
}

ShapeProblem checkDynamicUpdateSlice(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &update = instruction.operand(1)->shape();
  if (auto problem = checkStartIndices(instruction, 2, operand.rank()))
    return problem;
  bool fits =
      update.type() == operand.type() && update.rank() == operand.rank();
  for (int64_t d = 0; fits && d < operand.rank(); ++d)
    fits = update.dim(d) <= operand.dim(d);
  if (!fits)
    return "update " + shapeText(update) + " does not fit in " +
           shapeText(operand);
  return expectShape(instruction.shape(), operand);
}

/// XLA's gather shape: the batch dimensions of the start indices (all but
/// index_vector_dim) with the slice's sizes, less its collapsed and batching
/// dimensions, placed at offset_dims.
ShapeProblem checkGather(const Instruction &instruction) {
  const Shape &operand = instruction.operand(0)->shape();
  const Shape &indices = instruction.operand(1)->shape();
  auto offsetDims = intListOf(instruction, "offset_dims");
  auto collapsed = intListOf(instruction, "collapsed_slice_dims");
  auto batching = intListOf(instruction, "operand_batching_dims");
  auto startIndexMap = intListOf(instruction, "start_index_map");
  auto sliceSizes = intListOf(instruction, "slice_sizes");
  for (const auto *list :
       {&offsetDims, &collapsed, &batching, &startIndexMap, &sliceSizes})
    if (!*list)
      return list->error().message;
  auto indexDims = indexDimsOf(instruction, indices);
  if (!indexDims)
    return indexDims.error().message;
  if (int64_t(sliceSizes->size()) != operand.rank())
    return "slice_sizes has " + std::to_string(sliceSizes->size()) +
           " sizes for an operand of rank " + std::to_string(operand.rank());
  for (int64_t d = 0; d < operand.rank(); ++d)
    if ((*sliceSizes)[d] < 0 || (*sliceSizes)[d] > operand.dim(d))
      return "slice_sizes " + listText(*sliceSizes) + " do not fit in " +
             shapeText(operand);
  if (int64_t(startIndexMap->size()) != indexDims->count)
    return "start_index_map has " + std::to_string(startIndexMap->size()) +
           " entries for " + std::to_string(indexDims->count) +
           " start indices";
  if (auto problem = checkDimensionList(*startIndexMap, operand.rank(),
                                        "start_index_map entry"))
    return problem;
  std::vector<int64_t> removed = *collapsed;
  removed.insert(removed.end(), batching->begin(), batching->end());
  if (auto problem = checkDimensionList(removed, operand.rank(),
                                        "collapsed or batching dimension"))
    return problem;
  for (int64_t d : removed)
    if ((*sliceSizes)[d] > 1)
      return "collapsed dimension " + std::to_string(d) + " has slice size " +
             std::to_string((*sliceSizes)[d]);
  std::vector<int64_t> offsetSizes;
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (std::find(removed.begin(), removed.end(), d) == removed.end())
      offsetSizes.push_back((*sliceSizes)[d]);
  const std::vector<int64_t> &batchSizes = indexDims->batch;
  int64_t rank = int64_t(batchSizes.size() + offsetSizes.size());
  if (offsetDims->size() != offsetSizes.size())
    return "offset_dims has " + std::to_string(offsetDims->size()) +
           " entries for " + std::to_string(offsetSizes.size()) +
           " slice dimensions";
  if (auto problem = checkDimensionList(*offsetDims, rank, "offset dimension"))
    return problem;
  if (!std::is_sorted(offsetDims->begin(), offsetDims->end()))
    return "offset_dims " + listText(*offsetDims) + " are not sorted";
  std::vector<int64_t> dims;
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(nextOffset < offsetDims->size() &&
                           (*offsetDims)[nextOffset] == d
                       ? offsetSizes[nextOffset++]
                       : batchSizes[nextBatch++]);
  return expectShape(instruction.shape(), Shape::array(operand.type(), dims));
}

ShapeProblem checkTuple(const Instruction &instruction) {
  std::vector<Shape> elements;
  for (const Instruction *operand : instruction.operands())
    elements.push_back(operand->shape());
  return expectShape(instruction.shape(), Shape::tuple(std::move(elements)));
}

ShapeProblem checkArrayOp(const Instruction &instruction) {
  Opcode opcode = instruction.opcode();
  if (instruction.operandCount() == 1)
    if (auto type =
            unaryResultType(opcode, instruction.operand(0)->shape().type()))
      return expectShape(
          instruction.shape(),
          Shape::array(*type, instruction.operand(0)->shape().dims()));
  if (instruction.operandCount() == 2)
    if (auto type =
            binaryResultType(opcode, instruction.operand(0)->shape().type()))
      return checkBinary(instruction, *type);
  switch (opcode) {
  case Opcode::Clamp:
    return checkClamp(instruction);
  case Opcode::Convert: {
    const Shape &operand = instruction.operand(0)->shape();
    return expectShape(
        instruction.shape(),
        Shape::array(instruction.shape().type(), operand.dims()));
  }
  case Opcode::BitcastConvert:
    return checkBitcastConvert(instruction);
  case Opcode::Broadcast:
    return checkBroadcast(instruction);
  case Opcode::Reshape:
    return checkReshape(instruction);
  case Opcode::Transpose:
    return checkTranspose(instruction);
  case Opcode::Slice:
    return checkSlice(instruction);
  case Opcode::Reverse:
    return checkReverse(instruction);
  case Opcode::Concatenate:
    return checkConcatenate(instruction);
  case Opcode::Pad:
    return checkPad(instruction);
  case Opcode::DynamicSlice:
    return checkDynamicSlice(instruction);
  case Opcode::DynamicUpdateSlice:
    return checkDynamicUpdateSlice(instruction);
  case Opcode::Cholesky:
    return expectShape(instruction.shape(), instruction.operand(0)->shape());
  case Opcode::TriangularSolve:
    return expectShape(instruction.shape(), instruction.operand(1)->shape());
  default:
    return std::nullopt;
  }
}

// Opcodes whose operands and result are all arrays.
bool takesArrays(Opcode opcode) {
  if (unaryResultType(opcode, ElementType::F32) ||
      binaryResultType(opcode, ElementType::F32))
    return opcode != Opcode::Copy; // copy also copies tuples
  switch (opcode) {
  case Opcode::Clamp:
  case Opcode::Convert:
  case Opcode::BitcastConvert:
  case Opcode::Broadcast:
  case Opcode::Reshape:
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::Reverse:
  case Opcode::Concatenate:
  case Opcode::Pad:
  case Opcode::DynamicSlice:
  case Opcode::DynamicUpdateSlice:
  case Opcode::Cholesky:
  case Opcode::TriangularSolve:
  case Opcode::Iota:
  case Opcode::Dot:
    return true;
  default:
    return false;
  }
}

} // namespace

ShapeProblem checkShape(const Instruction &instruction,
                        Signatures &signatures) {
  if (hasUnbounded(instruction.shape()))
    return std::nullopt;
  for (const Instruction *operand : instruction.operands())
    if (hasUnbounded(operand->shape()))
      return std::nullopt;
  Opcode opcode = instruction.opcode();
  if (takesArrays(opcode))
    if (auto problem = needArrays(instruction))
      return problem;
  switch (opcode) {
  case Opcode::Select:
    return checkSelect(instruction);
  case Opcode::Tuple:
    return checkTuple(instruction);
  case Opcode::Copy:
  case Opcode::Domain:
  case Opcode::OptimizationBarrier:
  case Opcode::AddDependency:
    return expectShape(instruction.shape(), instruction.operand(0)->shape());
  case Opcode::GetDimensionSize:
    if (auto problem = checkDimensionList(
            instruction.dimensions(), instruction.operand(0)->shape().rank(),
            "dimension"))
      return problem;
    if (instruction.dimensions().size() != 1)
      return "get-dimension-size needs one dimension";
    return std::nullopt;
  case Opcode::Dot:
    return checkDotShape(instruction);
  case Opcode::Gather:
    if (instruction.operandCount() != 2)
      return std::nullopt; // the operand count is checked before
    if (auto problem = needArrays(instruction))
      return problem;
    return checkGather(instruction);
  default:
    break;
  }
  if (takesArrays(opcode))
    return checkArrayOp(instruction);
  return checkCallShape(instruction, signatures);
}

} // namespace rlopt::graph::detail
