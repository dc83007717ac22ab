#include "rlopt/graph/Literal.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace rlopt::graph {

namespace {

// The largest finite value of a floating-point type and its explicit
// mantissa bits: a literal at or past the largest value plus half an ulp
// rounds to infinity (or NaN, for the types without infinities).
struct FloatFormat {
  double largest;
  int mantissaBits;
};

std::optional<FloatFormat> floatFormat(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return FloatFormat{65504.0, 10};
  case ElementType::BF16:
    return FloatFormat{0x1.fep127, 7};
  case ElementType::F32:
  case ElementType::C64:
    return FloatFormat{std::numeric_limits<float>::max(), 23};
  case ElementType::F4E2M1FN:
    return FloatFormat{6.0, 1};
  case ElementType::F8E3M4:
    return FloatFormat{15.5, 4};
  case ElementType::F8E4M3:
  case ElementType::F8E4M3FNUZ:
    return FloatFormat{240.0, 3};
  case ElementType::F8E4M3FN:
    return FloatFormat{448.0, 3};
  case ElementType::F8E4M3B11FNUZ:
    return FloatFormat{30.0, 3};
  case ElementType::F8E5M2:
  case ElementType::F8E5M2FNUZ:
    return FloatFormat{57344.0, 2};
  case ElementType::F8E8M0FNU:
    return FloatFormat{0x1p127, 0};
  default:
    return std::nullopt; // f64: strtod reports the overflow
  }
}

bool overflowsFloat(ElementType type, double value) {
  if (std::isinf(value))
    return true;
  std::optional<FloatFormat> format = floatFormat(type);
  if (!format)
    return false;
  double halfUlp =
      std::ldexp(1.0, std::ilogb(format->largest) - format->mantissaBits - 1);
  return std::fabs(value) >= format->largest + halfUlp;
}

// Recursive descent over the literal text; `pos` indexes `text`.
class LiteralReader {
public:
  LiteralReader(std::string_view text, const Shape &shape, Literal &literal)
      : text(text), shape(shape), literal(literal) {}

  Status read() {
    if (auto ok = readLevel(0); !ok)
      return ok;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the value");
    return Status::success();
  }

private:
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  Error fail(const std::string &message) const {
    return makeError("constant " + std::string(text.substr(0, 40)) +
                     (text.size() > 40 ? "..." : "") + ": " + message);
  }

