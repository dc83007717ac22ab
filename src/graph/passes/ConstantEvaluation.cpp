#include "ConstantEvaluation.h"

#include "../evaluator/DataMovement.h"
#include "../evaluator/InterpreterElements.h"
#include "PassSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace rlopt::graph {

namespace {

using Array = ConstantArray;

/// Two's complement wrap-around to the type's width (u64 keeps its bits).
int64_t wrap(ElementType type, uint64_t bits) {
  return type == ElementType::Pred ? bits != 0
                                   : interp::integerValue(type, bits);
}

bool isUnsigned(ElementType type) { return isUnsignedInteger(type); }

// Integer value of an element as a long double-free pair: fits in int64
// unless it is a u64 at or above 2^63.
bool integerInRange(ElementType from, int64_t value, ElementType to) {
  bool huge = from == ElementType::U64 && value < 0;
  if (to == ElementType::Pred)
    return true;
  if (to == ElementType::U64)
    return huge || value >= 0;
  if (huge)
    return false;
  int bits = elementBitWidth(to);
  if (isUnsigned(to))
    return value >= 0 && (bits == 64 || value < (int64_t(1) << bits));
  int64_t limit = int64_t(1) << (bits - 1);
  return value >= -limit && value < limit;
}

double integerAsDouble(ElementType type, int64_t value) {
  if (type == ElementType::U64)
    return static_cast<double>(static_cast<uint64_t>(value));
  return static_cast<double>(value);
}

Array like(ElementType type, std::vector<int64_t> dims) {
  Array out;
  out.type = type;
  out.dims = std::move(dims);
  return out;
}

// Copies element `from` of `source` to the end of `into`.
void pushElement(Array &into, const Array &source, int64_t from) {
  if (source.floating())
    into.floats.push_back(source.floats[from]);
  else
    into.integers.push_back(source.integers[from]);
}

/// Floating-point ops compute as the interpreter does (exact in double,
/// rounded by the caller); is-finite and the complex parts fold elsewhere.
std::optional<double> floatUnary(Opcode opcode, double x) {
  if (opcode == Opcode::IsFinite || opcode == Opcode::Real ||
      opcode == Opcode::Imag)
    return std::nullopt;
  interp::UnaryFloatFunction function = interp::unaryFloatFunction(opcode);
  if (!function)
    return std::nullopt;
  return function(x);
}

std::optional<double> floatBinary(Opcode opcode, ElementType type, double a,
                                  double b) {
  // Of two equal operands the first, as XLA's CPU emitter selects: the
  // interpreter returns the second, which differs for max(-0, +0).
  if (opcode == Opcode::Maximum || opcode == Opcode::Minimum) {
    if (std::isnan(a) || std::isnan(b))
      return NAN;
    return opcode == Opcode::Maximum ? std::max(a, b) : std::min(a, b);
  }
  if (!isBinaryElementwise(opcode) || interp::elementwiseProblem(opcode, type))
    return std::nullopt;
  return interp::applyBinary(opcode, type, a, b);
}

/// A pred result of the interpreter's element functions (NaN: not a pred
/// op).
std::optional<int64_t> predicate(double value) {
  if (std::isnan(value))
    return std::nullopt;
  return value != 0;
}

/// Integer ops compute as the interpreter does, exactly in 64 bits.
std::optional<int64_t> integerUnary(Opcode opcode, ElementType type,
                                    int64_t x) {
  if (type == ElementType::Pred)
    return predicate(interp::applyUnary(opcode, type, x));
  auto bits = interp::integerUnaryBits(opcode, type, x);
  if (!bits)
    return std::nullopt;
  return wrap(type, *bits);
}

/// Whether folding may compute `a op b`: XLA defines integer division by
/// zero, MIN / -1, shifts by the width or more and negative powers, but
/// a program that reaches them may mean something else, so they stay.
bool integerFoldable(Opcode opcode, ElementType type, int64_t a, int64_t b) {
  int width = elementBitWidth(type);
  int64_t minSigned = width >= 64 ? std::numeric_limits<int64_t>::min()
                                  : -(int64_t(1) << (width - 1));
  switch (opcode) {
  case Opcode::Divide:
  case Opcode::Remainder:
    return b != 0 && (isUnsigned(type) || b != -1 || a != minSigned);
  case Opcode::ShiftLeft:
  case Opcode::ShiftRightLogical:
  case Opcode::ShiftRightArithmetic:
    return static_cast<uint64_t>(b) < static_cast<uint64_t>(width);
  case Opcode::Power:
    return isUnsigned(type) || b >= 0;
  default:
    return true;
  }
}

std::optional<int64_t> integerBinary(Opcode opcode, ElementType type, int64_t a,
                                     int64_t b) {
  if (type == ElementType::Pred)
    return predicate(interp::applyBinary(opcode, type, a, b));
  if (!integerFoldable(opcode, type, a, b))
    return std::nullopt;
  auto bits = interp::integerBinaryBits(opcode, type, a, b);
  if (!bits)
    return std::nullopt;
  return wrap(type, *bits);
}

bool compareHolds(ComparisonDirection direction, int order) {
  switch (direction) {
  case ComparisonDirection::Eq:
    return order == 0;
  case ComparisonDirection::Ne:
    return order != 0;
  case ComparisonDirection::Ge:
    return order >= 0;
  case ComparisonDirection::Gt:
    return order > 0;
  case ComparisonDirection::Le:
    return order <= 0;
  case ComparisonDirection::Lt:
    return order < 0;
  }
  return false;
}

std::optional<Array> elementwise(const Instruction &instruction,
                                 const std::vector<const Array *> &operands) {
  const Shape &shape = instruction.shape();
  ElementType type = shape.type();
  Opcode opcode = instruction.opcode();
  Array out = like(type, shape.dims());
  int64_t count = shape.elementCount();
  for (const Array *operand : operands)
    if (operand->size() != count && operand->size() != 1)
      return std::nullopt;
  auto at = [&](const Array *operand, int64_t i) {
    return operand->size() == 1 ? 0 : i;
  };

  if (opcode == Opcode::Convert) {
    const Array &x = *operands[0];
    for (int64_t i = 0; i < count; ++i) {
      if (x.floating()) {
        double value = x.floats[i];
        if (isFloating(type)) {
          out.floats.push_back(interp::roundFloat(type, value));
          continue;
        }
        if (std::isnan(value))
          return std::nullopt;
        if (type == ElementType::Pred) {
          out.integers.push_back(value != 0);
          continue;
        }
        double truncated = std::trunc(value);
        if (truncated < -9.2e18 || truncated > 9.2e18 ||
            !integerInRange(ElementType::S64, static_cast<int64_t>(truncated),
                            type))
          return std::nullopt;
        out.integers.push_back(static_cast<int64_t>(truncated));
        continue;
      }
      int64_t value = x.integers[i];
      if (isFloating(type)) {
        out.floats.push_back(
            interp::roundFloat(type, integerAsDouble(x.type, value)));
        continue;
      }
      if (type == ElementType::Pred) {
        out.integers.push_back(value != 0);
        continue;
      }
      if (!integerInRange(x.type, value, type))
        return std::nullopt;
      out.integers.push_back(value);
    }
    return out;
  }

  if (opcode == Opcode::Compare) {
    auto direction = instruction.comparisonDirection();
    const Attribute *compareType = instruction.findAttribute("type");
    if (!direction || (compareType && compareType->value == "TOTALORDER"))
      return std::nullopt;
    const Array &a = *operands[0], &b = *operands[1];
    for (int64_t i = 0; i < count; ++i) {
      bool holds;
      if (a.floating()) {
        double x = a.floats[at(&a, i)], y = b.floats[at(&b, i)];
        if (std::isnan(x) || std::isnan(y))
          holds = *direction == ComparisonDirection::Ne;
        else
          holds = compareHolds(*direction, (x > y) - (x < y));
      } else if (isUnsigned(a.type)) {
        uint64_t x = a.integers[at(&a, i)], y = b.integers[at(&b, i)];
        holds = compareHolds(*direction, (x > y) - (x < y));
      } else {
        int64_t x = a.integers[at(&a, i)], y = b.integers[at(&b, i)];
        holds = compareHolds(*direction, (x > y) - (x < y));
      }
      out.integers.push_back(holds);
    }
    return out;
  }

  if (opcode == Opcode::Select) {
    const Array &p = *operands[0], &a = *operands[1], &b = *operands[2];
    for (int64_t i = 0; i < count; ++i) {
      const Array &chosen = p.integers[at(&p, i)] ? a : b;
      pushElement(out, chosen, at(&chosen, i));
    }
    return out;
  }

  if (opcode == Opcode::Clamp) {
    const Array &low = *operands[0], &x = *operands[1], &high = *operands[2];
    for (int64_t i = 0; i < count; ++i) {
      if (x.floating()) {
        double l = low.floats[at(&low, i)], v = x.floats[at(&x, i)],
               h = high.floats[at(&high, i)];
        if (std::isnan(l) || std::isnan(v) || std::isnan(h))
          return std::nullopt;
        out.floats.push_back(std::min(std::max(v, l), h));
      } else {
        auto maxed = integerBinary(Opcode::Maximum, type, x.integers[at(&x, i)],
                                   low.integers[at(&low, i)]);
        auto clamped = integerBinary(Opcode::Minimum, type, *maxed,
                                     high.integers[at(&high, i)]);
        out.integers.push_back(*clamped);
      }
    }
    return out;
  }

  if (opcode == Opcode::IsFinite) {
    for (int64_t i = 0; i < count; ++i)
      out.integers.push_back(std::isfinite(operands[0]->floats[i]));
    return out;
  }

  if (operands.size() == 1) {
    const Array &x = *operands[0];
    for (int64_t i = 0; i < count; ++i) {
      if (x.floating()) {
        auto value = floatUnary(opcode, x.floats[i]);
        if (!value)
          return std::nullopt;
        out.floats.push_back(interp::roundFloat(type, *value));
      } else {
        auto value = integerUnary(opcode, type, x.integers[i]);
        if (!value)
          return std::nullopt;
        out.integers.push_back(*value);
      }
    }
    return out;
  }

  if (operands.size() == 2) {
    const Array &a = *operands[0], &b = *operands[1];
    for (int64_t i = 0; i < count; ++i) {
      if (a.floating()) {
        auto value = floatBinary(opcode, a.type, a.floats[at(&a, i)],
                                 b.floats[at(&b, i)]);
        if (!value)
          return std::nullopt;
        out.floats.push_back(interp::roundFloat(type, *value));
      } else {
        auto value = integerBinary(opcode, type, a.integers[at(&a, i)],
                                   b.integers[at(&b, i)]);
        if (!value)
          return std::nullopt;
        out.integers.push_back(*value);
      }
    }
    return out;
  }
  return std::nullopt;
}

/// Transpose, slice, reverse, pad and concatenate, planned as the
/// interpreter plans them and applied to exact elements.
std::optional<Array> movement(const Instruction &instruction,
                              const std::vector<const Array *> &operands) {
  std::vector<std::vector<int64_t>> dims;
  for (const Array *operand : operands)
    dims.push_back(operand->dims);
  auto plan = interp::planMovement(instruction, dims);
  if (!plan)
    return std::nullopt;
  Array out = like(instruction.shape().type(), instruction.shape().dims());
  std::vector<const double *> floats;
  std::vector<const int64_t *> integers;
  for (const Array *operand : operands) {
    if (operand->floating() != out.floating())
      return std::nullopt;
    floats.push_back(operand->floats.data());
    integers.push_back(operand->integers.data());
  }
  if (out.floating()) {
    out.floats.resize(out.size());
    interp::applyMovement(*plan, floats, out.floats);
  } else {
    out.integers.resize(out.size());
    interp::applyMovement(*plan, integers, out.integers);
  }
  return out;
}

std::optional<Array> reduce(const Instruction &instruction, const Array &x,
                            const Array &init) {
  // Only reducers whose result does not depend on the reduction order.
  auto op = binaryReducerOpcode(instruction.calledComputation("to_apply"));
  if (!op || !isCommutative(*op))
    return std::nullopt;
  const std::vector<int64_t> &reduced = instruction.dimensions();
  Array out = like(instruction.shape().type(), instruction.shape().dims());
  // The output stride of each input dimension; 0 for reduced ones.
  std::vector<int64_t> outStrides = interp::rowMajorStrides(out.dims);
  std::vector<int64_t> strideOf(x.dims.size(), 0);
  for (size_t i = 0, k = 0; i < x.dims.size(); ++i)
    if (!std::count(reduced.begin(), reduced.end(), static_cast<int64_t>(i)) &&
        k < outStrides.size())
      strideOf[i] = outStrides[k++];
  int64_t count = product(out.dims);
  // Accumulate in row-major order of the input.
  if (x.floating())
    out.floats.assign(count, init.floats[0]);
  else
    out.integers.assign(count, init.integers[0]);
  bool ok = true;
  for (int64_t linear = 0; linear < x.size(); ++linear) {
    int64_t to = 0;
    for (size_t i = x.dims.size(), rest = linear; i-- > 0;) {
      to += static_cast<int64_t>(rest % x.dims[i]) * strideOf[i];
      rest /= x.dims[i];
    }
    if (x.floating()) {
      auto value = floatBinary(*op, x.type, out.floats[to], x.floats[linear]);
      if (!value)
        ok = false;
      else
        out.floats[to] = interp::roundFloat(out.type, *value);
    } else {
      auto value =
          integerBinary(*op, out.type, out.integers[to], x.integers[linear]);
      if (!value)
        ok = false;
      else
        out.integers[to] = *value;
    }
  }
  if (!ok)
    return std::nullopt;
  return out;
}

std::string elementText(const Array &value, int64_t i) {
  if (value.floating())
    return formatScalar(value.type, value.floats[i]);
  if (value.type == ElementType::Pred)
    return value.integers[i] ? "true" : "false";
  char buffer[32];
  if (value.type == ElementType::U64)
    std::snprintf(buffer, sizeof buffer, "%llu",
                  static_cast<unsigned long long>(value.integers[i]));
  else
    std::snprintf(buffer, sizeof buffer, "%lld",
                  static_cast<long long>(value.integers[i]));
  return buffer;
}

void textLevel(std::string &out, const Array &value, size_t level,
               int64_t &next) {
  if (level == value.dims.size()) {
    out += elementText(value, next++);
    return;
  }
  out += '{';
  for (int64_t i = 0; i < value.dims[level]; ++i) {
    if (i > 0)
      out += ", ";
    textLevel(out, value, level + 1, next);
  }
  out += '}';
}

} // namespace

