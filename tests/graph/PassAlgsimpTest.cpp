// The algebraic simplifier's rule groups and simplify-fp-conversions: each
// fires on a module made for it (and keeps its outputs) and leaves alone a
// look-alike it must not touch.
#include "PassTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const Instruction *rootOf(const Module &module) {
  return module.entry()->root();
}

TEST(PassAlgsimp, ArithDropsIdentitiesAndIntegerZeros) {
  Module module = expectRewrite("algsimp-arith", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = s32[4] parameter(1)
  zero = f32[] constant(0)
  zeros = f32[4] broadcast(zero), dimensions={}
  sum = f32[4] add(p, zeros)
  n1 = f32[4] negate(sum)
  n2 = f32[4] negate(n1)
  izero = s32[] constant(0)
  izeros = s32[4] broadcast(izero), dimensions={}
  product = s32[4] multiply(q, izeros)
  ROOT t = (f32[4], s32[4]) tuple(n2, product)
})");
  EXPECT_EQ(countOf(module, Opcode::Add), 0);
  EXPECT_EQ(countOf(module, Opcode::Negate), 0);
  EXPECT_EQ(countOf(module, Opcode::Multiply), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->opcode(), Opcode::Parameter);
}

TEST(PassAlgsimp, ArithKeepsFloatTimesZero) {
  // NaN * 0 and inf * 0 are NaN, not 0.
  expectNoRewrite("algsimp-arith", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  zeros = f32[4] broadcast(zero), dimensions={}
  ROOT product = f32[4] multiply(p, zeros)
})");
}

TEST(PassAlgsimp, NoOpRemovesReshapeTransposeConvertCopy) {
  Module module = expectRewrite("algsimp-noop", R"(
HloModule m
ENTRY e {
  p = f32[2,3] parameter(0)
  r = f32[2,3] reshape(p)
  t = f32[2,3] transpose(r), dimensions={0,1}
  c = f32[2,3] convert(t)
  ROOT k = f32[2,3] copy(c)
})");
  EXPECT_EQ(totalOps(module), 1);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Parameter);
}

TEST(PassAlgsimp, NoOpKeepsShapeChanges) {
  expectNoRewrite("algsimp-noop", R"(
HloModule m
ENTRY e {
  p = f32[2,3] parameter(0)
  r = f32[3,2] reshape(p)
  ROOT t = f32[2,3] transpose(r), dimensions={1,0}
})");
}

TEST(PassAlgsimp, ReshapeMergesChains) {
  Module module = expectRewrite("algsimp-reshape", R"(
HloModule m
ENTRY e {
  p = f32[2,3,4] parameter(0)
  r1 = f32[6,4] reshape(p)
  r2 = f32[24] reshape(r1)
  t1 = f32[4,3,2] transpose(p), dimensions={2,1,0}
  t2 = f32[2,3,4] transpose(t1), dimensions={2,1,0}
  ROOT t = (f32[24], f32[2,3,4]) tuple(r2, t2)
})");
  EXPECT_EQ(countOf(module, Opcode::Reshape), 1);
  EXPECT_EQ(countOf(module, Opcode::Transpose), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->operand(0)->opcode(),
            Opcode::Parameter);
}

TEST(PassAlgsimp, ReshapeKeepsReshapeOfTranspose) {
  expectNoRewrite("algsimp-reshape", R"(
HloModule m
ENTRY e {
  p = f32[2,3] parameter(0)
  t = f32[3,2] transpose(p), dimensions={1,0}
  ROOT r = f32[6] reshape(t)
})");
}

TEST(PassAlgsimp, BroadcastComposesAndSinks) {
  Module module = expectRewrite("algsimp-broadcast", R"(
HloModule m
ENTRY e {
  c = f32[] constant(2)
  b1 = f32[3] broadcast(c), dimensions={}
  b2 = f32[2,3] broadcast(b1), dimensions={1}
  n = f32[2,3] negate(b2)
  p = f32[2,3] parameter(0)
  ROOT s = f32[2,3] add(p, n)
})");
  // negate now works on the scalar, under one broadcast.
  const Instruction *negated = rootOf(module)->operand(1);
  EXPECT_EQ(negated->opcode(), Opcode::Broadcast);
  EXPECT_EQ(negated->operand(0)->opcode(), Opcode::Negate);
  EXPECT_EQ(negated->operand(0)->shape().rank(), 0);
  EXPECT_EQ(countOf(module, Opcode::Broadcast), 1);
}

