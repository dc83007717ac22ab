// The value of an HLO constant.
#ifndef RLOPT_GRAPH_LITERAL_H
#define RLOPT_GRAPH_LITERAL_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Shape.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

/// A constant's literal: the text between `constant(` and `)` as written,
/// plus its values when the text has them. Dumps elide large constants as
/// `{...}`; such a literal is marked elided and has no values, so no pass may
/// fold or compare it.
struct Literal {
  std::string text;
  bool elided = false;
  /// False when elided or tuple-shaped: the values are unknown.
  bool hasValues = false;
  /// Values in row-major order. Integers and pred (0/1) go to `integers`
  /// (u64 kept as its bit pattern), floating-point values to `floats`,
  /// complex values to `floats` as (real, imaginary) pairs. Tuple-shaped
  /// constants keep only their text.
  std::vector<int64_t> integers;
  std::vector<double> floats;
};

/// Parses the literal `text` of a constant of shape `shape`: a scalar
/// (`0`, `-inf`, `nan`, `true`, `0x1p-3`) or nested braces whose nesting
/// matches the dimensions (`{ {1, 2}, {3, 4} }`).
Result<Literal> parseLiteral(std::string_view text, const Shape &shape);

} // namespace rlopt::graph

#endif
