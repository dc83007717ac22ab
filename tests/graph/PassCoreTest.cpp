// CSE, DCE, constant folding, the tuple simplifier and the call-graph
// passes (call inliner, defuser, flatten-call-graph, map inliner): each
// fires where it should, keeps the outputs, and leaves alone what it must.
#include "PassTestUtil.h"

#include <cmath>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const Instruction *rootOf(const Module &module) {
  return module.entry()->root();
}

TEST(PassCse, MergesIdenticalInstructionsAndEqualReducers) {
  Module module = expectRewrite("cse", R"(
HloModule m
add1 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
add2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT t = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  s1 = f32[4] add(p, q)
  s2 = f32[4] add(q, p)
  c1 = f32[] constant(0)
  c2 = f32[] constant(0.0)
  r1 = f32[] reduce(s1, c1), dimensions={0}, to_apply=add1
  r2 = f32[] reduce(s2, c2), dimensions={0}, to_apply=add2
  ROOT r = (f32[], f32[]) tuple(r1, r2)
})");
  EXPECT_EQ(countEntryOps(module).count(Opcode::Add), 1);
  EXPECT_EQ(countEntryOps(module).count(Opcode::Constant), 1);
  EXPECT_EQ(countEntryOps(module).count(Opcode::Reduce), 1);
  EXPECT_EQ(rootOf(module)->operand(0), rootOf(module)->operand(1));
}

TEST(PassCse, NeverMergesSideEffectsOrElidedConstants) {
  expectNoRewrite("cse", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  c1 = f32[4] custom-call(p), custom_call_target="Tick"
  c2 = f32[4] custom-call(p), custom_call_target="Tick"
  k1 = f32[4] constant({...})
  k2 = f32[4] constant({...})
  ROOT r = (f32[4], f32[4], f32[4], f32[4]) tuple(c1, c2, k1, k2)
})");
}

TEST(PassDce, RemovesDeadInstructionsAndComputations) {
  Module module = expectRewrite("dce", R"(
HloModule m
unused {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  dead = f32[4] exponential(p)
  deader = f32[4] negate(dead)
  ROOT r = f32[4] add(p, p)
})");
  EXPECT_EQ(totalOps(module), 2);
  EXPECT_EQ(module.computations().size(), 1u);
}

TEST(PassDce, KeepsSideEffectsAndParameters) {
  expectNoRewrite("dce", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  unused = f32[4] parameter(1)
  effect = f32[4] custom-call(p), custom_call_target="Log", custom_call_has_side_effect=true
  ROOT r = f32[4] add(p, p)
})");
}

TEST(PassConstantFolding, FoldsArithmeticWithWrapAround) {
  Module module = expectRewrite("constant-folding", R"(
HloModule m
ENTRY e {
  a = f32[2] constant({1.5, 2})
  b = f32[2] constant({0.25, -4})
  sum = f32[2] add(a, b)
  big = u32[] constant(4294967295)
  one = u32[] constant(1)
  wrapped = u32[] add(big, one)
  ROOT r = (f32[2], u32[]) tuple(sum, wrapped)
})");
  EXPECT_EQ(countOf(module, Opcode::Add), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->literal().floats,
            (std::vector<double>{1.75, -2}));
  EXPECT_EQ(rootOf(module)->operand(1)->literal().integers,
            (std::vector<int64_t>{0}));
}

TEST(PassConstantFolding, FoldsTheInterpretersFloatOpsRoundedToTheirType) {
  Module module = expectRewrite("constant-folding", R"(
HloModule m
ENTRY e {
  a = f32[2] constant({0.5, -1})
  s = f32[2] sinh(a)
  z = f32[] constant(0)
  n = f32[] constant(-0)
  m = f32[] maximum(n, z)
  ROOT r = (f32[2], f32[]) tuple(s, m)
})");
  EXPECT_EQ(countOf(module, Opcode::Sinh), 0);
  std::vector<double> sinh = rootOf(module)->operand(0)->literal().floats;
  ASSERT_EQ(sinh.size(), 2u);
  EXPECT_FLOAT_EQ(sinh[0], static_cast<float>(std::sinh(0.5)));
  EXPECT_FLOAT_EQ(sinh[1], static_cast<float>(std::sinh(-1.0)));
  // Of equal operands the first, as XLA's CPU backend selects.
  std::vector<double> zero = rootOf(module)->operand(1)->literal().floats;
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_TRUE(std::signbit(zero[0]));
}

