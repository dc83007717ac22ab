// TOSA tensor types and dense attributes for HLO shapes and constants.
#include "rlopt/graph/TosaExport.h"

#include <cmath>
#include <cstdio>

namespace rlopt::graph {

namespace {

std::optional<std::string_view> tosaElementType(ElementType type) {
  switch (type) {
  case ElementType::Pred:
    return "i1";
  case ElementType::S8:
    return "i8";
  case ElementType::S16:
    return "i16";
  case ElementType::S32:
    return "i32";
  case ElementType::S64:
    return "i64";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  default:
    // Unsigned and f64 fail `tosa-validate`'s profile check; the rest have
    // no TOSA type at all.
    return std::nullopt;
  }
}

// MLIR reads a hexadecimal integer in a float literal as the bit pattern,
// the only way to write infinities and NaN.
std::string nonFiniteBits(ElementType type, double value) {
  bool negative = std::signbit(value);
  if (std::isnan(value))
    return type == ElementType::F32    ? "0x7FC00000"
           : type == ElementType::BF16 ? "0x7FC0"
                                       : "0x7E00";
  if (type == ElementType::F32)
    return negative ? "0xFF800000" : "0x7F800000";
  if (type == ElementType::BF16)
    return negative ? "0xFF80" : "0x7F80";
  return negative ? "0xFC00" : "0x7C00";
}

std::string formatFloat(ElementType type, double value) {
  if (!std::isfinite(value))
    return nonFiniteBits(type, value);
  // 17 digits round-trip any double; MLIR rounds to the element type.
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  std::string text = buffer;
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

class DenseWriter {
public:
  DenseWriter(const Literal &literal, const Shape &shape)
      : literal(literal), shape(shape), floating(isFloating(shape.type())) {}

  size_t valueCount() const {
    return floating ? literal.floats.size() : literal.integers.size();
  }

  std::string element(size_t i) const {
    if (floating)
      return formatFloat(shape.type(), literal.floats[i]);
    if (shape.type() == ElementType::Pred)
      return literal.integers[i] ? "true" : "false";
    return std::to_string(literal.integers[i]);
  }

  bool isSplat() const {
    std::string first = element(0);
    for (size_t i = 1; i < valueCount(); ++i)
      if (element(i) != first)
        return false;
    return true;
  }

  // Nested brackets, one level per dimension; `next` walks the row-major
  // values.
  void nested(int64_t level, size_t &next, std::string &out) const {
    if (level == shape.rank()) {
      out += element(next++);
      return;
    }
    out += '[';
    for (int64_t i = 0; i < shape.dim(level); ++i) {
      if (i > 0)
        out += ", ";
      nested(level + 1, next, out);
    }
    out += ']';
  }

private:
  const Literal &literal;
  const Shape &shape;
  bool floating;
};

} // namespace

std::optional<std::string> tosaTensorType(const Shape &shape) {
  if (!shape.isArray())
    return std::nullopt;
  auto element = tosaElementType(shape.type());
  if (!element)
    return std::nullopt;
  std::string text = "tensor<";
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.isDynamicDim(i) || shape.dim(i) <= 0)
      return std::nullopt;
    text += std::to_string(shape.dim(i)) + "x";
  }
  text += *element;
  return text + ">";
}

Result<std::string> tosaDenseAttribute(const Instruction &constant) {
  const Shape &shape = constant.shape();
  const Literal &literal = constant.literal();
  auto type = tosaTensorType(shape);
  if (!type)
    return makeError("constant '" + constant.name() + "': shape " +
                     shape.toString(false) + " has no TOSA tensor type");
  if (!literal.hasValues)
    return makeError("constant '" + constant.name() +
                     "' has no values (elided in the dump)");
  DenseWriter writer(literal, shape);
  if (static_cast<int64_t>(writer.valueCount()) != shape.elementCount())
    return makeError("constant '" + constant.name() + "' has " +
                     std::to_string(writer.valueCount()) + " values for " +
                     shape.toString(false));
  std::string text = "dense<";
  if (writer.isSplat()) {
    text += writer.element(0);
  } else {
    size_t next = 0;
    writer.nested(0, next, text);
  }
  return text + "> : " + *type;
}

} // namespace rlopt::graph
