#include "PassSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace rlopt::graph {

bool isStaticArray(const Shape &shape) {
  if (!shape.isArray())
    return false;
  for (int64_t i = 0; i < shape.rank(); ++i)
    if (shape.isDynamicDim(i) || shape.dim(i) < 0)
      return false;
  return true;
}

bool isKnownConstant(const Instruction *instruction) {
  return instruction->opcode() == Opcode::Constant &&
         instruction->literal().hasValues && !instruction->literal().elided &&
         isStaticArray(instruction->shape());
}

std::optional<std::vector<int64_t>>
knownIntegerValues(const Instruction *instruction) {
  const Shape &shape = instruction->shape();
  ElementType type = shape.type();
  if (!isStaticArray(shape) ||
      !(isSignedInteger(type) || isUnsignedInteger(type)))
    return std::nullopt;
  const Instruction *source = instruction;
  if (source->opcode() == Opcode::Broadcast &&
      source->operand(0)->shape().elementCount() == 1)
    source = source->operand(0);
  if (!isKnownConstant(source) || source->shape().type() != type)
    return std::nullopt;
  const std::vector<int64_t> &values = source->literal().integers;
  // u64 keeps its bit pattern: a negative entry is beyond int64_t.
  if (type == ElementType::U64 &&
      std::any_of(values.begin(), values.end(),
                  [](int64_t value) { return value < 0; }))
    return std::nullopt;
  if (source == instruction)
    return values;
  if (values.size() != 1)
    return std::nullopt;
  return std::vector<int64_t>(shape.elementCount(), values.front());
}

std::vector<double> literalValues(const Literal &literal) {
  if (!literal.floats.empty())
    return literal.floats;
  std::vector<double> values;
  values.reserve(literal.integers.size());
  for (int64_t value : literal.integers)
    values.push_back(static_cast<double>(value));
  return values;
}

std::optional<double> uniformConstantValue(const Instruction *instruction) {
  if (instruction->opcode() == Opcode::Broadcast &&
      instruction->operand(0)->shape().elementCount() == 1)
    instruction = instruction->operand(0);
  if (!isKnownConstant(instruction) || isComplex(instruction->shape().type()))
    return std::nullopt;
  const Literal &literal = instruction->literal();
  // Integers beyond 2^53 would not compare exactly as doubles.
  for (int64_t value : literal.integers)
    if (value > (int64_t(1) << 53) || value < -(int64_t(1) << 53))
      return std::nullopt;
  std::vector<double> values = literalValues(literal);
  if (values.empty())
    return std::nullopt;
  for (double value : values)
    if (!(value == values.front()) &&
        !(std::isnan(value) && std::isnan(values.front())))
      return std::nullopt;
  if (values.front() == 0 && std::signbit(values.front()))
    return std::nullopt; // -0 is not the additive identity's twin
  return values.front();
}

bool isUniformConstant(const Instruction *instruction, double value) {
  auto uniform = uniformConstantValue(instruction);
  return uniform && *uniform == value;
}

namespace {

// Shortest decimal text that reads back as `value` in `type`.
std::string shortestFloat(double value, ElementType type) {
  char buffer[64];
  bool narrow = type != ElementType::F64;
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    double back = std::strtod(buffer, nullptr);
    bool same = narrow ? static_cast<float>(back) == static_cast<float>(value)
                       : back == value;
    if (same)
      return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

void formatLevel(std::string &out, const Shape &shape, int64_t level,
                 const std::vector<double> &values, size_t &next) {
  if (level == shape.rank()) {
    out += formatScalar(shape.type(), values[next++]);
    return;
  }
  out += '{';
  for (int64_t i = 0; i < shape.dim(level); ++i) {
    if (i > 0)
      out += ", ";
    formatLevel(out, shape, level + 1, values, next);
  }
  out += '}';
}

} // namespace

std::string formatScalar(ElementType type, double value) {
  if (type == ElementType::Pred)
    return value != 0 ? "true" : "false";
  if (!isFloating(type)) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
    return buffer;
  }
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return shortestFloat(value, type);
}

std::string formatLiteral(const Shape &shape,
                          const std::vector<double> &values) {
  std::string out;
  size_t next = 0;
  formatLevel(out, shape, 0, values, next);
  return out;
}

