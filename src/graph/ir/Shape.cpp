#include "rlopt/graph/Shape.h"

#include "TextCursor.h"

#include <algorithm>
#include <array>

namespace rlopt::graph {

namespace {

constexpr std::array<std::pair<ElementType, std::string_view>, 30>
    kElementTypeNames = {{
        {ElementType::Pred, "pred"},
        {ElementType::S2, "s2"},
        {ElementType::S4, "s4"},
        {ElementType::S8, "s8"},
        {ElementType::S16, "s16"},
        {ElementType::S32, "s32"},
        {ElementType::S64, "s64"},
        {ElementType::U2, "u2"},
        {ElementType::U4, "u4"},
        {ElementType::U8, "u8"},
        {ElementType::U16, "u16"},
        {ElementType::U32, "u32"},
        {ElementType::U64, "u64"},
        {ElementType::F16, "f16"},
        {ElementType::BF16, "bf16"},
        {ElementType::F32, "f32"},
        {ElementType::F64, "f64"},
        {ElementType::C64, "c64"},
        {ElementType::C128, "c128"},
        {ElementType::F4E2M1FN, "f4e2m1fn"},
        {ElementType::F8E3M4, "f8e3m4"},
        {ElementType::F8E4M3, "f8e4m3"},
        {ElementType::F8E4M3FN, "f8e4m3fn"},
        {ElementType::F8E4M3FNUZ, "f8e4m3fnuz"},
        {ElementType::F8E4M3B11FNUZ, "f8e4m3b11fnuz"},
        {ElementType::F8E5M2, "f8e5m2"},
        {ElementType::F8E5M2FNUZ, "f8e5m2fnuz"},
        {ElementType::F8E8M0FNU, "f8e8m0fnu"},
        {ElementType::Token, "token"},
        {ElementType::Opaque, "opaque"},
    }};

// Shapes with more elements than this are rejected: counts must not
// overflow when cost analysis multiplies them.
constexpr int64_t kMaxElements = int64_t(1) << 50;

} // namespace

std::string_view elementTypeName(ElementType type) {
  for (const auto &[candidate, name] : kElementTypeNames)
    if (candidate == type)
      return name;
  return "tuple";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const auto &[type, candidate] : kElementTypeNames)
    if (candidate == name)
      return type;
  return std::nullopt;
}

int elementByteSize(ElementType type) {
  // Rounding up gives pred and the sub-byte types a whole byte.
  return (elementBitWidth(type) + 7) / 8;
}

bool isFloating(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::F32:
  case ElementType::F64:
  case ElementType::F4E2M1FN:
  case ElementType::F8E3M4:
  case ElementType::F8E4M3:
  case ElementType::F8E4M3FN:
  case ElementType::F8E4M3FNUZ:
  case ElementType::F8E4M3B11FNUZ:
  case ElementType::F8E5M2:
  case ElementType::F8E5M2FNUZ:
  case ElementType::F8E8M0FNU:
    return true;
  default:
    return false;
  }
}

bool isComplex(ElementType type) {
  return type == ElementType::C64 || type == ElementType::C128;
}

bool isSignedInteger(ElementType type) {
  return type >= ElementType::S2 && type <= ElementType::S64;
}

bool isUnsignedInteger(ElementType type) {
  return type >= ElementType::U2 && type <= ElementType::U64;
}

int elementBitWidth(ElementType type) {
  switch (type) {
  case ElementType::Pred:
    return 1;
  case ElementType::S2:
  case ElementType::U2:
    return 2;
  case ElementType::S4:
  case ElementType::U4:
  case ElementType::F4E2M1FN:
    return 4;
  case ElementType::S8:
  case ElementType::U8:
  case ElementType::F8E3M4:
  case ElementType::F8E4M3:
  case ElementType::F8E4M3FN:
  case ElementType::F8E4M3FNUZ:
  case ElementType::F8E4M3B11FNUZ:
  case ElementType::F8E5M2:
  case ElementType::F8E5M2FNUZ:
  case ElementType::F8E8M0FNU:
    return 8;
  case ElementType::S16:
  case ElementType::U16:
  case ElementType::F16:
  case ElementType::BF16:
    return 16;
  case ElementType::S32:
  case ElementType::U32:
  case ElementType::F32:
    return 32;
  case ElementType::S64:
  case ElementType::U64:
  case ElementType::F64:
  case ElementType::C64:
    return 64;
  case ElementType::C128:
    return 128;
  default:
    return 0;
  }
}

