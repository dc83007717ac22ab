// gather and scatter with XLA's dimension numbers.
#include "InterpreterTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

TEST(InterpreterGather, EmbeddingLookupClampsIndices) {
  std::string text = R"(HloModule m
ENTRY e {
  table = f32[3,2] parameter(0)
  ids = s32[3] parameter(1)
  ROOT rows = f32[3,2] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
})";
  Value table = f32({3, 2}, {0, 1, 10, 11, 20, 21});
  // Index 7 is past the end: gather clamps it to the last row.
  EXPECT_EQ(run(text, {table, s32({3}, {2, 0, 7})}).data,
            (Data{20, 21, 0, 1, 20, 21}));
}

TEST(InterpreterGather, TwoDimensionalStartsWithWindows) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[3,3] parameter(0)
  starts = s32[2,2] parameter(1)
  ROOT g = f32[2,2,2] gather(x, starts), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2}
})";
  Value x = f32({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  // 2x2 windows at (0,0) and (1,1).
  EXPECT_EQ(run(text, {x, s32({2, 2}, {0, 0, 1, 1})}).data,
            (Data{0, 1, 3, 4, 4, 5, 7, 8}));
}

TEST(InterpreterScatter, AddAccumulatesAndSkipsOutOfBounds) {
  std::string text = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  base = f32[3] parameter(0)
  ids = s32[4,1] parameter(1)
  updates = f32[4] parameter(2)
  ROOT s = f32[3] scatter(base, ids, updates), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})";
  // Index 5 is out of bounds: scatter skips that update.
  EXPECT_EQ(run(text, {f32({3}, {100, 200, 300}), s32({4, 1}, {0, 2, 0, 5}),
                       f32({4}, {1, 2, 3, 4})})
                .data,
            (Data{104, 200, 302}));
}

TEST(InterpreterScatter, ReplaceRowsWithWindows) {
  std::string text = R"(HloModule m
replace {
  old = f32[] parameter(0)
  ROOT new = f32[] parameter(1)
}
ENTRY e {
  base = f32[3,2] parameter(0)
  ids = s32[1] parameter(1)
  rows = f32[1,2] parameter(2)
  ROOT s = f32[3,2] scatter(base, ids, rows), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=replace
})";
  Value base = f32({3, 2}, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(run(text, {base, s32({1}, {1}), f32({1, 2}, {7, 8})}).data,
            (Data{0, 0, 7, 8, 0, 0}));
}