std::string formatIntList(const std::vector<int64_t> &values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0)
      out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

std::optional<std::vector<int64_t>> intListAttribute(const Instruction &op,
                                                     const char *key) {
  const Attribute *attribute = op.findAttribute(key);
  if (!attribute)
    return std::vector<int64_t>{};
  auto values = parseIntList(attribute->value);
  if (!values)
    return std::nullopt;
  return values.takeValue();
}

std::optional<int64_t> intAttribute(const Instruction &op, const char *key,
                                    int64_t fallback) {
  const Attribute *attribute = op.findAttribute(key);
  if (!attribute)
    return fallback;
  const char *text = attribute->value.c_str();
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0')
    return std::nullopt;
  return value;
}

std::string formatSlice(const std::vector<SliceDim> &slice) {
  std::string out = "{";
  for (size_t i = 0; i < slice.size(); ++i) {
    if (i > 0)
      out += ", ";
    out += '[' + std::to_string(slice[i].start) + ':' +
           std::to_string(slice[i].limit);
    if (slice[i].stride != 1)
      out += ':' + std::to_string(slice[i].stride);
    out += ']';
  }
  return out + "}";
}

std::string formatPadding(const std::vector<PadDim> &padding) {
  std::string out;
  for (size_t i = 0; i < padding.size(); ++i) {
    if (i > 0)
      out += 'x';
    out +=
        std::to_string(padding[i].low) + '_' + std::to_string(padding[i].high);
    if (padding[i].interior != 0)
      out += '_' + std::to_string(padding[i].interior);
  }
  return out;
}

namespace {

// One operand's labels: `batch`/`feature` letters at their dimensions and
// spatial dimension numbers elsewhere.
std::string labels(size_t rank, int64_t first, char firstLabel, int64_t second,
                   char secondLabel, const std::vector<int64_t> &spatial) {
  std::string out(rank, '?');
  out[first] = firstLabel;
  out[second] = secondLabel;
  for (size_t i = 0; i < spatial.size(); ++i)
    out[spatial[i]] = static_cast<char>('0' + i);
  return out;
}

} // namespace

std::string formatConvDims(const ConvDims &dims) {
  size_t rank = dims.inputSpatial.size() + 2;
  return labels(rank, dims.inputBatch, 'b', dims.inputFeature, 'f',
                dims.inputSpatial) +
         '_' +
         labels(rank, dims.kernelInputFeature, 'i', dims.kernelOutputFeature,
                'o', dims.kernelSpatial) +
         "->" +
         labels(rank, dims.outputBatch, 'b', dims.outputFeature, 'f',
                dims.outputSpatial);
}

Instruction *addScalar(ModuleEditor &editor, Computation &computation,
                       ElementType type, double value) {
  return editor.addConstant(computation, Shape::scalar(type),
                            formatScalar(type, value));
}

Instruction *addFilled(ModuleEditor &editor, Computation &computation,
                       const Shape &shape, double value) {
  Instruction *scalar = addScalar(editor, computation, shape.type(), value);
  if (shape.rank() == 0)
    return scalar;
  return addBroadcast(editor, computation, scalar, shape, {});
}

Instruction *addBroadcast(ModuleEditor &editor, Computation &computation,
                          Instruction *operand, const Shape &shape,
                          const std::vector<int64_t> &dims) {
  return editor.add(computation, Opcode::Broadcast,
                    arrayShape(shape.type(), shape.dims()), {operand},
                    {{"dimensions", formatIntList(dims)}});
}

Instruction *addReshape(ModuleEditor &editor, Computation &computation,
                        Instruction *operand, std::vector<int64_t> dims) {
  return editor.add(computation, Opcode::Reshape,
                    arrayShape(operand->shape().type(), std::move(dims)),
                    {operand});
}

Instruction *addTranspose(ModuleEditor &editor, Computation &computation,
                          Instruction *operand,
                          const std::vector<int64_t> &permutation) {
  std::vector<int64_t> dims;
  for (int64_t p : permutation)
    dims.push_back(operand->shape().dim(p));
  return editor.add(computation, Opcode::Transpose,
                    arrayShape(operand->shape().type(), dims), {operand},
                    {{"dimensions", formatIntList(permutation)}});
}