TEST(PassAlgsimp, BroadcastKeepsMixedOperands) {
  expectNoRewrite("algsimp-broadcast", R"(
HloModule m
ENTRY e {
  p = f32[3] parameter(0)
  q = f32[2,3] parameter(1)
  b = f32[2,3] broadcast(p), dimensions={1}
  ROOT s = f32[2,3] add(b, q)
})");
}

TEST(PassAlgsimp, SelectWithConstantPredicateOrEqualBranches) {
  Module module = expectRewrite("algsimp-select", R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  t = pred[] constant(true)
  ts = pred[4] broadcast(t), dimensions={}
  s1 = f32[4] select(ts, a, b)
  p = pred[4] parameter(2)
  s2 = f32[4] select(p, b, b)
  i = s32[4] parameter(3)
  same = pred[4] compare(i, i), direction=GE
  ROOT r = (f32[4], f32[4], pred[4]) tuple(s1, s2, same)
})");
  EXPECT_EQ(countOf(module, Opcode::Select), 0);
  EXPECT_EQ(countOf(module, Opcode::Compare), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->name(), "a");
  EXPECT_EQ(rootOf(module)->operand(1)->name(), "b");
}

TEST(PassAlgsimp, SelectKeepsFloatSelfCompare) {
  // x == x is false for NaN.
  expectNoRewrite("algsimp-select", R"(
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT same = pred[4] compare(x, x), direction=EQ
})");
}

TEST(PassAlgsimp, ConcatMergesAdjacentSlices) {
  Module module = expectRewrite("algsimp-concat", R"(
HloModule m
ENTRY e {
  p = f32[6,2] parameter(0)
  a = f32[2,2] slice(p), slice={[0:2], [0:2]}
  b = f32[3,2] slice(p), slice={[2:5], [0:2]}
  ROOT c = f32[5,2] concatenate(a, b), dimensions={0}
})");
  EXPECT_EQ(countOf(module, Opcode::Concatenate), 0);
  EXPECT_EQ(countOf(module, Opcode::Slice), 1);
}

TEST(PassAlgsimp, ConcatKeepsSlicesWithAGap) {
  expectNoRewrite("algsimp-concat", R"(
HloModule m
ENTRY e {
  p = f32[6] parameter(0)
  a = f32[2] slice(p), slice={[0:2]}
  b = f32[2] slice(p), slice={[3:5]}
  ROOT c = f32[4] concatenate(a, b), dimensions={0}
})");
}

TEST(PassAlgsimp, SliceComposesAndResolvesConstantDynamicSlices) {
  Module module = expectRewrite("algsimp-slice", R"(
HloModule m
ENTRY e {
  p = f32[10] parameter(0)
  s1 = f32[8] slice(p), slice={[1:9]}
  s2 = f32[3] slice(s1), slice={[2:8:2]}
  i = s32[] constant(7)
  d = f32[4] dynamic-slice(p, i), dynamic_slice_sizes={4}
  ROOT t = (f32[3], f32[4]) tuple(s2, d)
})");
  EXPECT_EQ(countOf(module, Opcode::Slice), 2);
  EXPECT_EQ(countOf(module, Opcode::DynamicSlice), 0);
  // The start 7 clamps to 6 so the slice fits.
  EXPECT_EQ(rootOf(module)->operand(1)->slice()[0].start, 6);
}

TEST(PassAlgsimp, SliceKeepsDynamicIndices) {
  expectNoRewrite("algsimp-slice", R"(
HloModule m
ENTRY e {
  p = f32[10] parameter(0)
  i = s32[] parameter(1)
  ROOT d = f32[4] dynamic-slice(p, i), dynamic_slice_sizes={4}
})");
}

