#include "rlopt/graph/Shape.h"

#include "TextCursor.h"

#include <algorithm>
#include <array>

namespace rlopt::graph {

namespace {

struct ElementTypeInfo {
  std::string_view name;
  int bits;
  ElementKind kind;
};

#define RLOPT_HLO_ELEMENT_INFO(Enumerator, Name, Bits, Kind)                   \
  {Name, Bits, ElementKind::Kind},
constexpr ElementTypeInfo kElementTypes[] = {
    RLOPT_HLO_ELEMENT_TYPES(RLOPT_HLO_ELEMENT_INFO)};
#undef RLOPT_HLO_ELEMENT_INFO

const ElementTypeInfo &infoOf(ElementType type) {
  return kElementTypes[static_cast<size_t>(type)];
}

// Shapes with more elements than this are rejected: counts must not
// overflow when cost analysis multiplies them.
constexpr int64_t kMaxElements = int64_t(1) << 50;

} // namespace

std::string_view elementTypeName(ElementType type) { return infoOf(type).name; }

std::optional<ElementType> parseElementType(std::string_view name) {
  for (size_t i = 0; i < std::size(kElementTypes); ++i)
    if (kElementTypes[i].name == name && ElementType(i) != ElementType::Tuple)
      return ElementType(i);
  return std::nullopt;
}

ElementKind elementKind(ElementType type) { return infoOf(type).kind; }

int elementBitWidth(ElementType type) { return infoOf(type).bits; }

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