Shape Shape::array(ElementType type, std::vector<int64_t> dims,
                   std::string layout) {
  Shape shape;
  shape.elementType = type;
  shape.dimensions = std::move(dims);
  shape.layoutText = std::move(layout);
  return shape;
}

Shape Shape::tuple(std::vector<Shape> elements) {
  Shape shape;
  shape.elements = std::move(elements);
  return shape;
}

bool Shape::isArray() const {
  return elementType != ElementType::Tuple &&
         elementType != ElementType::Token &&
         elementType != ElementType::Opaque;
}

void Shape::setDynamicDim(int64_t i, bool isDynamic) {
  if (dynamic.empty()) {
    if (!isDynamic)
      return;
    dynamic.assign(dimensions.size(), false);
  }
  dynamic[i] = isDynamic;
  if (std::none_of(dynamic.begin(), dynamic.end(), [](bool d) { return d; }))
    dynamic.clear();
}

int64_t Shape::elementCount() const {
  if (!isArray())
    return 0;
  int64_t count = 1;
  for (int64_t dim : dimensions)
    count *= std::max<int64_t>(dim, 0);
  return count;
}

int64_t Shape::elementCountRecursive() const {
  if (!isTuple())
    return elementCount();
  int64_t count = 0;
  for (const Shape &element : elements)
    count += element.elementCountRecursive();
  return count;
}

int64_t Shape::byteSizeRecursive() const {
  if (!isTuple())
    return elementCount() * elementByteSize(elementType);
  int64_t bytes = 0;
  for (const Shape &element : elements)
    bytes += element.byteSizeRecursive();
  return bytes;
}

bool Shape::compatible(const Shape &other) const {
  if (elementType != other.elementType || dimensions != other.dimensions ||
      elements.size() != other.elements.size())
    return false;
  for (size_t i = 0; i < elements.size(); ++i)
    if (!elements[i].compatible(other.elements[i]))
      return false;
  return true;
}

bool Shape::operator==(const Shape &other) const {
  return elementType == other.elementType && dimensions == other.dimensions &&
         dynamic == other.dynamic && elements == other.elements &&
         layoutText == other.layoutText;
}

void Shape::print(std::string &out, bool withLayout) const {
  if (isTuple()) {
    out += '(';
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i > 0)
        out += ", ";
      // XLA marks every fifth element so long tuples stay navigable.
      if (i > 0 && i % 5 == 0)
        out += "/*index=" + std::to_string(i) + "*/";
      elements[i].print(out, withLayout);
    }
    out += ')';
    return;
  }
  out += elementTypeName(elementType);
  out += '[';
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (i > 0)
      out += ',';
    if (dimensions[i] == kUnboundedSize) {
      out += '?';
      continue;
    }
    if (isDynamicDim(i))
      out += "<=";
    out += std::to_string(dimensions[i]);
  }
  out += ']';
  if (withLayout)
    out += layoutText;
}

std::string Shape::toString(bool withLayout) const {
  std::string out;
  print(out, withLayout);
  return out;
}

Result<Shape> parseShape(std::string_view text) {
  detail::TextCursor cursor(text, "shape");
  auto shape = detail::parseShapeAt(cursor);
  if (shape && !cursor.atEnd())
    return cursor.error("unexpected text after the shape");
  return shape;
}