int64_t ConstantArray::size() const { return product(dims); }

bool isFoldableType(ElementType type) {
  switch (type) {
  case ElementType::Pred:
  case ElementType::S8:
  case ElementType::S16:
  case ElementType::S32:
  case ElementType::S64:
  case ElementType::U8:
  case ElementType::U16:
  case ElementType::U32:
  case ElementType::U64:
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::F32:
  case ElementType::F64:
    return true;
  default:
    return false;
  }
}

std::optional<ConstantArray> constantValue(const Instruction &constant) {
  if (!isKnownConstant(&constant) || !isFoldableType(constant.shape().type()))
    return std::nullopt;
  const Literal &literal = constant.literal();
  Array value = like(constant.shape().type(), constant.shape().dims());
  int64_t count = constant.shape().elementCount();
  if (value.floating()) {
    if (static_cast<int64_t>(literal.floats.size()) != count)
      return std::nullopt;
    for (double element : literal.floats)
      value.floats.push_back(interp::roundFloat(value.type, element));
  } else {
    if (static_cast<int64_t>(literal.integers.size()) != count)
      return std::nullopt;
    for (int64_t element : literal.integers)
      value.integers.push_back(wrap(value.type, element));
  }
  return value;
}

std::optional<ConstantArray>
evaluateInstruction(const Instruction &instruction,
                    const std::vector<const ConstantArray *> &operands) {
  const Shape &shape = instruction.shape();
  if (!isStaticArray(shape) || !isFoldableType(shape.type()))
    return std::nullopt;
  for (const ConstantArray *operand : operands)
    if (!operand)
      return std::nullopt;
  Opcode opcode = instruction.opcode();
  if (isElementwise(opcode))
    return elementwise(instruction, operands);
  switch (opcode) {
  case Opcode::Reshape:
  case Opcode::Copy: {
    Array out = *operands[0];
    out.dims = shape.dims();
    return out;
  }
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::Reverse:
  case Opcode::Concatenate:
  case Opcode::Pad:
    return movement(instruction, operands);
  case Opcode::Reduce:
    if (operands.size() != 2)
      return std::nullopt;
    return reduce(instruction, *operands[0], *operands[1]);
  default:
    return std::nullopt;
  }
}

std::string literalText(const ConstantArray &value) {
  std::string out;
  int64_t next = 0;
  textLevel(out, value, 0, next);
  return out;
}

} // namespace rlopt::graph
