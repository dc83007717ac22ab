// Element semantics of the reference interpreter: how a double holds each
// element type, and the scalar meaning of every elementwise opcode. The
// array loops and the compiled scalar computations both use these, so a
// reducer computes exactly what the same op on arrays computes.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERELEMENTS_H
#define RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERELEMENTS_H

#include "rlopt/graph/Attributes.h"
#include "rlopt/graph/Opcode.h"
#include "rlopt/graph/Shape.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rlopt::graph::interp {

enum class Domain { Pred, Signed, Unsigned, Float, Complex, Other };

/// Called per element: a table lookup rather than Shape.h's predicates.
inline Domain domainOf(ElementType type) {
  switch (type) {
  case ElementType::Pred:
    return Domain::Pred;
  case ElementType::S2:
  case ElementType::S4:
  case ElementType::S8:
  case ElementType::S16:
  case ElementType::S32:
  case ElementType::S64:
    return Domain::Signed;
  case ElementType::U2:
  case ElementType::U4:
  case ElementType::U8:
  case ElementType::U16:
  case ElementType::U32:
  case ElementType::U64:
    return Domain::Unsigned;
  case ElementType::C64:
  case ElementType::C128:
    return Domain::Complex;
  case ElementType::Token:
  case ElementType::Opaque:
  case ElementType::Tuple:
    return Domain::Other;
  default:
    return Domain::Float;
  }
}
bool isIntegral(ElementType type); ///< signed or unsigned integers
/// Storage width in bits; 0 for tokens, tuples and opaque values.
int bitWidth(ElementType type);

/// `x` rounded to the precision and range of floating-point `type`
/// (round to nearest even; f64 unchanged). bf16 rounds through f32, which
/// can differ from direct rounding in rare ties.
double roundFloat(ElementType type, double x);
/// Rounds every element in place when `type` is narrower than f64.
void roundFloats(ElementType type, double *data, int64_t count);

/// `reduce-precision`: rounds the significand to `mantissaBits` (nearest
/// even), overflows to infinity beyond an exponent of `exponentBits` and
/// flushes values below its smallest normal to zero.
double reducePrecision(double x, int exponentBits, int mantissaBits);

/// The two's-complement bits of integer `x` held as a double.
uint64_t integerBits(ElementType type, double x);
/// `bits` truncated to the width of integer (or pred) `type`, as a double.
double fromIntegerBits(ElementType type, uint64_t bits);

/// The integer ops (unary and binary elementwise opcodes on signed and
/// unsigned types) on two's-complement bits, exact in 64 bits: the one
/// definition that the interpreter applies to its doubles and constant
/// folding to exact values. Bits beyond the type's width are left as they
/// fall; integerValue and fromIntegerBits cut them. Nothing for opcodes
/// that are not integer ops. Division by zero, MIN / -1, shifts by the
/// width or more and negative powers give XLA's evaluator's values.
std::optional<uint64_t> integerUnaryBits(Opcode opcode, ElementType type,
                                         uint64_t x);
std::optional<uint64_t> integerBinaryBits(Opcode opcode, ElementType type,
                                          uint64_t x, uint64_t y);
/// `bits` cut to the width of integer (or pred) `type`: sign-extended for
/// signed types, the bit pattern for unsigned ones (u64 may be negative).
int64_t integerValue(ElementType type, uint64_t bits);

/// `convert`: floats round, floats to integers truncate toward zero and
/// saturate (NaN gives 0), integers wrap, anything to pred is `x != 0`.
double convertElement(ElementType from, ElementType to, double x);

/// Why `bitcast-convert` from `from` to `to` is not supported (element
/// widths differ, or a type has no bit pattern here), or nothing.
std::optional<std::string> bitcastProblem(ElementType from, ElementType to);
double bitcastElement(ElementType from, ElementType to, double x);

/// Why `opcode` does not apply to elements of `type`, or nothing. Covers
/// the unary and binary elementwise opcodes (Opcode.h).
std::optional<std::string> elementwiseProblem(Opcode opcode, ElementType type);

/// The unary op on floating-point elements as a plain function, so array
/// loops choose it once; null for opcodes that are not floating-point ops.
using UnaryFloatFunction = double (*)(double);
UnaryFloatFunction unaryFloatFunction(Opcode opcode);

/// Unary ops on `type` (is-finite returns 0/1). Integers wrap; floats are
/// exact in double and rounded by the caller.
double applyUnary(Opcode opcode, ElementType type, double x);
/// Binary ops on `type`, with the same rounding contract as applyUnary.
double applyBinary(Opcode opcode, ElementType type, double a, double b);
/// `compare`: IEEE for floats unless `totalOrder` (-NaN < -inf < -0 < +0 <
/// +inf < NaN).
bool applyCompare(ComparisonDirection direction, bool totalOrder,
                  ElementType type, double a, double b);
/// `clamp(lo, x, hi)` = min(max(x, lo), hi) with NaN propagating.
double applyClamp(ElementType type, double lo, double x, double hi);

} // namespace rlopt::graph::interp

#endif