namespace detail {

bool atShape(TextCursor &cursor) {
  if (cursor.peek() == '(')
    return true;
  size_t start = cursor.offset();
  std::string_view word = cursor.readIdentifier();
  bool isShape = !word.empty() && cursor.peekRaw() == '[' &&
                 parseElementType(word).has_value();
  cursor.seek(start);
  return isShape;
}

// Deeper tuples or more dimensions than this are rejected: the recursive
// parsers and printers must not run out of stack on hostile input.
constexpr int kMaxTupleDepth = 64;
constexpr size_t kMaxRank = 64;

static Status parseDimensions(TextCursor &cursor, Shape &shape,
                              size_t shapeOffset) {
  std::vector<int64_t> dims;
  std::vector<size_t> dynamicDims;
  if (!cursor.consume(']')) {
    do {
      if (cursor.consume('?')) {
        dynamicDims.push_back(dims.size());
        dims.push_back(kUnboundedSize);
        continue;
      }
      if (cursor.consume("<="))
        dynamicDims.push_back(dims.size());
      size_t dimOffset = cursor.offset();
      auto dim = cursor.readInteger("as a dimension size");
      if (!dim)
        return dim.error();
      if (*dim < 0)
        return cursor.errorAt(dimOffset, "negative dimension size " +
                                             std::to_string(*dim));
      dims.push_back(*dim);
      if (dims.size() > kMaxRank)
        return cursor.errorAt(shapeOffset, "shape has more than " +
                                               std::to_string(kMaxRank) +
                                               " dimensions");
    } while (cursor.consume(','));
    if (auto closed = cursor.expect(']', "after the dimensions"); !closed)
      return closed;
  }
  int64_t elements = 1;
  for (int64_t dim : dims) {
    if (dim > 0 && elements > kMaxElements / dim)
      return cursor.errorAt(shapeOffset, "shape has too many elements");
    elements *= std::max<int64_t>(dim, 1);
  }
  shape = Shape::array(shape.type(), std::move(dims));
  for (size_t dim : dynamicDims)
    shape.setDynamicDim(dim, true);
  return Status::success();
}

static Result<Shape> parseShapeAt(TextCursor &cursor, int depth) {
  if (cursor.peek() == '(') {
    if (depth >= kMaxTupleDepth)
      return cursor.error("tuple shapes nest deeper than " +
                          std::to_string(kMaxTupleDepth) + " levels");
    cursor.consume('(');
    std::vector<Shape> elements;
    if (!cursor.consume(')')) {
      do {
        auto element = parseShapeAt(cursor, depth + 1);
        if (!element)
          return element;
        elements.push_back(element.takeValue());
      } while (cursor.consume(','));
      if (auto closed = cursor.expect(')', "to close the tuple shape"); !closed)
        return closed.error();
    }
    return Shape::tuple(std::move(elements));
  }
  cursor.skipTrivia();
  size_t start = cursor.offset();
  std::string_view word = cursor.readIdentifier();
  auto type = parseElementType(word);
  if (!type || cursor.peekRaw() != '[')
    return cursor.errorAt(
        start, "expected a shape, got " +
                   quoteForError(word.empty() ? cursor.slice(start, start + 16)
                                              : word));
  cursor.seek(cursor.offset() + 1);
  Shape shape = Shape::array(*type, {});
  if (auto dims = parseDimensions(cursor, shape, start); !dims)
    return dims.error();
  if (!shape.isArray() && shape.rank() != 0)
    return cursor.errorAt(start, std::string(word) + " has no dimensions");
  // A layout must touch the closing bracket: `f32[] {` opens a body.
  if (cursor.peekRaw() == '{') {
    size_t layoutStart = cursor.offset();
    std::string_view rest = cursor.slice(layoutStart, cursor.size());
    size_t close = rest.find_first_of("}{\n", 1);
    if (close == std::string_view::npos || rest[close] != '}')
      return cursor.errorAt(layoutStart,
                            "unbalanced '{' in layout: not closed on its line");
    shape.setLayout(std::string(rest.substr(0, close + 1)));
    cursor.seek(layoutStart + close + 1);
  }
  return shape;
}

Result<Shape> parseShapeAt(TextCursor &cursor) {
  return parseShapeAt(cursor, 0);
}

} // namespace detail

} // namespace rlopt::graph
