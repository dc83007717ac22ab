// HLO shapes: an element type with dimensions, or a (nested) tuple.
#ifndef RLOPT_GRAPH_SHAPE_H
#define RLOPT_GRAPH_SHAPE_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

enum class ElementType : unsigned char {
  Pred,
  S2,
  S4,
  S8,
  S16,
  S32,
  S64,
  U2,
  U4,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  C64,
  C128,
  F4E2M1FN,
  F8E3M4,
  F8E4M3,
  F8E4M3FN,
  F8E4M3FNUZ,
  F8E4M3B11FNUZ,
  F8E5M2,
  F8E5M2FNUZ,
  F8E8M0FNU,
  Token,
  Opaque,
  Tuple,
};

/// XLA's spelling: "f32", "bf16", "pred", "token", ...
std::string_view elementTypeName(ElementType type);
/// The element type spelled `name`; tuples have no name.
std::optional<ElementType> parseElementType(std::string_view name);

bool isFloating(ElementType type);
/// Bytes one element takes in memory, as XLA stores it unpacked: a byte
/// for pred and the sub-byte types; 0 for token, opaque and tuple.
int elementByteSize(ElementType type);
bool isComplex(ElementType type);
bool isSignedInteger(ElementType type);
bool isUnsignedInteger(ElementType type);
/// Storage width in bits (pred is 1); 0 for tokens, tuples and opaque values.
int elementBitWidth(ElementType type);

/// `?` in a dimension: unbounded dynamic size.
constexpr int64_t kUnboundedSize = -1;

/// An array shape (element type, dimensions, optional layout), a token or
/// opaque value, or a tuple of shapes. The layout is kept as text because
/// tiled and memory-space layouts (`{1,0:T(8,128)S(1)}`) only need to
/// survive printing; nothing here reasons about physical layout.
class Shape {
public:
  /// The empty tuple `()`.
  Shape() = default;
  static Shape array(ElementType type, std::vector<int64_t> dims,
                     std::string layout = "");
  static Shape tuple(std::vector<Shape> elements);
  static Shape scalar(ElementType type) { return array(type, {}); }

  ElementType type() const { return elementType; }
  bool isTuple() const { return elementType == ElementType::Tuple; }
  /// True for arrays and scalars: not a tuple, token or opaque value.
  bool isArray() const;

  const std::vector<int64_t> &dims() const { return dimensions; }
  int64_t rank() const { return static_cast<int64_t>(dimensions.size()); }
  int64_t dim(int64_t i) const { return dimensions[i]; }
  /// `<=N` (bounded, size N is the bound) or `?` (unbounded).
  bool isDynamicDim(int64_t i) const { return !dynamic.empty() && dynamic[i]; }
  void setDynamicDim(int64_t i, bool isDynamic);

  const std::vector<Shape> &tupleShapes() const { return elements; }
  const Shape &tupleShape(size_t i) const { return elements[i]; }

  /// The layout as written, braces included (`{1,0}`), or empty.
  const std::string &layout() const { return layoutText; }
  bool hasLayout() const { return !layoutText.empty(); }
  void setLayout(std::string layout) { layoutText = std::move(layout); }

  /// Elements of an array (bounds for dynamic dimensions; 1 for a scalar);
  /// 0 for tuples, tokens and opaque values.
  int64_t elementCount() const;
  /// Elements over all array leaves of a tuple.
  int64_t elementCountRecursive() const;
  /// Bytes of the array, or of every array inside a tuple.
  int64_t byteSizeRecursive() const;

  /// Same element types and dimensions everywhere; layouts may differ.
  bool compatible(const Shape &other) const;
  bool operator==(const Shape &other) const;
  bool operator!=(const Shape &other) const { return !(*this == other); }

  /// XLA's text form: `f32[2,3]{1,0}`, `(f32[], /*index=5*/s32[])`.
  std::string toString(bool withLayout = true) const;
  void print(std::string &out, bool withLayout = true) const;

private:
  ElementType elementType = ElementType::Tuple;
  std::vector<int64_t> dimensions;
  std::vector<bool> dynamic; // empty when every dimension is static
  std::vector<Shape> elements;
  std::string layoutText;
};

/// Parses one shape, e.g. "bf16[8,128]{1,0:T(8,128)}". Errors name the
/// column.
Result<Shape> parseShape(std::string_view text);

} // namespace rlopt::graph

#endif