Instruction *addConvert(ModuleEditor &editor, Computation &computation,
                        Instruction *operand, ElementType type) {
  return editor.add(computation, Opcode::Convert,
                    arrayShape(type, operand->shape().dims()), {operand});
}

Instruction *addBinary(ModuleEditor &editor, Computation &computation,
                       Opcode opcode, Instruction *lhs, Instruction *rhs) {
  return editor.add(computation, opcode,
                    arrayShape(lhs->shape().type(), lhs->shape().dims()),
                    {lhs, rhs});
}

Instruction *addUnary(ModuleEditor &editor, Computation &computation,
                      Opcode opcode, Instruction *operand) {
  return editor.add(
      computation, opcode,
      arrayShape(operand->shape().type(), operand->shape().dims()), {operand});
}

Instruction *addCompare(ModuleEditor &editor, Computation &computation,
                        Instruction *lhs, Instruction *rhs,
                        ComparisonDirection direction) {
  return editor.add(
      computation, Opcode::Compare,
      arrayShape(ElementType::Pred, lhs->shape().dims()), {lhs, rhs},
      {{"direction", std::string(comparisonDirectionName(direction))}});
}

Instruction *addSlice(ModuleEditor &editor, Computation &computation,
                      Instruction *operand,
                      const std::vector<SliceDim> &slice) {
  std::vector<int64_t> dims;
  for (const SliceDim &dim : slice)
    dims.push_back((dim.limit - dim.start + dim.stride - 1) / dim.stride);
  return editor.add(computation, Opcode::Slice,
                    arrayShape(operand->shape().type(), dims), {operand},
                    {{"slice", formatSlice(slice)}});
}

bool isSingleWindow(const Shape &indices, int64_t vectorDim,
                    const std::vector<int64_t> &toOperandDims,
                    int64_t operandRank) {
  if (!isStaticArray(indices) ||
      !(isSignedInteger(indices.type()) || isUnsignedInteger(indices.type())) ||
      vectorDim < 0 || vectorDim > indices.rank())
    return false;
  for (int64_t d = 0; d < indices.rank(); ++d)
    if (d != vectorDim && indices.dim(d) != 1)
      return false;
  int64_t length = vectorDim < indices.rank() ? indices.dim(vectorDim) : 1;
  if (length != static_cast<int64_t>(toOperandDims.size()))
    return false;
  std::vector<bool> named(operandRank, false);
  for (int64_t d : toOperandDims) {
    if (d < 0 || d >= operandRank || named[d])
      return false;
    named[d] = true;
  }
  return true;
}

std::vector<Instruction *>
addWindowStarts(ModuleEditor &editor, Computation &computation,
                Instruction *indices, int64_t vectorDim,
                const std::vector<int64_t> &toOperandDims,
                int64_t operandRank) {
  const Shape &shape = indices->shape();
  ElementType type = shape.type();
  // Known starts become constants, as long as doubles hold them exactly.
  auto known = knownIntegerValues(indices);
  constexpr int64_t kExact = int64_t(1) << 53;
  if (known && std::any_of(known->begin(), known->end(), [&](int64_t value) {
        return value > kExact || value < -kExact;
      }))
    known.reset();
  std::vector<Instruction *> starts(operandRank, nullptr);
  for (size_t k = 0; k < toOperandDims.size(); ++k) {
    Instruction *start = nullptr;
    if (known) {
      start = addScalar(editor, computation, type,
                        static_cast<double>((*known)[k]));
    } else {
      start = indices;
      if (shape.elementCount() != 1) {
        std::vector<SliceDim> slice;
        int64_t at = static_cast<int64_t>(k);
        for (int64_t d = 0; d < shape.rank(); ++d)
          slice.push_back(d == vectorDim ? SliceDim{at, at + 1, 1}
                                         : SliceDim{0, shape.dim(d), 1});
        start = addSlice(editor, computation, indices, slice);
      }
      if (start->shape().rank() != 0)
        start = addReshape(editor, computation, start, {});
    }
    starts[toOperandDims[k]] = start;
  }
  for (Instruction *&start : starts)
    if (!start)
      start = addScalar(editor, computation, type, 0);
  return starts;
}

