#include "rlopt/graph/Shape.h"

#include <gtest/gtest.h>

using namespace rlopt::graph;

static Shape parsed(const std::string &text) {
  auto shape = parseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.error().message;
  return shape ? shape.takeValue() : Shape();
}

TEST(Shape, ArrayWithLayout) {
  Shape shape = parsed("f32[2,3]{1,0}");
  EXPECT_EQ(shape.type(), ElementType::F32);
  EXPECT_EQ(shape.dims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(shape.layout(), "{1,0}");
  EXPECT_EQ(shape.elementCount(), 6);
  EXPECT_EQ(shape.toString(), "f32[2,3]{1,0}");
  EXPECT_EQ(shape.toString(/*withLayout=*/false), "f32[2,3]");
}

TEST(Shape, ScalarHasOneElement) {
  Shape shape = parsed("pred[]");
  EXPECT_EQ(shape.rank(), 0);
  EXPECT_EQ(shape.elementCount(), 1);
  EXPECT_FALSE(shape.hasLayout());
}

TEST(Shape, TiledLayoutIsKeptVerbatim) {
  for (const char *text : {"bf16[8,128]{1,0:T(8,128)(2,1)}",
                           "f32[1024]{0:T(1024)S(1)}", "s8[4,4]{0,1:E(8)}"})
    EXPECT_EQ(parsed(text).toString(), text);
}

TEST(Shape, NestedTuplesPrintIndexMarksEveryFifthElement) {
  Shape shape = parsed("(f32[], (s32[2]{0}, pred[]), u8[1], u8[2], u8[3], "
                       "/*index=5*/u8[4])");
  ASSERT_TRUE(shape.isTuple());
  ASSERT_EQ(shape.tupleShapes().size(), 6u);
  EXPECT_TRUE(shape.tupleShape(1).isTuple());
  EXPECT_EQ(shape.tupleShape(1).tupleShape(0).toString(), "s32[2]{0}");
  EXPECT_EQ(shape.elementCount(), 0);
  EXPECT_EQ(shape.elementCountRecursive(), 1 + 2 + 1 + 1 + 2 + 3 + 4);
  EXPECT_EQ(shape.toString(), "(f32[], (s32[2]{0}, pred[]), u8[1], u8[2], "
                              "u8[3], /*index=5*/u8[4])");
  EXPECT_EQ(parsed("()").toString(), "()");
}

TEST(Shape, DynamicDimensions) {
  Shape bounded = parsed("f32[<=10,5]");
  EXPECT_TRUE(bounded.isDynamicDim(0));
  EXPECT_FALSE(bounded.isDynamicDim(1));
  EXPECT_EQ(bounded.elementCount(), 50);
  EXPECT_EQ(bounded.toString(), "f32[<=10,5]");
  Shape unbounded = parsed("f32[?,3]");
  EXPECT_EQ(unbounded.dim(0), kUnboundedSize);
  EXPECT_EQ(unbounded.toString(), "f32[?,3]");
}

TEST(Shape, TokenAndOpaqueAreNotArrays) {
  for (const char *text : {"token[]", "opaque[]"}) {
    Shape shape = parsed(text);
    EXPECT_FALSE(shape.isArray());
    EXPECT_EQ(shape.elementCount(), 0);
    EXPECT_EQ(shape.toString(), text);
  }
}

TEST(Shape, CompatibleIgnoresLayout) {
  EXPECT_TRUE(parsed("f32[2,3]{1,0}").compatible(parsed("f32[2,3]{0,1}")));
  EXPECT_FALSE(parsed("f32[2,3]").compatible(parsed("f32[3,2]")));
  EXPECT_FALSE(parsed("f32[2]").compatible(parsed("s32[2]")));
  EXPECT_NE(parsed("f32[2,3]{1,0}"), parsed("f32[2,3]{0,1}"));
}

TEST(Shape, MalformedShapesAreErrorsWithAColumn) {
  struct Case {
    const char *text, *message;
  } cases[] = {
      {"f32[2", "shape:1:6: expected ']' after the dimensions"},
      {"x32[2]", "shape:1:1: expected a shape, got 'x32'"},
      {"f32[-1]", "shape:1:5: negative dimension size -1"},
      {"f32[2,", "shape:1:7: expected an integer as a dimension size"},
      {"f32[99999999999,99999999999]",
       "shape:1:1: shape has too many elements"},
      {"f32[2]{1,0",
       "shape:1:7: unbalanced '{' in layout: not closed on its line"},
      {"token[2]", "shape:1:1: token has no dimensions"},
      {"(f32[], s32[]", "shape:1:14: expected ')' to close the tuple shape"},
      {"f32[] junk", "shape:1:7: unexpected text after the shape"},
  };
  for (const Case &c : cases) {
    auto shape = parseShape(c.text);
    ASSERT_FALSE(shape.ok()) << c.text;
    EXPECT_EQ(shape.error().message.rfind(c.message, 0), 0u)
        << c.text << " -> " << shape.error().message;
  }
}

TEST(Shape, ElementsTakeWholeBytesAsXlaStoresThem) {
  EXPECT_EQ(elementByteSize(ElementType::Pred), 1);
  EXPECT_EQ(elementByteSize(ElementType::S4), 1);
  EXPECT_EQ(elementByteSize(ElementType::F8E4M3FN), 1);
  EXPECT_EQ(elementByteSize(ElementType::BF16), 2);
  EXPECT_EQ(elementByteSize(ElementType::U32), 4);
  EXPECT_EQ(elementByteSize(ElementType::C64), 8);
  EXPECT_EQ(elementByteSize(ElementType::C128), 16);
  EXPECT_EQ(elementByteSize(ElementType::Token), 0);
  EXPECT_EQ(elementByteSize(ElementType::Tuple), 0);
  EXPECT_EQ(elementBitWidth(ElementType::S4), 4);
}
