// reduce (single-op and variadic reducers, and a reducer the scalar
// compiler cannot take), reduce-window, select-and-scatter and sort.
#include "InterpreterTestUtil.h"

#include <limits>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

namespace {

const char *kAdd = R"(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
)";

const char *kMax = R"(
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}
)";

} // namespace

TEST(InterpreterReduce, AddOverEachDimensionAndAll) {
  std::string text = std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  x = f32[2,3] parameter(0)
  zero = f32[] constant(0)
  rows = f32[2] reduce(x, zero), dimensions={1}, to_apply=add
  columns = f32[3] reduce(x, zero), dimensions={0}, to_apply=add
  all = f32[] reduce(x, zero), dimensions={0,1}, to_apply=add
  ROOT t = (f32[2], f32[3], f32[]) tuple(rows, columns, all)
})";
  Value result = run(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(result.elements[0].data, (Data{6, 15}));
  EXPECT_EQ(result.elements[1].data, (Data{5, 7, 9}));
  EXPECT_EQ(result.elements[2].data, (Data{21}));
}

TEST(InterpreterReduce, MaxReducerWithInitialValue) {
  std::string text = std::string("HloModule m\n") + kMax + R"(
ENTRY e {
  x = f32[2,3] parameter(0)
  init = f32[] constant(-inf)
  floor = f32[] constant(4)
  a = f32[3] reduce(x, init), dimensions={0}, to_apply=max
  b = f32[3] reduce(x, floor), dimensions={0}, to_apply=max
  ROOT t = (f32[3], f32[3]) tuple(a, b)
})";
  Value result = run(text, {f32({2, 3}, {1, 7, -3, 2, -8, -5})});
  EXPECT_EQ(result.elements[0].data, (Data{2, 7, -3}));
  EXPECT_EQ(result.elements[1].data, (Data{4, 7, 4}));
}

TEST(InterpreterReduce, VariadicArgmax) {
  std::string text = R"(HloModule m
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  keep = pred[] compare(v0, v1), direction=GE
  v = f32[] select(keep, v0, v1)
  i = s32[] select(keep, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[2,4] parameter(0)
  idx = s32[2,4] iota(), iota_dimension=1
  lowest = f32[] constant(-inf)
  none = s32[] constant(-1)
  ROOT r = (f32[2], s32[2]) reduce(x, idx, lowest, none), dimensions={1}, to_apply=argmax
})";
  Value result = run(text, {f32({2, 4}, {3, 9, 9, 1, -1, -5, -0.5, -7})});
  EXPECT_EQ(result.elements[0].data, (Data{9, -0.5}));
  // Ties keep the first index.
  EXPECT_EQ(result.elements[1].data, (Data{1, 2}));
}

TEST(InterpreterReduce, ReducerThatCallsAComputation) {
  // A call inside the reducer is not a scalar elementwise op: the reducer
  // runs through the full interpreter and must agree.
  std::string text = std::string("HloModule m\n") + kAdd + R"(
viaCall {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] call(x, y), to_apply=add
}
ENTRY e {
  x = f32[2,3] parameter(0)
  zero = f32[] constant(0)
  ROOT rows = f32[2] reduce(x, zero), dimensions={1}, to_apply=viaCall
})";
  EXPECT_EQ(run(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}).data, (Data{6, 15}));
}

TEST(InterpreterReduce, ReduceWindowSumAndMaxPool) {
  std::string text = std::string("HloModule m\n") + kAdd + kMax + R"(
ENTRY e {
  v = f32[4] parameter(0)
  img = f32[4,4] parameter(1)
  zero = f32[] constant(0)
  lowest = f32[] constant(-inf)
  sums = f32[4] reduce-window(v, zero), window={size=2 pad=0_1}, to_apply=add
  pooled = f32[2,2] reduce-window(img, lowest), window={size=2x2 stride=2x2}, to_apply=max
  ROOT t = (f32[4], f32[2,2]) tuple(sums, pooled)
})";
  Value img = f32({4, 4}, {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 1, 1, 9, 0, 1, 2});
  Value result = run(text, {f32({4}, {1, 2, 3, 4}), img});
  EXPECT_EQ(result.elements[0].data, (Data{3, 5, 7, 4}));
  EXPECT_EQ(result.elements[1].data, (Data{5, 8, 9, 2}));
}

TEST(InterpreterReduce, ReduceWindowWithBaseDilation) {
  std::string text = std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  v = f32[3] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[4] reduce-window(v, zero), window={size=2 lhs_dilate=2}, to_apply=add
})";
  // Dilated input [1, _, 2, _, 3]: holes are skipped.
  EXPECT_EQ(run(text, {f32({3}, {1, 2, 3})}).data, (Data{1, 2, 2, 3}));
}

TEST(InterpreterReduce, SelectAndScatterRoutesToTheWindowMaximum) {
  std::string text = std::string("HloModule m\n") + kAdd + R"(
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY e {
  x = f32[4] parameter(0)
  source = f32[2] parameter(1)
  zero = f32[] constant(0)
  ROOT s = f32[4] select-and-scatter(x, source, zero), window={size=2 stride=2}, select=ge, scatter=add
})";
  EXPECT_EQ(run(text, {f32({4}, {1, 5, 3, 2}), f32({2}, {10, 20})}).data,
            (Data{0, 10, 20, 0}));
}

TEST(InterpreterSort, AscendingDescendingAndStable) {
  std::string text = R"(HloModule m
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ia = s32[] parameter(2)
  ib = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT
}
gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GT
}
ENTRY e {
  keys = f32[2,4] parameter(0)
  idx = s32[2,4] iota(), iota_dimension=1
  up = (f32[2,4], s32[2,4]) sort(keys, idx), dimensions={1}, is_stable=true, to_apply=lt
  down = f32[2,4] sort(keys), dimensions={1}, to_apply=gt
  ROOT t = ((f32[2,4], s32[2,4]), f32[2,4]) tuple(up, down)
})";
  Value result = run(text, {f32({2, 4}, {3, 1, 2, 1, 0, -1, 5, 0})});
  ASSERT_EQ(result.elements.size(), 2u);
  EXPECT_EQ(result.elements[0].elements[0].data,
            (Data{1, 1, 2, 3, -1, 0, 0, 5}));
  // Equal keys keep their order: the indices say which went first.
  EXPECT_EQ(result.elements[0].elements[1].data,
            (Data{1, 3, 2, 0, 1, 0, 3, 2}));
  EXPECT_EQ(result.elements[1].data, (Data{3, 2, 1, 1, 5, 0, 0, -1}));
}

TEST(InterpreterSort, AlongTheLeadingDimension) {
  std::string text = R"(HloModule m
lt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
ENTRY e {
  x = s32[3,2] parameter(0)
  ROOT s = s32[3,2] sort(x), dimensions={0}, to_apply=lt
})";
  EXPECT_EQ(run(text, {s32({3, 2}, {5, 0, 1, 2, 3, -1})}).data,
            (Data{1, -1, 3, 0, 5, 2}));
}