TEST(PassConstantFolding, FoldsIntegerOpsAsTheInterpreterComputesThem) {
  // One definition of integer ops serves both: every fold here is also
  // checked against the interpreter on the unfolded module.
  Module module = expectRewrite("constant-folding", R"(
HloModule m
ENTRY e {
  a = s8[4] constant({-128, -7, 100, 3})
  b = s8[4] constant({-1, 2, 100, 3})
  mul = s8[4] multiply(a, b)
  div = s8[4] divide(b, a)
  c = s8[4] constant({5, 2, 7, -2})
  rem = s8[4] remainder(a, c)
  mx = s8[4] maximum(a, b)
  d = s8[4] constant({1, 2, 3, 7})
  sra = s8[4] shift-right-arithmetic(a, d)
  abs = s8[4] abs(a)
  sign = s8[4] sign(a)
  clz = s8[4] count-leading-zeros(a)
  u = u8[3] constant({255, 16, 0})
  v = u8[3] constant({2, 4, 7})
  srl = u8[3] shift-right-logical(u, v)
  pow = u8[3] power(v, v)
  mn = u8[3] minimum(u, v)
  neg = u8[3] negate(u)
  ROOT r = (s8[4], s8[4], s8[4], s8[4], s8[4], s8[4], s8[4], s8[4], u8[3], u8[3], u8[3], u8[3]) tuple(mul, div, rem, mx, sra, abs, sign, clz, srl, pow, mn, neg)
})");
  for (const Instruction *operand : rootOf(module)->operands())
    EXPECT_EQ(operand->opcode(), Opcode::Constant) << operand->name();
  auto folded = [&](int i) {
    return rootOf(module)->operand(i)->literal().integers;
  };
  using V = std::vector<int64_t>;
  EXPECT_EQ(folded(0), (V{-128, -14, 16, 9})); // wraps: -128 * -1, 100 * 100
  EXPECT_EQ(folded(1), (V{0, 0, 1, 1}));
  EXPECT_EQ(folded(2), (V{-3, -1, 2, 1}));
  EXPECT_EQ(folded(3), (V{-1, 2, 100, 3}));
  EXPECT_EQ(folded(4), (V{-64, -2, 12, 0}));
  EXPECT_EQ(folded(5), (V{-128, 7, 100, 3})); // |-128| wraps to itself
  EXPECT_EQ(folded(6), (V{-1, -1, 1, 1}));
  EXPECT_EQ(folded(7), (V{0, 0, 1, 6}));
  EXPECT_EQ(folded(8), (V{63, 1, 0}));
  EXPECT_EQ(folded(9), (V{4, 0, 247})); // 4^4 and 7^7 wrap in u8
  EXPECT_EQ(folded(10), (V{2, 4, 0}));
  EXPECT_EQ(folded(11), (V{1, 240, 0}));
}

TEST(PassConstantFolding, MovesIntegersBeyondDoublePrecisionExactly) {
  // Data movement is planned by the interpreter's DataMovement and applied
  // to exact integers: 2^62 + 1 has no double, and must survive every op.
  Module module = expectRewrite("constant-folding", R"(
HloModule m
ENTRY e {
  a = s64[2,2] constant({{4611686018427387905, 2}, {3, 4}})
  t = s64[2,2] transpose(a), dimensions={1,0}
  v = s64[2,2] reverse(t), dimensions={0}
  z = s64[] constant(-9007199254740993)
  p = s64[3,3] pad(v, z), padding=1_0x0_1
  s = s64[2,2] slice(p), slice={[1:3], [0:2]}
  ROOT c = s64[2,4] concatenate(s, a), dimensions={1}
})");
  EXPECT_EQ(countOf(module, Opcode::Concatenate), 0);
  EXPECT_EQ(countOf(module, Opcode::Pad), 0);
  // t = {{2^62+1, 3}, {2, 4}}; v = {{2, 4}, {2^62+1, 3}}; p adds a row of
  // z on top and a column of z on the right; s drops that row and column.
  const int64_t big = 4611686018427387905;
  EXPECT_EQ(rootOf(module)->literal().integers,
            (std::vector<int64_t>{2, 4, big, 2, big, 3, 3, 4}));
}

