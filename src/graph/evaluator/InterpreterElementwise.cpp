// Elementwise opcodes on arrays: unary and binary arithmetic, compare,
// select, clamp, convert, bitcast-convert, reduce-precision and map.
#include "InterpreterElements.h"
#include "InterpreterInternal.h"

namespace rlopt::graph::interp {

namespace {

bool isFloatNarrowerThanDouble(ElementType type) {
  return domainOf(type) == Domain::Float && type != ElementType::F64;
}

/// Checks that every operand is a real array of `count` elements, or a
/// scalar, which XLA broadcasts for select and clamp; scalars are expanded.
Status prepareOperands(const Instruction &instruction, Operands &operands,
                       int64_t count) {
  for (size_t i = 0; i < operands.size(); ++i) {
    RuntimeValue &operand = operands[i];
    if (!operand.shape.isArray())
      return failAt(instruction, "operand " + std::to_string(i) +
                                     " must be an array, got " +
                                     operand.shape.toString(false));
    Domain domain = domainOf(operand.shape.type());
    if (domain == Domain::Complex)
      return failAt(instruction, "complex elements are not supported");
    if (operand.size() == count)
      continue;
    if (operand.size() != 1)
      return failAt(instruction, "operand " + std::to_string(i) + " has " +
                                     std::to_string(operand.size()) +
                                     " elements, the result " +
                                     std::to_string(count));
    operand = makeArray(operand.shape, newBuffer(count, operand.data()[0]));
  }
  return Status::success();
}

/// A buffer for `count` results: an operand's, when this op holds its only
/// reference (its last use), so chains of elementwise ops allocate once.
/// Take operand data pointers before calling: they stay valid and may
/// alias the result, which elementwise loops allow.
std::vector<double> resultBuffer(Operands &operands, int64_t count) {
  for (RuntimeValue &operand : operands)
    if (operand.buffer && operand.buffer.use_count() == 1 &&
        operand.size() == count)
      return std::move(*operand.buffer);
  return newScratchBuffer(count);
}

template <typename Function>
void mapBinary(const double *a, const double *b, double *out, int64_t count,
               Function function) {
  for (int64_t i = 0; i < count; ++i)
    out[i] = function(a[i], b[i]);
}

void binaryFloat(Opcode opcode, ElementType type, const double *a,
                 const double *b, double *out, int64_t count) {
  switch (opcode) {
  case Opcode::Add:
    return mapBinary(a, b, out, count,
                     [](double x, double y) { return x + y; });
  case Opcode::Subtract:
    return mapBinary(a, b, out, count,
                     [](double x, double y) { return x - y; });
  case Opcode::Multiply:
    return mapBinary(a, b, out, count,
                     [](double x, double y) { return x * y; });
  case Opcode::Divide:
    return mapBinary(a, b, out, count,
                     [](double x, double y) { return x / y; });
  default:
    return mapBinary(a, b, out, count, [&](double x, double y) {
      return applyBinary(opcode, type, x, y);
    });
  }
}

Result<RuntimeValue> evaluateArithmetic(const Interpreter &interpreter,
                                        const Instruction &instruction,
                                        Operands &operands, int64_t count) {
  Opcode opcode = instruction.opcode();
  ElementType type = operands[0].shape.type();
  if (auto problem = elementwiseProblem(opcode, type))
    return failAt(instruction, *problem);
  const double *a = operands[0].data();
  const double *b = operands.size() > 1 ? operands[1].data() : nullptr;
  std::vector<double> out = resultBuffer(operands, count);
  if (!b && domainOf(type) == Domain::Float) {
    UnaryFloatFunction function = unaryFloatFunction(opcode);
    if (!function)
      return failAt(instruction, "is not a floating-point op");
    for (int64_t i = 0; i < count; ++i)
      out[i] = function(a[i]);
  } else if (!b) {
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyUnary(opcode, type, a[i]);
  } else if (domainOf(type) == Domain::Float) {
    binaryFloat(opcode, type, a, b, out.data(), count);
  } else {
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyBinary(opcode, type, a[i], b[i]);
  }
  ElementType resultType = instruction.shape().type();
  if (interpreter.options().roundToElementType &&
      isFloatNarrowerThanDouble(resultType))
    roundFloats(resultType, out.data(), count);
  return makeArray(instruction.shape(), std::move(out));
}

} // namespace

Result<RuntimeValue> evaluateElementwise(Interpreter &interpreter,
                                         const Instruction &instruction,
                                         Operands &operands) {
  const Shape &shape = instruction.shape();
  if (!shape.isArray())
    return failAt(instruction,
                  "result must be an array, got " + shape.toString(false));
  if (domainOf(shape.type()) == Domain::Complex)
    return failAt(instruction, "complex elements are not supported");
  int64_t count = shape.elementCount();
  if (Status status = prepareOperands(instruction, operands, count); !status)
    return status.error();

  Opcode opcode = instruction.opcode();
  if (isUnaryElementwise(opcode) || isBinaryElementwise(opcode))
    return evaluateArithmetic(interpreter, instruction, operands, count);

  ElementType operandType = operands[0].shape.type();
  std::vector<const double *> in;
  for (const RuntimeValue &operand : operands)
    in.push_back(operand.data());
  std::vector<double> out = resultBuffer(operands, count);
  switch (opcode) {
  case Opcode::Compare: {
    auto direction = instruction.comparisonDirection();
    if (!direction)
      return failAt(instruction, "has no comparison direction");
    bool totalOrder = attributeText(instruction, "type") == "TOTALORDER";
    const double *a = in[0], *b = in[1];
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyCompare(*direction, totalOrder, operandType, a[i], b[i]);
    break;
  }
  case Opcode::Select: {
    const double *p = in[0], *a = in[1], *b = in[2];
    for (int64_t i = 0; i < count; ++i)
      out[i] = p[i] != 0 ? a[i] : b[i];
    break;
  }
  case Opcode::Clamp: {
    const double *lo = in[0], *x = in[1], *hi = in[2];
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyClamp(shape.type(), lo[i], x[i], hi[i]);
    break;
  }
  case Opcode::Convert: {
    if (domainOf(operandType) == Domain::Other ||
        domainOf(shape.type()) == Domain::Other)
      return failAt(instruction, "cannot convert " +
                                     operands[0].shape.toString(false) +
                                     " to " + shape.toString(false));
    const double *x = in[0];
    if (domainOf(operandType) == Domain::Float &&
        domainOf(shape.type()) == Domain::Float) {
      // Between float types a convert is a rounding to the target. To its
      // own type it is XLA's no-op, so without storage rounding it must
      // not round either: removing it would otherwise change the result.
      if (out.data() != x)
        std::copy(x, x + count, out.begin());
      if (interpreter.options().roundToElementType ||
          operandType != shape.type())
        roundFloats(shape.type(), out.data(), count);
      break;
    }
    for (int64_t i = 0; i < count; ++i)
      out[i] = convertElement(operandType, shape.type(), x[i]);
    break;
  }
  case Opcode::BitcastConvert: {
    if (auto problem = bitcastProblem(operandType, shape.type()))
      return failAt(instruction, *problem);
    const double *x = in[0];
    for (int64_t i = 0; i < count; ++i)
      out[i] = bitcastElement(operandType, shape.type(), x[i]);
    break;
  }
  case Opcode::ReducePrecision: {
    auto exponentBits = intAttribute(instruction, "exponent_bits", -1);
    auto mantissaBits = intAttribute(instruction, "mantissa_bits", -1);
    if (!exponentBits)
      return exponentBits.error();
    if (!mantissaBits)
      return mantissaBits.error();
    if (*exponentBits < 1 || *exponentBits > 11 || *mantissaBits < 0)
      return failAt(instruction, "needs exponent_bits in [1, 11] and "
                                 "mantissa_bits >= 0");
    const double *x = in[0];
    for (int64_t i = 0; i < count; ++i)
      out[i] = reducePrecision(x[i], static_cast<int>(*exponentBits),
                               static_cast<int>(*mantissaBits));
    break;
  }
  default:
    return failAt(instruction, "is not an elementwise opcode");
  }
  return makeArray(shape, std::move(out));
}

Result<RuntimeValue> evaluateMap(Interpreter &interpreter,
                                 const Instruction &instruction,
                                 Operands &operands) {
  const Computation *mapper = instruction.calledComputation("to_apply");
  if (!mapper)
    return failAt(instruction, "has no to_apply computation");
  auto function = ScalarFunction::make(interpreter, *mapper, instruction);
  if (!function)
    return function.error();
  if (function->parameterCount() != operands.size() ||
      function->resultCount() != 1)
    return failAt(instruction, "to_apply must take one scalar per operand "
                               "and return one scalar");
  int64_t count = instruction.shape().elementCount();
  if (Status status = prepareOperands(instruction, operands, count); !status)
    return status.error();
  std::vector<double> out = newBuffer(count), arguments(operands.size());
  for (int64_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < operands.size(); ++k)
      arguments[k] = operands[k].data()[i];
    if (Status status = function->apply(arguments.data(), &out[i]); !status)
      return status.error();
  }
  return makeArray(instruction.shape(), std::move(out));
}

} // namespace rlopt::graph::interp
