#include "InterpreterElements.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace rlopt::graph::interp {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Rounds to a small binary float format with `mantissaBits` stored bits
/// and normal exponents from `minExponent`; subnormals keep the quantum of
/// the smallest normal. Formats without infinity overflow to NaN.
double roundToFormat(double x, int mantissaBits, int minExponent,
                     double maxFinite, bool hasInfinity) {
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return hasInfinity ? x : kNaN;
  if (x == 0)
    return x;
  int exponent = std::max(std::ilogb(x), minExponent);
  double quantum = std::ldexp(1.0, exponent - mantissaBits);
  double rounded = std::nearbyint(x / quantum) * quantum;
  if (std::fabs(rounded) > maxFinite)
    return hasInfinity ? std::copysign(kInf, x) : kNaN;
  return rounded;
}

double roundToBfloat16(double x) {
  float value = static_cast<float>(x);
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return x; // NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  bits &= 0xffff0000u;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

uint64_t widthMask(int width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

/// Sign-extends the low `width` bits.
int64_t signExtend(uint64_t bits, int width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  bits &= widthMask(width);
  if ((bits >> (width - 1)) & 1)
    bits |= ~widthMask(width);
  return static_cast<int64_t>(bits);
}

uint64_t halfBits(double x) {
  double value = roundFloat(ElementType::F16, x);
  uint64_t sign = std::signbit(value) ? 0x8000 : 0;
  double magnitude = std::fabs(value);
  if (std::isnan(value))
    return sign | 0x7e00;
  if (std::isinf(value))
    return sign | 0x7c00;
  if (magnitude == 0)
    return sign;
  int exponent = std::ilogb(magnitude);
  if (exponent < -14)
    return sign | static_cast<uint64_t>(std::ldexp(magnitude, 24));
  uint64_t mantissa =
      static_cast<uint64_t>((std::ldexp(magnitude, -exponent) - 1) * 1024);
  return sign | (static_cast<uint64_t>(exponent + 15) << 10) | mantissa;
}

double halfValue(uint64_t bits) {
  int exponent = static_cast<int>((bits >> 10) & 31);
  double mantissa = static_cast<double>(bits & 1023);
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa != 0 ? kNaN : kInf;
  else
    magnitude = std::ldexp(1 + mantissa / 1024, exponent - 15);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

uint64_t floatPatternBits(ElementType type, double x) {
  switch (type) {
  case ElementType::F64: {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
  }
  case ElementType::F32: {
    float value = static_cast<float>(x);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  case ElementType::BF16: {
    float value = static_cast<float>(roundToBfloat16(x));
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits >> 16;
  }
  default:
    return halfBits(x);
  }
}

double floatFromPattern(ElementType type, uint64_t bits) {
  switch (type) {
  case ElementType::F64: {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  case ElementType::F32: {
    uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  }
  case ElementType::BF16: {
    uint32_t wide = static_cast<uint32_t>(bits & 0xffff) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
  }
  default:
    return halfValue(bits & 0xffff);
  }
}

bool hasBitPattern(ElementType type) {
  switch (domainOf(type)) {
  case Domain::Pred:
  case Domain::Signed:
  case Domain::Unsigned:
    return true;
  case Domain::Float:
    return type == ElementType::F64 || type == ElementType::F32 ||
           type == ElementType::BF16 || type == ElementType::F16;
  default:
    return false;
  }
}

/// base^exponent with wrapping multiplication; negative exponents give 1
/// for base 1 and 0 otherwise, as XLA's evaluator does.
uint64_t integerPower(uint64_t base, int64_t exponent, bool isSigned,
                      int width) {
  if (isSigned && exponent < 0)
    return signExtend(base, width) == 1 ? 1 : 0;
  uint64_t result = 1;
  uint64_t remaining = static_cast<uint64_t>(exponent);
  while (remaining) {
    if (remaining & 1)
      result *= base;
    base *= base;
    remaining >>= 1;
  }
  return result;
}

double signOf(double x) {
  return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}
double negate(double x) { return -x; }
double logistic(double x) { return 1 / (1 + std::exp(-x)); }
double rsqrt(double x) { return 1 / std::sqrt(x); }
double isFinite(double x) { return std::isfinite(x) ? 1.0 : 0.0; }
double identity(double x) { return x; }
double zero(double) { return 0.0; }

double applyUnaryFloat(Opcode opcode, double x) {
  UnaryFloatFunction function = unaryFloatFunction(opcode);
  return function ? function(x) : kNaN;
}

double applyUnaryInteger(Opcode opcode, ElementType type, double x) {
  std::optional<uint64_t> bits =
      integerUnaryBits(opcode, type, integerBits(type, x));
  return bits ? fromIntegerBits(type, *bits) : kNaN;
}

double applyBinaryInteger(Opcode opcode, ElementType type, double a, double b) {
  std::optional<uint64_t> bits = integerBinaryBits(
      opcode, type, integerBits(type, a), integerBits(type, b));
  return bits ? fromIntegerBits(type, *bits) : kNaN;
}

double applyBinaryPred(Opcode opcode, double a, double b) {
  bool x = a != 0, y = b != 0;
  switch (opcode) {
  case Opcode::And:
  case Opcode::Minimum:
  case Opcode::Multiply:
    return x && y;
  case Opcode::Or:
  case Opcode::Maximum:
  case Opcode::Add:
    return x || y;
  case Opcode::Xor:
    return x != y;
  default:
    return kNaN;
  }
}

} // namespace

std::optional<uint64_t> integerUnaryBits(Opcode opcode, ElementType type,
                                         uint64_t x) {
  int width = bitWidth(type);
  bool isSigned = domainOf(type) == Domain::Signed;
  int64_t sx = signExtend(x, width);
  switch (opcode) {
  case Opcode::Abs:
    return isSigned && sx < 0 ? uint64_t(0) - x : x;
  case Opcode::Negate:
    return uint64_t(0) - x;
  case Opcode::Not:
    return ~x;
  case Opcode::Sign:
    if (isSigned)
      return static_cast<uint64_t>(int64_t(sx > 0) - int64_t(sx < 0));
    return (x & widthMask(width)) != 0;
  case Opcode::PopulationCount:
    return __builtin_popcountll(x & widthMask(width));
  case Opcode::Clz: {
    uint64_t masked = x & widthMask(width);
    return masked == 0 ? width : __builtin_clzll(masked) - (64 - width);
  }
  default:
    return std::nullopt;
  }
}

std::optional<uint64_t> integerBinaryBits(Opcode opcode, ElementType type,
                                          uint64_t x, uint64_t y) {
  int width = bitWidth(type);
  bool isSigned = domainOf(type) == Domain::Signed;
  int64_t sx = signExtend(x, width), sy = signExtend(y, width);
  uint64_t ux = x & widthMask(width), uy = y & widthMask(width);
  int64_t minSigned = width >= 64 ? std::numeric_limits<int64_t>::min()
                                  : -(int64_t(1) << (width - 1));
  switch (opcode) {
  case Opcode::Add:
    return x + y;
  case Opcode::Subtract:
    return x - y;
  case Opcode::Multiply:
    return x * y;
  case Opcode::Divide:
    // XLA's evaluator: division by zero gives all ones, MIN / -1 gives MIN.
    if (isSigned) {
      if (sy == 0)
        return ~uint64_t(0);
      if (sx == minSigned && sy == -1)
        return x;
      return static_cast<uint64_t>(sx / sy);
    }
    return uy == 0 ? ~uint64_t(0) : ux / uy;
  case Opcode::Remainder:
    // x % 0 gives x, MIN % -1 gives 0.
    if (isSigned) {
      if (sy == 0)
        return x;
      if (sx == minSigned && sy == -1)
        return 0;
      return static_cast<uint64_t>(sx % sy);
    }
    return uy == 0 ? ux : ux % uy;
  case Opcode::Maximum:
    return isSigned ? (sx > sy ? x : y) : (ux > uy ? x : y);
  case Opcode::Minimum:
    return isSigned ? (sx < sy ? x : y) : (ux < uy ? x : y);
  case Opcode::Power:
    return integerPower(x, isSigned ? sy : static_cast<int64_t>(uy), isSigned,
                        width);
  case Opcode::And:
    return x & y;
  case Opcode::Or:
    return x | y;
  case Opcode::Xor:
    return x ^ y;
  case Opcode::ShiftLeft:
    return uy >= static_cast<uint64_t>(width) ? 0 : x << uy;
  case Opcode::ShiftRightLogical:
    return uy >= static_cast<uint64_t>(width) ? 0 : ux >> uy;
  case Opcode::ShiftRightArithmetic:
    if (uy >= static_cast<uint64_t>(width))
      return sx < 0 ? ~uint64_t(0) : 0;
    return static_cast<uint64_t>(sx >> uy);
  default:
    return std::nullopt;
  }
}

int64_t integerValue(ElementType type, uint64_t bits) {
  int width = bitWidth(type);
  switch (domainOf(type)) {
  case Domain::Pred:
    return static_cast<int64_t>(bits & 1);
  case Domain::Signed:
    return signExtend(bits, width);
  default:
    return static_cast<int64_t>(bits & widthMask(width));
  }
}

bool isIntegral(ElementType type) {
  Domain domain = domainOf(type);
  return domain == Domain::Signed || domain == Domain::Unsigned;
}

int bitWidth(ElementType type) { return elementBitWidth(type); }

double roundFloat(ElementType type, double x) {
  switch (type) {
  case ElementType::F64:
    return x;
  case ElementType::F32:
    return static_cast<float>(x);
  case ElementType::BF16:
    return roundToBfloat16(x);
  case ElementType::F16:
    return roundToFormat(x, 10, -14, 65504.0, true);
  case ElementType::F8E5M2:
    return roundToFormat(x, 2, -14, 57344.0, true);
  case ElementType::F8E4M3:
    return roundToFormat(x, 3, -6, 240.0, true);
  case ElementType::F8E3M4:
    return roundToFormat(x, 4, -2, 15.5, true);
  case ElementType::F8E4M3FN:
    return roundToFormat(x, 3, -6, 448.0, false);
  case ElementType::F8E4M3FNUZ:
    return roundToFormat(x, 3, -7, 240.0, false);
  case ElementType::F8E5M2FNUZ:
    return roundToFormat(x, 2, -15, 57344.0, false);
  case ElementType::F8E4M3B11FNUZ:
    return roundToFormat(x, 3, -10, 30.0, false);
  case ElementType::F4E2M1FN:
    return roundToFormat(x, 1, 0, 6.0, false);
  case ElementType::F8E8M0FNU:
    return roundToFormat(x, 0, -127, std::ldexp(1.0, 127), false);
  default:
    return x;
  }
}

void roundFloats(ElementType type, double *data, int64_t count) {
  switch (type) {
  case ElementType::F64:
    return;
  case ElementType::F32:
    for (int64_t i = 0; i < count; ++i)
      data[i] = static_cast<float>(data[i]);
    return;
  case ElementType::BF16:
    for (int64_t i = 0; i < count; ++i)
      data[i] = roundToBfloat16(data[i]);
    return;
  default:
    for (int64_t i = 0; i < count; ++i)
      data[i] = roundFloat(type, data[i]);
  }
}

double reducePrecision(double x, int exponentBits, int mantissaBits) {
  if (!std::isfinite(x) || x == 0)
    return x;
  double quantum = std::ldexp(1.0, std::ilogb(x) - mantissaBits);
  double rounded = std::nearbyint(x / quantum) * quantum;
  int maxExponent = (1 << (exponentBits - 1)) - 1;
  int exponent = std::ilogb(rounded);
  if (exponent > maxExponent)
    return std::copysign(kInf, x);
  if (exponent < 1 - maxExponent)
    return std::copysign(0.0, x);
  return rounded;
}

uint64_t integerBits(ElementType type, double x) {
  if (std::isnan(x))
    return 0;
  if (domainOf(type) == Domain::Unsigned && x >= 0) {
    if (x >= 18446744073709551616.0)
      return ~uint64_t(0);
    return static_cast<uint64_t>(x);
  }
  if (x >= 9223372036854775808.0)
    return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (x < -9223372036854775808.0)
    return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
  return static_cast<uint64_t>(static_cast<int64_t>(x));
}

double fromIntegerBits(ElementType type, uint64_t bits) {
  int64_t value = integerValue(type, bits);
  // A u64 value is its bit pattern, which may be at or above 2^63.
  if (domainOf(type) == Domain::Unsigned)
    return static_cast<double>(static_cast<uint64_t>(value));
  return static_cast<double>(value);
}

double convertElement(ElementType from, ElementType to, double x) {
  Domain target = domainOf(to);
  if (target == Domain::Pred)
    return x != 0 ? 1.0 : 0.0;
  if (target == Domain::Float)
    return roundFloat(to, x);
  if (target != Domain::Signed && target != Domain::Unsigned)
    return x;
  if (domainOf(from) != Domain::Float)
    return fromIntegerBits(to, integerBits(from, x));
  if (std::isnan(x))
    return 0.0;
  // Float to integer truncates toward zero and saturates, as XLA's CPU and
  // GPU backends do.
  int width = bitWidth(to);
  double low = target == Domain::Signed ? -std::ldexp(1.0, width - 1) : 0.0;
  double high = target == Domain::Signed ? std::ldexp(1.0, width - 1) - 1
                                         : std::ldexp(1.0, width) - 1;
  double truncated = std::trunc(x);
  return truncated < low ? low : truncated > high ? high : truncated;
}

std::optional<std::string> bitcastProblem(ElementType from, ElementType to) {
  if (!hasBitPattern(from) || !hasBitPattern(to))
    return "bitcast-convert from " + std::string(elementTypeName(from)) +
           " to " + std::string(elementTypeName(to)) +
           " is not supported (only pred, integers, f16, bf16, f32, f64)";
  if (bitWidth(from) != bitWidth(to))
    return "bitcast-convert between element widths " +
           std::to_string(bitWidth(from)) + " and " +
           std::to_string(bitWidth(to)) + " is not supported";
  return std::nullopt;
}

double bitcastElement(ElementType from, ElementType to, double x) {
  uint64_t bits = domainOf(from) == Domain::Float
                      ? floatPatternBits(from, x)
                      : integerBits(from, x) & widthMask(bitWidth(from));
  return domainOf(to) == Domain::Float ? floatFromPattern(to, bits)
                                       : fromIntegerBits(to, bits);
}

UnaryFloatFunction unaryFloatFunction(Opcode opcode) {
  // Wrapped in lambdas: taking the address of an overloaded <cmath>
  // function is ambiguous.
  switch (opcode) {
  case Opcode::Abs:
    return [](double x) { return std::fabs(x); };
  case Opcode::Negate:
    return negate;
  case Opcode::Sign:
    return signOf;
  case Opcode::Ceil:
    return [](double x) { return std::ceil(x); };
  case Opcode::Floor:
    return [](double x) { return std::floor(x); };
  case Opcode::RoundNearestAfz:
    return [](double x) { return std::round(x); };
  case Opcode::RoundNearestEven:
    return [](double x) { return std::nearbyint(x); };
  case Opcode::Exp:
    return [](double x) { return std::exp(x); };
  case Opcode::Expm1:
    return [](double x) { return std::expm1(x); };
  case Opcode::Log:
    return [](double x) { return std::log(x); };
  case Opcode::Log1p:
    return [](double x) { return std::log1p(x); };
  case Opcode::Logistic:
    return logistic;
  case Opcode::Sqrt:
    return [](double x) { return std::sqrt(x); };
  case Opcode::Rsqrt:
    return rsqrt;
  case Opcode::Cbrt:
    return [](double x) { return std::cbrt(x); };
  case Opcode::Tanh:
    return [](double x) { return std::tanh(x); };
  case Opcode::Sin:
    return [](double x) { return std::sin(x); };
  case Opcode::Cos:
    return [](double x) { return std::cos(x); };
  case Opcode::Tan:
    return [](double x) { return std::tan(x); };
  case Opcode::Erf:
    return [](double x) { return std::erf(x); };
  case Opcode::Acos:
    return [](double x) { return std::acos(x); };
  case Opcode::Acosh:
    return [](double x) { return std::acosh(x); };
  case Opcode::Asin:
    return [](double x) { return std::asin(x); };
  case Opcode::Asinh:
    return [](double x) { return std::asinh(x); };
  case Opcode::Atan:
    return [](double x) { return std::atan(x); };
  case Opcode::Atanh:
    return [](double x) { return std::atanh(x); };
  case Opcode::Cosh:
    return [](double x) { return std::cosh(x); };
  case Opcode::Sinh:
    return [](double x) { return std::sinh(x); };
  case Opcode::IsFinite:
    return isFinite;
  case Opcode::Real:
    return identity;
  case Opcode::Imag:
    return zero;
  default:
    return nullptr;
  }
}

std::optional<std::string> elementwiseProblem(Opcode opcode, ElementType type) {
  std::string name(opcodeName(opcode));
  std::string typeName(elementTypeName(type));
  switch (domainOf(type)) {
  case Domain::Other:
    return name + " has no elements of type " + typeName;
  case Domain::Complex:
    return "complex elements (" + typeName + ") are not supported";
  case Domain::Float:
    if (isBitwise(opcode))
      return name + " needs integer or pred elements, got " + typeName;
    return std::nullopt;
  case Domain::Pred:
    if (std::isnan(applyBinaryPred(opcode, 0, 0)) && opcode != Opcode::Not)
      return name + " is not defined on pred elements";
    return std::nullopt;
  default:
    if (isFloatOnly(opcode))
      return name + " needs floating-point elements, got " + typeName;
    return std::nullopt;
  }
}

double applyUnary(Opcode opcode, ElementType type, double x) {
  switch (domainOf(type)) {
  case Domain::Float:
    return applyUnaryFloat(opcode, x);
  case Domain::Pred:
    return opcode == Opcode::Not ? (x == 0 ? 1.0 : 0.0) : kNaN;
  default:
    return applyUnaryInteger(opcode, type, x);
  }
}

double applyBinary(Opcode opcode, ElementType type, double a, double b) {
  switch (domainOf(type)) {
  case Domain::Float:
    switch (opcode) {
    case Opcode::Add:
      return a + b;
    case Opcode::Subtract:
      return a - b;
    case Opcode::Multiply:
      return a * b;
    case Opcode::Divide:
      return a / b;
    case Opcode::Remainder:
      return std::fmod(a, b);
    case Opcode::Maximum:
      return std::isnan(a) || std::isnan(b) ? kNaN : a > b ? a : b;
    case Opcode::Minimum:
      return std::isnan(a) || std::isnan(b) ? kNaN : a < b ? a : b;
    case Opcode::Power:
      return std::pow(a, b);
    case Opcode::Atan2:
      return std::atan2(a, b);
    default:
      return kNaN;
    }
  case Domain::Pred:
    return applyBinaryPred(opcode, a, b);
  default:
    return applyBinaryInteger(opcode, type, a, b);
  }
}

bool applyCompare(ComparisonDirection direction, bool totalOrder,
                  ElementType type, double a, double b) {
  if (totalOrder && domainOf(type) == Domain::Float) {
    // Ordering the sign-magnitude bit patterns as integers gives the total
    // order once negative values have their magnitude bits flipped.
    int64_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    if (x < 0)
      x ^= std::numeric_limits<int64_t>::max();
    if (y < 0)
      y ^= std::numeric_limits<int64_t>::max();
    switch (direction) {
    case ComparisonDirection::Eq:
      return x == y;
    case ComparisonDirection::Ne:
      return x != y;
    case ComparisonDirection::Lt:
      return x < y;
    case ComparisonDirection::Le:
      return x <= y;
    case ComparisonDirection::Gt:
      return x > y;
    case ComparisonDirection::Ge:
      return x >= y;
    }
  }
  switch (direction) {
  case ComparisonDirection::Eq:
    return a == b;
  case ComparisonDirection::Ne:
    return a != b;
  case ComparisonDirection::Lt:
    return a < b;
  case ComparisonDirection::Le:
    return a <= b;
  case ComparisonDirection::Gt:
    return a > b;
  case ComparisonDirection::Ge:
    return a >= b;
  }
  return false;
}

double applyClamp(ElementType type, double lo, double x, double hi) {
  return applyBinary(Opcode::Minimum, type,
                     applyBinary(Opcode::Maximum, type, x, lo), hi);
}

} // namespace rlopt::graph::interp
