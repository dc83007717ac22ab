// scatter-expander (one-window scatters at known in-range indices) and
// reduce-decomposer (variadic reduces split into independent parts).
#include "PassTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

int64_t entryCountOf(const Module &module, Opcode opcode) {
  return countOps(*module.entry()).count(opcode);
}

// A module of the computation `combine` (its whole body) and the entry
// computation `entry`.
std::string scatterModule(const std::string &combine,
                          const std::string &entry) {
  return "HloModule m\ncombine {\n" + combine + "}\nENTRY e {\n" + entry +
         "}\n";
}

const char *kAssign = "  a = f32[] parameter(0)\n"
                      "  ROOT b = f32[] parameter(1)\n";
const char *kAdd = "  a = f32[] parameter(0)\n"
                   "  b = f32[] parameter(1)\n"
                   "  ROOT r = f32[] add(a, b)\n";

TEST(PassScatterExpander, AssigningScatterBecomesDynamicUpdateSlice) {
  Module module = expectRewrite("scatter-expander", scatterModule(kAssign, R"(
  cache = f32[5,4] parameter(0)
  row = f32[1,4] parameter(1)
  at = s32[1] constant({3})
  ROOT s = f32[5,4] scatter(cache, at, row), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
)"));
  EXPECT_EQ(entryCountOf(module, Opcode::Scatter), 0);
  EXPECT_EQ(module.entry()->root()->opcode(), Opcode::DynamicUpdateSlice);
  // The update already has the window's shape; the index is a constant.
  EXPECT_EQ(entryCountOf(module, Opcode::Reshape), 0);
  EXPECT_EQ(entryCountOf(module, Opcode::Slice), 0);
}

TEST(PassScatterExpander, AddingScatterBecomesSliceAddUpdate) {
  Module module = expectRewrite("scatter-expander", scatterModule(kAdd, R"(
  x = f32[3,5] parameter(0)
  u = f32[2,3] parameter(1)
  at = s32[2] constant({1, 2})
  ROOT s = f32[3,5] scatter(x, at, u), update_window_dims={0,1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=0, to_apply=combine
)"));
  EXPECT_EQ(entryCountOf(module, Opcode::Scatter), 0);
  EXPECT_EQ(entryCountOf(module, Opcode::DynamicSlice), 1);
  EXPECT_EQ(entryCountOf(module, Opcode::Add), 1);
  EXPECT_EQ(entryCountOf(module, Opcode::DynamicUpdateSlice), 1);
}

TEST(PassScatterExpander, InsertedDimsAndBroadcastIndicesAreReshaped) {
  // Window [1,3,2] at (3, 0, 1): the update loses no data to the reshape.
  Module module = expectRewrite("scatter-expander", R"(
HloModule m
times {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] multiply(b, a)
}
ENTRY e {
  x = f32[4,3,5] parameter(0)
  u = f32[3,2] parameter(1)
  at = s32[2] constant({3, 1})
  ROOT s = f32[4,3,5] scatter(x, at, u), update_window_dims={0,1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,2}, index_vector_dim=0, to_apply=times
})");
  EXPECT_EQ(entryCountOf(module, Opcode::Scatter), 0);
  EXPECT_EQ(entryCountOf(module, Opcode::Reshape), 1);
  EXPECT_EQ(entryCountOf(module, Opcode::Multiply), 1);

  Module broadcast = expectRewrite("scatter-expander", R"(
HloModule m
assign {
  a = pred[] parameter(0)
  ROOT b = pred[] parameter(1)
}
ENTRY e {
  f = pred[] constant(false)
  x = pred[6] broadcast(f), dimensions={}
  p = f32[5] parameter(0)
  z = f32[5] parameter(1)
  u = pred[5] compare(p, z), direction=GT
  one = s32[] constant(1)
  at = s32[1] broadcast(one), dimensions={}
  ROOT s = pred[6] scatter(x, at, u), update_window_dims={0}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=assign
})");
  EXPECT_EQ(entryCountOf(broadcast, Opcode::Scatter), 0);
  EXPECT_EQ(entryCountOf(broadcast, Opcode::DynamicUpdateSlice), 1);
}

TEST(PassScatterExpander, KeepsWindowsThatMightNotFit) {
  // Scatter skips a window out of range; dynamic-update-slice would clamp.
  expectNoRewrite("scatter-expander", scatterModule(kAssign, R"(
  x = f32[5,4] parameter(0)
  u = f32[2,4] parameter(1)
  at = s32[1] constant({4})
  ROOT s = f32[5,4] scatter(x, at, u), update_window_dims={0,1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=combine
)"));
  expectNoRewrite("scatter-expander", scatterModule(kAssign, R"(
  x = f32[5,4] parameter(0)
  u = f32[1,4] parameter(1)
  at = s32[1] parameter(2)
  ROOT s = f32[5,4] scatter(x, at, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
)"));
}

TEST(PassScatterExpander, KeepsSeveralWindowsAndOtherCombiners) {
  expectNoRewrite("scatter-expander", scatterModule(kAdd, R"(
  x = f32[5,4] parameter(0)
  u = f32[2,4] parameter(1)
  at = s32[2,1] constant({ {0}, {0} })
  ROOT s = f32[5,4] scatter(x, at, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
)"));
  expectNoRewrite("scatter-expander",
                  scatterModule("  a = f32[] parameter(0)\n"
                                "  b = f32[] parameter(1)\n"
                                "  m = f32[] multiply(b, b)\n"
                                "  ROOT r = f32[] add(a, m)\n",
                                R"(
  x = f32[5,4] parameter(0)
  u = f32[1,4] parameter(1)
  at = s32[1] constant({2})
  ROOT s = f32[5,4] scatter(x, at, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
)"));
}

TEST(PassReduceDecomposer, IndependentOutputsBecomeOneReduceEach) {
  Module module = expectRewrite("reduce-decomposer", R"(
HloModule m
sum_and_max {
  a0 = f32[] parameter(0)
  a1 = f32[] parameter(1)
  b0 = f32[] parameter(2)
  b1 = f32[] parameter(3)
  s = f32[] add(a0, b0)
  m = f32[] maximum(b1, a1)
  ROOT t = (f32[], f32[]) tuple(s, m)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  y = f32[4,6] parameter(1)
  z = f32[] constant(0)
  n = f32[] constant(-inf)
  r = (f32[4], f32[4]) reduce(x, y, z, n), dimensions={1}, to_apply=sum_and_max
  g0 = f32[4] get-tuple-element(r), index=0
  g1 = f32[4] get-tuple-element(r), index=1
  ROOT o = f32[4] subtract(g0, g1)
})");
  EXPECT_EQ(entryCountOf(module, Opcode::Reduce), 2);
  EXPECT_EQ(entryCountOf(module, Opcode::GetTupleElement), 0);
  EXPECT_EQ(entryCountOf(module, Opcode::Tuple), 0);
  for (const auto &instruction : module.entry()->instructions()) {
    if (instruction->opcode() == Opcode::Reduce) {
      EXPECT_FALSE(instruction->shape().isTuple());
    }
  }
}

TEST(PassReduceDecomposer, CoupledOutputsStayTogether) {
  // Outputs 0 and 2 form an argmax; output 1, a sum of squares, is apart.
  Module module = expectRewrite("reduce-decomposer", R"(
HloModule m
argmax_and_squares {
  v = f32[] parameter(0)
  q = f32[] parameter(1)
  i = s32[] parameter(2)
  w = f32[] parameter(3)
  p = f32[] parameter(4)
  j = s32[] parameter(5)
  keep = pred[] compare(v, w), direction=GE
  best = f32[] select(keep, v, w)
  index = s32[] select(keep, i, j)
  pp = f32[] multiply(p, p)
  sum = f32[] add(q, pp)
  ROOT t = (f32[], f32[], s32[]) tuple(best, sum, index)
}
ENTRY e {
  x = f32[3,5] parameter(0)
  y = f32[3,5] parameter(1)
  k = s32[3,5] iota(), iota_dimension=1
  low = f32[] constant(-inf)
  zero = f32[] constant(0)
  first = s32[] constant(0)
  ROOT r = (f32[3], f32[3], s32[3]) reduce(x, y, k, low, zero, first), dimensions={1}, to_apply=argmax_and_squares
})");
  EXPECT_EQ(entryCountOf(module, Opcode::Reduce), 2);
  EXPECT_EQ(module.entry()->root()->opcode(), Opcode::Tuple);
}

TEST(PassReduceDecomposer, KeepsArgmaxAndSingleReduces) {
  expectNoRewrite("reduce-decomposer", R"(
HloModule m
argmax {
  v = f32[] parameter(0)
  i = s32[] parameter(1)
  w = f32[] parameter(2)
  j = s32[] parameter(3)
  keep = pred[] compare(v, w), direction=GE
  best = f32[] select(keep, v, w)
  index = s32[] select(keep, i, j)
  ROOT t = (f32[], s32[]) tuple(best, index)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[3,5] parameter(0)
  k = s32[3,5] iota(), iota_dimension=1
  low = f32[] constant(-inf)
  first = s32[] constant(0)
  r = (f32[3], s32[3]) reduce(x, k, low, first), dimensions={1}, to_apply=argmax
  zero = f32[] constant(0)
  s = f32[3] reduce(x, zero), dimensions={1}, to_apply=add
  g = s32[3] get-tuple-element(r), index=1
  c = f32[3] convert(g)
  ROOT o = f32[3] add(s, c)
})");
}

} // namespace