// XLA defines integer division by zero, MIN % -1, oversized shifts and
// negative powers, but folding leaves them to the backend.
TEST(PassConstantFolding, LeavesBroadcastsElidedAndUndefinedIntegerOps) {
  expectNoRewrite("constant-folding", R"(
HloModule m
ENTRY e {
  c = f32[] constant(2)
  b = f32[1000] broadcast(c), dimensions={}
  k = f32[3] constant({...})
  n = f32[3] negate(k)
  x = s32[] constant(7)
  z = s32[] constant(0)
  d = s32[] divide(x, z)
  min = s8[] constant(-128)
  m1 = s8[] constant(-1)
  rem = s8[] remainder(min, m1)
  eight = s8[] constant(8)
  shl = s8[] shift-left(m1, eight)
  pow = s8[] power(eight, m1)
  ROOT r = (f32[1000], f32[3], s32[], s8[], s8[], s8[]) tuple(b, n, d, rem, shl, pow)
})");
}

TEST(PassTupleSimplifier, ForwardsTupleElements) {
  Module module = expectRewrite("tuple-simplifier", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = s32[] parameter(1)
  t = (f32[4], s32[]) tuple(p, q)
  g = s32[] get-tuple-element(t), index=1
  ROOT r = s32[] add(g, g)
})");
  EXPECT_EQ(countOf(module, Opcode::Tuple), 0);
  EXPECT_EQ(countOf(module, Opcode::GetTupleElement), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->name(), "q");
}

TEST(PassTupleSimplifier, KeepsReadsOfParameters) {
  expectNoRewrite("tuple-simplifier", R"(
HloModule m
ENTRY e {
  p = (f32[4], s32[]) parameter(0)
  g = s32[] get-tuple-element(p), index=1
  ROOT r = s32[] add(g, g)
})");
}

TEST(PassCallInliner, InlinesNestedCallsAndDropsCallees) {
  Module module = expectRewrite("call-inliner", R"(
HloModule m
inner {
  x = f32[4] parameter(0)
  ROOT ex = f32[4] exponential(x)
}
outer {
  y = f32[4] parameter(0)
  c = f32[4] call(y), to_apply=inner
  ROOT n = f32[4] negate(c)
}
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] call(p), to_apply=outer
  b = f32[4] call(a), to_apply=inner
  ROOT r = f32[4] add(a, b)
})");
  EXPECT_EQ(countOf(module, Opcode::Call), 0);
  EXPECT_EQ(module.computations().size(), 1u);
  EXPECT_EQ(countOf(module, Opcode::Exp), 2);
}

TEST(PassCallInliner, KeepsElidedConstantsThatWouldBeRenamed) {
  expectNoRewrite("call-inliner", R"(
HloModule m
callee {
  x = f32[3] parameter(0)
  k = f32[3] constant({...})
  ROOT s = f32[3] add(x, k)
}
ENTRY e {
  k = f32[3] parameter(0)
  ROOT c = f32[3] call(k), to_apply=callee
})");
}

TEST(PassDefuser, InlinesFusions) {
  Module module = expectRewrite("defuser", R"(
HloModule m
fused {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  ROOT m = f32[4] multiply(x, y)
}
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT f = f32[4] fusion(p, q), kind=kLoop, calls=fused
})");
  EXPECT_EQ(countOf(module, Opcode::Fusion), 0);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Multiply);
}

TEST(PassDefuser, NothingToDoWithoutFusions) {
  expectNoRewrite("defuser", R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
})");
}

const char *kTwoCallsOfOneComputation = R"(
HloModule m
shared {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] call(p), to_apply=shared
  ROOT b = f32[4] call(a), to_apply=shared
})";

TEST(PassFlattenCallGraph, ClonesComputationsCalledTwice) {
  Module module =
      expectRewrite("flatten-call-graph", kTwoCallsOfOneComputation);
  EXPECT_EQ(module.computations().size(), 3u);
  EXPECT_NE(rootOf(module)->calledComputation("to_apply"),
            rootOf(module)->operand(0)->calledComputation("to_apply"));
}

TEST(PassFlattenCallGraph, KeepsSharedReducers) {
  expectNoRewrite("flatten-call-graph", R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  a = f32[] reduce(p, z), dimensions={0}, to_apply=add
  b = f32[] reduce(p, a), dimensions={0}, to_apply=add
  ROOT r = f32[] add(a, b)
})");
}

TEST(PassMapInliner, MapOfOneOpBecomesTheOp) {
  Module module = expectRewrite("map-inliner", R"(
HloModule m
mul {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] multiply(x, y)
}
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT r = f32[4] map(p, q), dimensions={0}, to_apply=mul
})");
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Multiply);
}

TEST(PassMapInliner, KeepsLargerComputations) {
  expectNoRewrite("map-inliner", R"(
HloModule m
f {
  x = f32[] parameter(0)
  n = f32[] negate(x)
  ROOT e = f32[] exponential(n)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] map(p), dimensions={0}, to_apply=f
})");
}

} // namespace