TEST(PassAlgsimp, PadMergesNestedPadsOfOneValue) {
  Module module = expectRewrite("algsimp-pad", R"(
HloModule m
ENTRY e {
  p = f32[3] parameter(0)
  z = f32[] constant(0)
  a = f32[5] pad(p, z), padding=1_1
  ROOT b = f32[8] pad(a, z), padding=2_1
})");
  EXPECT_EQ(countOf(module, Opcode::Pad), 1);
  EXPECT_EQ(rootOf(module)->padding()[0].low, 3);
}

TEST(PassAlgsimp, PadKeepsDifferentValues) {
  expectNoRewrite("algsimp-pad", R"(
HloModule m
ENTRY e {
  p = f32[3] parameter(0)
  z = f32[] constant(0)
  o = f32[] constant(1)
  a = f32[5] pad(p, z), padding=1_1
  ROOT b = f32[8] pad(a, o), padding=2_1
})");
}

const char *kOuterProduct = R"(
HloModule m
ENTRY e {
  a = f32[4,1] parameter(0)
  b = f32[1,3] parameter(1)
  ROOT d = f32[4,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

TEST(PassAlgsimp, DotOfSizeOneContractionBecomesMultiply) {
  Module module = expectRewrite("algsimp-dot", kOuterProduct);
  EXPECT_EQ(countOf(module, Opcode::Dot), 0);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Multiply);
}

TEST(PassAlgsimp, AllGroupsKeepOuterProductsAsTheCpuBackendDoes) {
  expectNoRewrite("algsimp", kOuterProduct);
}

TEST(PassAlgsimp, DotKeepsRealContractions) {
  expectNoRewrite("algsimp-dot", R"(
HloModule m
ENTRY e {
  a = f32[4,2] parameter(0)
  b = f32[2,3] parameter(1)
  ROOT d = f32[4,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
}

const char *kReduceOverSizeOne = R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[4,1] parameter(0)
  init = f32[] constant(INIT)
  ROOT r = f32[4] reduce(p, init), dimensions={1}, to_apply=add
})";

std::string withInit(const char *value) {
  std::string text = kReduceOverSizeOne;
  text.replace(text.find("INIT"), 4, value);
  return text;
}

TEST(PassAlgsimp, ReduceOverSizeOneWithIdentityIsReshape) {
  Module module = expectRewrite("algsimp-reduce", withInit("0"));
  EXPECT_EQ(countOf(module, Opcode::Reduce), 0);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Reshape);
}

TEST(PassAlgsimp, ReduceKeepsOtherInitValues) {
  expectNoRewrite("algsimp-reduce", withInit("1"));
}

TEST(PassAlgsimp, AllGroupsTogether) {
  Module module = expectRewrite("algsimp", R"(
HloModule m
ENTRY e {
  p = f32[2,3] parameter(0)
  one = f32[] constant(1)
  ones = f32[2,3] broadcast(one), dimensions={}
  m = f32[2,3] multiply(p, ones)
  r1 = f32[6] reshape(m)
  ROOT r2 = f32[3,2] reshape(r1)
})");
  EXPECT_EQ(countOf(module, Opcode::Multiply), 0);
  EXPECT_EQ(countOf(module, Opcode::Reshape), 1);
}

TEST(PassAlgsimp, FpConversionsDropsExactRoundTrips) {
  Module module = expectRewrite("simplify-fp-conversions", R"(
HloModule m
ENTRY e {
  p = bf16[4] parameter(0)
  wide = f32[4] convert(p)
  ROOT back = bf16[4] convert(wide)
})");
  EXPECT_EQ(countOf(module, Opcode::Convert), 0);
}

TEST(PassAlgsimp, FpConversionsKeepsLossyRoundTrips) {
  expectNoRewrite("simplify-fp-conversions", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  narrow = bf16[4] convert(p)
  ROOT back = f32[4] convert(narrow)
})");
}

} // namespace
