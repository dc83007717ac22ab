// Expanders and single-op simplifiers: batch-norm, logistic, comparison,
// real/imag, optimization barrier, gather, zero-sized instructions,
// collectives over one-member groups, constant splitting, sort and
// conditional simplification.
#include "PassTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const Instruction *rootOf(const Module &module) {
  return module.entry()->root();
}

TEST(PassBatchNormExpander, ExpandsTrainingInferenceAndGrad) {
  Module module = expectRewrite("batchnorm-expander", R"(
HloModule m
ENTRY e {
  x = f32[2,3,4] parameter(0)
  scale = f32[3] parameter(1)
  offset = f32[3] parameter(2)
  mean = f32[3] parameter(3)
  variance = f32[3] parameter(4)
  dy = f32[2,3,4] parameter(5)
  t = (f32[2,3,4], f32[3], f32[3]) batch-norm-training(x, scale, offset), epsilon=0.001, feature_index=1
  i = f32[2,3,4] batch-norm-inference(x, scale, offset, mean, variance), epsilon=0.001, feature_index=1
  g = (f32[2,3,4], f32[3], f32[3]) batch-norm-grad(x, scale, mean, variance, dy), epsilon=0.001, feature_index=1
  ROOT r = ((f32[2,3,4], f32[3], f32[3]), f32[2,3,4], (f32[2,3,4], f32[3], f32[3])) tuple(t, i, g)
})");
  EXPECT_EQ(countOf(module, Opcode::BatchNormTraining), 0);
  EXPECT_EQ(countOf(module, Opcode::BatchNormInference), 0);
  EXPECT_EQ(countOf(module, Opcode::BatchNormGrad), 0);
  EXPECT_GT(countOf(module, Opcode::Reduce), 0);
}

TEST(PassBatchNormExpander, NothingToExpand) {
  expectNoRewrite("batchnorm-expander", R"(
HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(x)
})");
}

TEST(PassLogisticExpander, ExpandsLogistic) {
  Module module = expectRewrite("logistic-expander", R"(
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  ROOT l = f32[5] logistic(x)
})");
  EXPECT_EQ(countOf(module, Opcode::Logistic), 0);
  EXPECT_EQ(countOf(module, Opcode::Exp), 1);
}

TEST(PassLogisticExpander, NothingToExpand) {
  expectNoRewrite("logistic-expander", R"(
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  ROOT l = f32[5] tanh(x)
})");
}

TEST(PassComparisonExpander, TotalOrderBecomesIntegerCompare) {
  Module module = expectRewrite("comparison-expander", R"(
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  y = f32[5] parameter(1)
  ROOT c = pred[5] compare(x, y), direction=LT, type=TOTALORDER
})");
  EXPECT_EQ(rootOf(module)->operand(0)->shape().type(), ElementType::S32);
  EXPECT_EQ(countOf(module, Opcode::BitcastConvert), 2);
}

TEST(PassComparisonExpander, KeepsPartialOrderCompares) {
  expectNoRewrite("comparison-expander", R"(
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  y = f32[5] parameter(1)
  ROOT c = pred[5] compare(x, y), direction=LT
})");
}

TEST(PassRealImagExpander, RealOfRealIsItself) {
  Module module = expectRewrite("real-imag-expander", R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  r = f32[3] real(x)
  i = f32[3] imag(x)
  ROOT s = f32[3] add(r, i)
})");
  EXPECT_EQ(countOf(module, Opcode::Real), 0);
  EXPECT_EQ(countOf(module, Opcode::Imag), 0);
}

TEST(PassRealImagExpander, KeepsComplexOperands) {
  expectNoRewrite("real-imag-expander", R"(
HloModule m
ENTRY e {
  x = c64[3] parameter(0)
  ROOT r = f32[3] real(x)
})");
}

TEST(PassOptimizationBarrierExpander, RemovesBarriers) {
  Module module = expectRewrite("optimization-barrier-expander", R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  y = f32[3] parameter(1)
  t = (f32[3], f32[3]) tuple(x, y)
  b = (f32[3], f32[3]) opt-barrier(t)
  g = f32[3] get-tuple-element(b), index=0
  ROOT n = f32[3] negate(g)
})");
  EXPECT_EQ(countOf(module, Opcode::OptimizationBarrier), 0);
}

TEST(PassOptimizationBarrierExpander, NothingToRemove) {
  expectNoRewrite("optimization-barrier-expander", R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  ROOT n = f32[3] negate(x)
})");
}

TEST(PassGatherExpander, SingleSliceGatherBecomesDynamicSlice) {
  Module module = expectRewrite("gather-expander", R"(
HloModule m
ENTRY e {
  table = f32[7,4] parameter(0)
  index = s32[1] parameter(1)
  ROOT g = f32[4] gather(table, index), offset_dims={0}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=0, slice_sizes={1,4}
})");
  EXPECT_EQ(countOf(module, Opcode::Gather), 0);
  EXPECT_EQ(countOf(module, Opcode::DynamicSlice), 1);
}

