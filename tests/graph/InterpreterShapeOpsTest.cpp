// Data-movement opcodes: broadcast, reshape, transpose, slice, reverse,
// dynamic-slice and dynamic-update-slice with XLA's clamping, concatenate,
// pad (negative and interior), iota.
#include "InterpreterTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

TEST(InterpreterShapeOps, BroadcastReshapeTranspose) {
  std::string text = R"(HloModule m
ENTRY e {
  v = f32[2] parameter(0)
  m = f32[2,3] parameter(1)
  rows = f32[2,3] broadcast(v), dimensions={0}
  scalar = f32[] constant(7)
  filled = f32[2,2] broadcast(scalar), dimensions={}
  flat = f32[3,2] reshape(m)
  swapped = f32[3,2] transpose(m), dimensions={1,0}
  ROOT t = (f32[2,3], f32[2,2], f32[3,2], f32[3,2]) tuple(rows, filled, flat, swapped)
})";
  Value result = run(text, {f32({2}, {1, 2}), f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(result.elements.size(), 4u);
  EXPECT_EQ(result.elements[0].data, (Data{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(result.elements[1].data, (Data{7, 7, 7, 7}));
  EXPECT_EQ(result.elements[2].data, (Data{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(result.elements[3].data, (Data{1, 4, 2, 5, 3, 6}));
}

TEST(InterpreterShapeOps, BroadcastIntoAMiddleDimension) {
  std::string text = R"(HloModule m
ENTRY e {
  v = f32[3] parameter(0)
  ROOT b = f32[2,3,2] broadcast(v), dimensions={1}
})";
  EXPECT_EQ(run(text, {f32({3}, {1, 2, 3})}).data,
            (Data{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(InterpreterShapeOps, Transpose3D) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2,3,2] parameter(0)
  ROOT t = f32[2,2,3] transpose(x), dimensions={2,0,1}
})";
  // t[i][j][k] = x[j][k][i].
  Value x = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_EQ(run(text, {x}).data, (Data{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
}

TEST(InterpreterShapeOps, SliceWithStridesAndReverse) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[3,4] parameter(0)
  s = f32[2,2] slice(x), slice={[1:3], [0:4:2]}
  r = f32[3,4] reverse(x), dimensions={1}
  ROOT t = (f32[2,2], f32[3,4]) tuple(s, r)
})";
  Value x = f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  Value result = run(text, {x});
  EXPECT_EQ(result.elements[0].data, (Data{4, 6, 8, 10}));
  EXPECT_EQ(result.elements[1].data,
            (Data{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
}

TEST(InterpreterShapeOps, DynamicSliceClampsStartIndices) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[3,4] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  ROOT d = f32[2,2] dynamic-slice(x, i, j), dynamic_slice_sizes={2,2}
})";
  Value x = f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_EQ(run(text, {x, s32({}, {1}), s32({}, {1})}).data,
            (Data{5, 6, 9, 10}));
  // Starts past the end clamp to dim - size; negative starts clamp to 0.
  EXPECT_EQ(run(text, {x, s32({}, {5}), s32({}, {-3})}).data,
            (Data{4, 5, 8, 9}));
}

TEST(InterpreterShapeOps, DynamicUpdateSliceClampsAndKeepsTheRest) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  u = f32[1,2] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT d = f32[2,3] dynamic-update-slice(x, u, i, j)
})";
  Value x = f32({2, 3}, {0, 1, 2, 3, 4, 5});
  Value u = f32({1, 2}, {-1, -2});
  EXPECT_EQ(run(text, {x, u, s32({}, {0}), s32({}, {1})}).data,
            (Data{0, -1, -2, 3, 4, 5}));
  EXPECT_EQ(run(text, {x, u, s32({}, {9}), s32({}, {9})}).data,
            (Data{0, 1, 2, 3, -1, -2}));
}

TEST(InterpreterShapeOps, ConcatenateAlongEitherDimension) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,1] parameter(0)
  b = f32[2,2] parameter(1)
  c = f32[2,3] concatenate(a, b), dimensions={1}
  d = f32[4,1] concatenate(a, a), dimensions={0}
  ROOT t = (f32[2,3], f32[4,1]) tuple(c, d)
})";
  Value result = run(text, {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})});
  EXPECT_EQ(result.elements[0].data, (Data{1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(result.elements[1].data, (Data{1, 2, 1, 2}));
}

TEST(InterpreterShapeOps, PadLowHighInteriorAndNegative) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  zero = f32[] constant(0)
  a = f32[7] pad(x, zero), padding=1_1_1
  b = f32[5] pad(x, zero), padding=1_-1_1
  c = f32[1] pad(x, zero), padding=-2_0
  ROOT t = (f32[7], f32[5], f32[1]) tuple(a, b, c)
})";
  Value result = run(text, {f32({3}, {1, 2, 3})});
  EXPECT_EQ(result.elements[0].data, (Data{0, 1, 0, 2, 0, 3, 0}));
  EXPECT_EQ(result.elements[1].data, (Data{0, 1, 0, 2, 0}));
  EXPECT_EQ(result.elements[2].data, (Data{3}));
}

TEST(InterpreterShapeOps, Pad2D) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2,2] parameter(0)
  p = f32[] constant(9)
  ROOT y = f32[3,4] pad(x, p), padding=0_1x1_1
})";
  EXPECT_EQ(run(text, {f32({2, 2}, {1, 2, 3, 4})}).data,
            (Data{9, 1, 2, 9, 9, 3, 4, 9, 9, 9, 9, 9}));
}

TEST(InterpreterShapeOps, IotaAlongADimension) {
  std::string text = R"(HloModule m
ENTRY e {
  ROOT i = s32[2,3] iota(), iota_dimension=1
})";
  EXPECT_EQ(run(text, {}).data, (Data{0, 1, 2, 0, 1, 2}));
}