std::optional<Opcode> binaryReducerOpcode(const Computation *computation) {
  if (!computation || computation->instructionCount() != 3)
    return std::nullopt;
  const Instruction *root = computation->root();
  std::vector<Instruction *> params = computation->parameters();
  if (params.size() != 2 || !isBinaryElementwise(root->opcode()) ||
      root->shape().rank() != 0)
    return std::nullopt;
  bool straight =
      root->operand(0) == params[0] && root->operand(1) == params[1];
  bool swapped = root->operand(0) == params[1] && root->operand(1) == params[0];
  if (straight || (swapped && isCommutative(root->opcode())))
    return root->opcode();
  return std::nullopt;
}

Computation *scalarReducer(ModuleEditor &editor, Opcode opcode,
                           ElementType type) {
  for (const auto &computation : editor.module().computations()) {
    auto op = binaryReducerOpcode(computation.get());
    if (op && *op == opcode && computation->root()->shape().type() == type &&
        computation->parameters()[0]->shape().type() == type &&
        computation->parameters()[1]->shape().type() == type)
      return computation.get();
  }
  std::string base = std::string(opcodeName(opcode)) + "_" +
                     std::string(elementTypeName(type));
  auto computation =
      std::make_unique<Computation>(editor.names().freshComputation(base));
  Shape scalar = Shape::scalar(type);
  auto lhs = std::make_unique<Instruction>(editor.names().fresh("lhs"),
                                           Opcode::Parameter, scalar);
  lhs->setParameterNumber(0);
  auto rhs = std::make_unique<Instruction>(editor.names().fresh("rhs"),
                                           Opcode::Parameter, scalar);
  rhs->setParameterNumber(1);
  Instruction *a = computation->addInstruction(std::move(lhs));
  Instruction *b = computation->addInstruction(std::move(rhs));
  auto op = std::make_unique<Instruction>(
      editor.names().fresh(opcodeName(opcode)), opcode, scalar);
  op->setOperands({a, b});
  computation->setRoot(computation->addInstruction(std::move(op)));
  return editor.addComputation(std::move(computation));
}

std::vector<int64_t> dimsWithout(const std::vector<int64_t> &dims,
                                 const std::vector<int64_t> &removed) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < dims.size(); ++i)
    if (std::find(removed.begin(), removed.end(), static_cast<int64_t>(i)) ==
        removed.end())
      out.push_back(dims[i]);
  return out;
}

int64_t product(const std::vector<int64_t> &dims) {
  int64_t result = 1;
  for (int64_t dim : dims)
    result *= dim;
  return result;
}

bool isIdentityPermutation(const std::vector<int64_t> &permutation) {
  for (size_t i = 0; i < permutation.size(); ++i)
    if (permutation[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

namespace {

int integerBits(ElementType type) {
  switch (type) {
  case ElementType::S8:
  case ElementType::U8:
    return 8;
  case ElementType::S16:
  case ElementType::U16:
    return 16;
  case ElementType::S32:
  case ElementType::U32:
    return 32;
  case ElementType::S64:
  case ElementType::U64:
    return 64;
  default:
    return 0;
  }
}

// Significand bits, the implicit one included.
int significandBits(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return 8;
  case ElementType::F16:
    return 11;
  case ElementType::F32:
    return 24;
  case ElementType::F64:
    return 53;
  default:
    return 0;
  }
}

int floatRank(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 2;
  case ElementType::F64:
    return 3;
  default:
    return 0;
  }
}

} // namespace

bool holdsEveryValue(ElementType from, ElementType to) {
  if (from == to)
    return true;
  if (from == ElementType::Pred)
    return integerBits(to) > 0 || significandBits(to) > 0;
  int fromBits = integerBits(from);
  if (fromBits > 0) {
    bool fromSigned = isSignedInteger(from);
    // Magnitude bits the value needs.
    int magnitude = fromSigned ? fromBits - 1 : fromBits;
    if (int toBits = integerBits(to)) {
      if (fromSigned && !isSignedInteger(to))
        return false;
      int toMagnitude = isSignedInteger(to) ? toBits - 1 : toBits;
      return toMagnitude >= magnitude;
    }
    return significandBits(to) >= magnitude;
  }
  if (from == ElementType::BF16 || from == ElementType::F16)
    return floatRank(to) > 0;
  if (from == ElementType::F32)
    return to == ElementType::F64;
  return false;
}

} // namespace rlopt::graph