  // Dimension `level` of the shape: braces around shape.dim(level) entries.
  Status readLevel(int64_t level) {
    skipSpace();
    if (level == shape.rank()) {
      // XLA writes rank-1+ scalars-in-braces only at the innermost level;
      // a scalar constant may also be wrapped in one pair of braces.
      if (level == 0 && pos < text.size() && text[pos] == '{') {
        ++pos;
        if (auto ok = readValue(); !ok)
          return ok;
        skipSpace();
        if (pos >= text.size() || text[pos] != '}')
          return fail("expected '}'");
        ++pos;
        return Status::success();
      }
      return readValue();
    }
    if (pos >= text.size() || text[pos] != '{')
      return fail("expected '{' for dimension " + std::to_string(level) +
                  " of " + shape.toString(false));
    ++pos;
    int64_t count = 0;
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
    } else {
      while (true) {
        if (auto ok = readLevel(level + 1); !ok)
          return ok;
        ++count;
        skipSpace();
        if (pos < text.size() && text[pos] == ',') {
          ++pos;
          continue;
        }
        if (pos < text.size() && text[pos] == '}') {
          ++pos;
          break;
        }
        return fail("expected ',' or '}'");
      }
    }
    bool fits = shape.isDynamicDim(level) ? count <= shape.dim(level)
                                          : count == shape.dim(level);
    if (!fits)
      return fail("dimension " + std::to_string(level) + " has " +
                  std::to_string(count) + " values, the shape " +
                  shape.toString(false) + " needs " +
                  std::to_string(shape.dim(level)));
    return Status::success();
  }

  std::string_view readToken() {
    skipSpace();
    size_t begin = pos;
    while (pos < text.size() && text[pos] != ',' && text[pos] != '}' &&
           text[pos] != ')' &&
           !std::isspace(static_cast<unsigned char>(text[pos]))) {
      // nan(0x7fc00000) carries a payload in parentheses.
      if (text[pos] == '(') {
        size_t close = text.find(')', pos);
        pos = close == std::string_view::npos ? text.size() : close + 1;
        continue;
      }
      ++pos;
    }
    return text.substr(begin, pos - begin);
  }

  Status readValue() {
    ElementType type = shape.type();
    if (isComplex(type)) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '(')
        return fail("expected a complex value like (1, 2)");
      ++pos;
      for (int part = 0; part < 2; ++part) {
        if (auto ok = readFloat(readToken()); !ok)
          return ok;
        skipSpace();
        char expected = part == 0 ? ',' : ')';
        if (pos >= text.size() || text[pos] != expected)
          return fail(std::string("expected '") + expected +
                      "' in a complex value");
        ++pos;
      }
      return Status::success();
    }
    std::string_view token = readToken();
    if (token.empty())
      return fail("expected a value");
    if (type == ElementType::Pred) {
      if (token == "true" || token == "1")
        literal.integers.push_back(1);
      else if (token == "false" || token == "0")
        literal.integers.push_back(0);
      else
        return fail("expected true or false, got '" + std::string(token) + "'");
      return Status::success();
    }
    if (isFloating(type))
      return readFloat(token);
    return readInteger(token);
  }

  Status readFloat(std::string_view token) {
    std::string word(token);
    std::string_view magnitude = token;
    bool negative = !magnitude.empty() && magnitude.front() == '-';
    if (negative || (!magnitude.empty() && magnitude.front() == '+'))
      magnitude.remove_prefix(1);
    double sign = negative ? -1.0 : 1.0;
    if (magnitude == "inf") {
      literal.floats.push_back(sign * std::numeric_limits<double>::infinity());
      return Status::success();
    }
    if (magnitude.substr(0, 3) == "nan") {
      literal.floats.push_back(
          std::copysign(std::numeric_limits<double>::quiet_NaN(), sign));
      return Status::success();
    }
    char *end = nullptr;
    double value = std::strtod(word.c_str(), &end);
    if (word.empty() || end != word.c_str() + word.size())
      return fail("expected a number, got '" + word + "'");
    if (overflowsFloat(shape.type(), value))
      return fail("'" + word + "' is out of range for " +
                  std::string(elementTypeName(shape.type())));
    literal.floats.push_back(value);
    return Status::success();
  }

  Status readInteger(std::string_view token) {
    ElementType type = shape.type();
    bool isUnsigned = isUnsignedInteger(type);
    std::string word(token);
    char *end = nullptr;
    errno = 0;
    int base = word.rfind("0x", 0) == 0 || word.rfind("-0x", 0) == 0 ? 16 : 10;
    int64_t value;
    if (isUnsigned && word.front() != '-')
      value = static_cast<int64_t>(std::strtoull(word.c_str(), &end, base));
    else
      value = std::strtoll(word.c_str(), &end, base);
    if (word.empty() || end != word.c_str() + word.size())
      return fail("expected an integer, got '" + word + "'");
    if (errno == ERANGE || !fitsInteger(type, value, word.front() == '-'))
      return fail("'" + word + "' is out of range for " +
                  std::string(elementTypeName(type)));
    literal.integers.push_back(value);
    return Status::success();
  }

  // u64 values arrive as their bit pattern, so the sign is read from the
  // text.
  static bool fitsInteger(ElementType type, int64_t value, bool negative) {
    int bits = elementBitWidth(type);
    if (isUnsignedInteger(type))
      return (!negative || value == 0) &&
             (bits >= 64 || (value >= 0 && value < (int64_t(1) << bits)));
    if (bits >= 64)
      return true;
    int64_t limit = int64_t(1) << (bits - 1);
    return value >= -limit && value < limit;
  }

  std::string_view text;
  const Shape &shape;
  Literal &literal;
  size_t pos = 0;
};

} // namespace

Result<Literal> parseLiteral(std::string_view text, const Shape &shape) {
  Literal literal;
  literal.text = std::string(text);
  // `{...}` (or a partly elided list) stands for values the dump left out.
  if (text.find("...") != std::string_view::npos) {
    literal.elided = true;
    return literal;
  }
  if (!shape.isArray())
    return literal; // tuple, token or opaque: text only
  LiteralReader reader(text, shape, literal);
  if (auto ok = reader.read(); !ok)
    return ok.error();
  literal.hasValues = true;
  return literal;
}

} // namespace rlopt::graph