TEST(PassGatherExpander, KnownIndicesBecomeConstantStarts) {
  Module module = expectRewrite("gather-expander", R"(
HloModule m
ENTRY e {
  table = f32[7,4] parameter(0)
  index = s32[1,2] constant({ {5, 1} })
  ROOT g = f32[1,3] gather(table, index), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,3}
})");
  EXPECT_EQ(countOf(module, Opcode::Gather), 0);
  EXPECT_EQ(countOf(module, Opcode::Slice), 0);
  EXPECT_EQ(countOf(module, Opcode::DynamicSlice), 1);
}

TEST(PassGatherExpander, KeepsMultiSliceGathers) {
  expectNoRewrite("gather-expander", R"(
HloModule m
ENTRY e {
  table = f32[7,4] parameter(0)
  indices = s32[3] parameter(1)
  ROOT g = f32[3,4] gather(table, indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
})");
}

TEST(PassZeroSizedHloElimination, EmptyResultsBecomeConstants) {
  Module module = expectRewrite("zero-sized-hlo-elimination", R"(
HloModule m
ENTRY e {
  x = f32[0,3] parameter(0)
  n = f32[0,3] negate(x)
  y = f32[2,3] parameter(1)
  ROOT c = f32[2,3] concatenate(n, y), dimensions={0}
})");
  EXPECT_EQ(countOf(module, Opcode::Negate), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->opcode(), Opcode::Constant);
}

TEST(PassZeroSizedHloElimination, KeepsNonEmptyResults) {
  expectNoRewrite("zero-sized-hlo-elimination", R"(
HloModule m
ENTRY e {
  x = f32[1,3] parameter(0)
  ROOT n = f32[1,3] negate(x)
})");
}

const char *kAllReduce = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(x), replica_groups=GROUPS, to_apply=add
})";

std::string allReduceOver(const char *groups) {
  std::string text = kAllReduce;
  text.replace(text.find("GROUPS"), 6, groups);
  return text;
}

TEST(PassAllReduceSimplifier, OneMemberGroupsExchangeNothing) {
  Module module =
      expectRewrite("all-reduce-simplifier", allReduceOver("{{0},{1}}"));
  EXPECT_EQ(countOf(module, Opcode::AllReduce), 0);
}

TEST(PassAllReduceSimplifier, KeepsRealExchanges) {
  // Two replicas sum their values, whatever one device computes.
  expectNoRewrite("all-reduce-simplifier", allReduceOver("{{0,1}}"));
  expectNoRewrite("all-reduce-simplifier", allReduceOver("{}"));
}

TEST(PassConstantSplitter, GivesEachUserItsOwnConstant) {
  Module module = expectRewrite("hlo-constant-splitter", R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  c = f32[3] constant({1, 2, 3})
  a = f32[3] add(x, c)
  ROOT m = f32[3] multiply(a, c)
})");
  EXPECT_EQ(countOf(module, Opcode::Constant), 2);
}

TEST(PassConstantSplitter, KeepsSingleUseAndElidedConstants) {
  expectNoRewrite("hlo-constant-splitter", R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  c = f32[3] constant({1, 2, 3})
  k = f32[3] constant({...})
  a = f32[3] add(x, c)
  b = f32[3] add(a, k)
  ROOT m = f32[3] multiply(b, k)
})");
}

const char *kSortPair = R"(
HloModule m
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  keys = f32[5] parameter(0)
  values = s32[5] parameter(1)
  s = (f32[5], s32[5]) sort(keys, values), dimensions={0}, to_apply=less
  ROOT k = READ
})";

std::string sortReading(const char *read) {
  std::string text = kSortPair;
  text.replace(text.find("READ"), 4, read);
  return text;
}

TEST(PassSortSimplifier, DropsUnreadOperands) {
  // Only the keys are read: the values ride along for nothing.
  Module module = expectRewrite(
      "sort-simplifier", sortReading("f32[5] get-tuple-element(s), index=0"));
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Sort);
  EXPECT_EQ(rootOf(module)->operandCount(), 1u);
}

TEST(PassSortSimplifier, KeepsOperandsTheComparatorReads) {
  expectNoRewrite("sort-simplifier",
                  sortReading("s32[5] get-tuple-element(s), index=1"));
}

const char *kConditional = R"(
HloModule m
yes {
  a = f32[3] parameter(0)
  ROOT n = f32[3] negate(a)
}
no {
  b = f32[3] parameter(0)
  ROOT ex = f32[3] exponential(b)
}
ENTRY e {
  x = f32[3] parameter(0)
  p = pred[] PREDICATE
  ROOT c = f32[3] conditional(p, x, x), true_computation=yes, false_computation=no
})";

std::string conditionalOn(const char *predicate) {
  std::string text = kConditional;
  text.replace(text.find("PREDICATE"), 9, predicate);
  return text;
}

TEST(PassConditionalSimplifier, ConstantPredicatePicksTheBranch) {
  Module module =
      expectRewrite("conditional-simplifier", conditionalOn("constant(false)"));
  EXPECT_EQ(countEntryOps(module).count(Opcode::Conditional), 0);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Exp);
}

TEST(PassConditionalSimplifier, KeepsComputedPredicates) {
  expectNoRewrite("conditional-simplifier", conditionalOn("parameter(1)"));
}

} // namespace
