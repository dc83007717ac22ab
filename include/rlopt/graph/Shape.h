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

/// What arithmetic an element type takes.
enum class ElementKind : unsigned char {
  Other,
  Signed,
  Unsigned,
  Floating,
  Complex
};

// X(Enumerator, XLA's spelling, storage bits, kind). Bits are 1 for pred
// and 0 for values that are not numbers.
#define RLOPT_HLO_ELEMENT_TYPES(X)                                             \
  X(Pred, "pred", 1, Other)                                                    \
  X(S2, "s2", 2, Signed)                                                       \
  X(S4, "s4", 4, Signed)                                                       \
  X(S8, "s8", 8, Signed)                                                       \
  X(S16, "s16", 16, Signed)                                                    \
  X(S32, "s32", 32, Signed)                                                    \
  X(S64, "s64", 64, Signed)                                                    \
  X(U2, "u2", 2, Unsigned)                                                     \
  X(U4, "u4", 4, Unsigned)                                                     \
  X(U8, "u8", 8, Unsigned)                                                     \
  X(U16, "u16", 16, Unsigned)                                                  \
  X(U32, "u32", 32, Unsigned)                                                  \
  X(U64, "u64", 64, Unsigned)                                                  \
  X(F16, "f16", 16, Floating)                                                  \
  X(BF16, "bf16", 16, Floating)                                                \
  X(F32, "f32", 32, Floating)                                                  \
  X(F64, "f64", 64, Floating)                                                  \
  X(C64, "c64", 64, Complex)                                                   \
  X(C128, "c128", 128, Complex)                                                \
  X(F4E2M1FN, "f4e2m1fn", 4, Floating)                                         \
  X(F8E3M4, "f8e3m4", 8, Floating)                                             \
  X(F8E4M3, "f8e4m3", 8, Floating)                                             \
  X(F8E4M3FN, "f8e4m3fn", 8, Floating)                                         \
  X(F8E4M3FNUZ, "f8e4m3fnuz", 8, Floating)                                     \
  X(F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8, Floating)                               \
  X(F8E5M2, "f8e5m2", 8, Floating)                                             \
  X(F8E5M2FNUZ, "f8e5m2fnuz", 8, Floating)                                     \
  X(F8E8M0FNU, "f8e8m0fnu", 8, Floating)                                       \
  X(Token, "token", 0, Other)                                                  \
  X(Opaque, "opaque", 0, Other)                                                \
  X(Tuple, "tuple", 0, Other)

#define RLOPT_HLO_ELEMENT_ENUM(Enumerator, Name, Bits, Kind) Enumerator,
enum class ElementType : unsigned char {
  RLOPT_HLO_ELEMENT_TYPES(RLOPT_HLO_ELEMENT_ENUM)
};
#undef RLOPT_HLO_ELEMENT_ENUM

/// XLA's spelling: "f32", "bf16", "pred", "token", ...
std::string_view elementTypeName(ElementType type);
/// The element type spelled `name`; tuples have no name.
std::optional<ElementType> parseElementType(std::string_view name);

ElementKind elementKind(ElementType type);
inline bool isFloating(ElementType type) {
  return elementKind(type) == ElementKind::Floating;
}
inline bool isComplex(ElementType type) {
  return elementKind(type) == ElementKind::Complex;
}
inline bool isSignedInteger(ElementType type) {
  return elementKind(type) == ElementKind::Signed;
}
inline bool isUnsignedInteger(ElementType type) {
  return elementKind(type) == ElementKind::Unsigned;
}
/// Storage width in bits (pred is 1); 0 for tokens, tuples and opaque values.
int elementBitWidth(ElementType type);
/// Bytes one element takes in memory, as XLA stores it unpacked: a byte
/// for pred and the sub-byte types; 0 for token, opaque and tuple.
inline int elementByteSize(ElementType type) {
  return (elementBitWidth(type) + 7) / 8;
}

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
