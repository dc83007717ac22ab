// FLOPs and transcendentals of small hand-written modules, against values
// worked out by hand from XLA's HloCostAnalysis rules.
#include "GraphTestUtil.h"

#include "rlopt/graph/CostAnalysis.h"

using namespace rlopt::graph;
using rlopt::graph::testing::parseOk;

namespace {

Cost costOf(const std::string &text) {
  Module module = parseOk(text);
  auto cost = analyzeCost(module);
  EXPECT_TRUE(cost.ok()) << cost.error().message;
  return cost ? *cost : Cost();
}

// An entry computation around `body`, with a scalar add reducer `add`.
std::string entry(const std::string &body) {
  return "HloModule m\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] "
         "parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\nENTRY e {\n" +
         body + "}\n";
}

} // namespace

TEST(CostAnalysis, ElementwiseIsOneFlopPerOutputElement) {
  Cost cost = costOf(entry(R"(
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,3]{1,0} parameter(1)
  sum = f32[2,3]{1,0} add(a, b)
  cmp = pred[2,3]{1,0} compare(a, b), direction=LT
  sel = f32[2,3]{1,0} select(cmp, a, b)
  cvt = s32[2,3]{1,0} convert(sel)
  ROOT neg = s32[2,3]{1,0} negate(cvt)
)"));
  EXPECT_EQ(cost.flops, 5 * 6);
  EXPECT_EQ(cost.transcendentals, 0);
}

TEST(CostAnalysis, TranscendentalsAreCountedApartFromFlops) {
  Cost cost = costOf(entry(R"(
  a = f32[4]{0} parameter(0)
  e = f32[4]{0} exponential(a)
  l = f32[4]{0} log(e)
  t = f32[4]{0} tanh(l)
  r = f32[4]{0} rsqrt(t)
  s = f32[4]{0} sqrt(r)
  g = f32[4]{0} logistic(s)
  p = f32[4]{0} power(g, a)
  x = f32[4]{0} erf(p)
  ROOT m = f32[4]{0} multiply(x, a)
)"));
  EXPECT_EQ(cost.transcendentals, 8 * 4);
  EXPECT_EQ(cost.flops, 4);
}

TEST(CostAnalysis, DotIsTwiceOutputTimesContractedSize) {
  // [2,3] x [3,4] -> [2,4]: 2 * 8 * 3.
  EXPECT_EQ(costOf(entry(R"(
  a = f32[2,3]{1,0} parameter(0)
  b = f32[3,4]{1,0} parameter(1)
  ROOT d = f32[2,4]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)"))
                .flops,
            48);
  // Batched [5,2,3] x [5,3,4] -> [5,2,4]: 2 * 40 * 3.
  EXPECT_EQ(costOf(entry(R"(
  a = f32[5,2,3]{2,1,0} parameter(0)
  b = f32[5,3,4]{2,1,0} parameter(1)
  ROOT d = f32[5,2,4]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
)"))
                .flops,
            240);
}

TEST(CostAnalysis, ConvolutionWithoutPaddingIsTwiceOutputKernelAndFeatures) {
  // 5x5x2 input, 3x3 kernel, 4 output features, no padding -> 3x3x4:
  // 2 * |out| 36 * kernel 9 * input features 2.
  EXPECT_EQ(costOf(entry(R"(
  img = f32[1,5,5,2]{3,2,1,0} parameter(0)
  k = f32[3,3,2,4]{3,2,1,0} parameter(1)
  ROOT c = f32[1,3,3,4]{3,2,1,0} convolution(img, k), window={size=3x3}, dim_labels=b01f_01io->b01f
)"))
                .flops,
            1296);
}

TEST(CostAnalysis, ConvolutionCountsOnlyTapsInsideThePaddedInput) {
  // "Same" 3x3 convolution on 3x3: per spatial dimension 7 of the 9
  // kernel/output pairs land inside the input, so 2 * 7 * 7 (not 2 * 81).
  EXPECT_EQ(costOf(entry(R"(
  img = f32[1,3,3,1]{3,2,1,0} parameter(0)
  k = f32[3,3,1,1]{3,2,1,0} parameter(1)
  ROOT c = f32[1,3,3,1]{3,2,1,0} convolution(img, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
)"))
                .flops,
            98);
}

TEST(CostAnalysis, GroupedConvolutionDividesInputFeatures) {
  // 1x1 kernel on 4x4, 4 input features in 2 groups, 4 outputs:
  // 2 * (4 / 2) * 4 * 16 positions.
  EXPECT_EQ(costOf(entry(R"(
  img = f32[1,4,4,4]{3,2,1,0} parameter(0)
  k = f32[1,1,2,4]{3,2,1,0} parameter(1)
  ROOT c = f32[1,4,4,4]{3,2,1,0} convolution(img, k), window={size=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=2
)"))
                .flops,
            256);
}

TEST(CostAnalysis, ReduceRunsItsReducerInputMinusOutputTimes) {
  // (32 - 4) applications of a one-flop add.
  EXPECT_EQ(costOf(entry(R"(
  a = f32[4,8]{1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4]{0} reduce(a, z), dimensions={1}, to_apply=add
)"))
                .flops,
            28);
}

TEST(CostAnalysis, VariadicReduceUsesTheFirstOutput) {
  // argmax over 10 elements: 9 applications of a reducer with compare,
  // two selects and a tuple: 3 flops each.
  Cost cost = costOf(R"(HloModule m

argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  v = f32[] select(gt, v0, v1)
  i = s32[] select(gt, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}

ENTRY e {
  a = f32[10]{0} parameter(0)
  idx = s32[10]{0} iota(), iota_dimension=0
  lo = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[], s32[]) reduce(a, idx, lo, zero), dimensions={0}, to_apply=argmax
}
)");
  EXPECT_EQ(cost.flops, 27);
}

TEST(CostAnalysis, ReduceWindowRunsItsReducerPerWindowElement) {
  // 2x2 windows, stride 2, on 4x4: 4 outputs, 3 additions each.
  EXPECT_EQ(costOf(entry(R"(
  a = f32[4,4]{1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,2]{1,0} reduce-window(a, z), window={size=2x2 stride=2x2}, to_apply=add
)"))
                .flops,
            12);
}

TEST(CostAnalysis, MapRunsItsComputationPerElement) {
  EXPECT_EQ(costOf(R"(HloModule m

axpy {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(x, y)
  ROOT s = f32[] add(m, y)
}

ENTRY e {
  a = f32[10]{0} parameter(0)
  b = f32[10]{0} parameter(1)
  ROOT r = f32[10]{0} map(a, b), dimensions={0}, to_apply=axpy
}
)")
                .flops,
            20);
}

TEST(CostAnalysis, SelectAndScatterCostsSelectsAndScatters) {
  // 4 source elements, 2x2 windows: 4 * 3 one-flop selects plus 4 one-flop
  // scatters.
  EXPECT_EQ(costOf(R"(HloModule m

ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  operand = f32[4,4]{1,0} parameter(0)
  source = f32[2,2]{1,0} parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4,4]{1,0} select-and-scatter(operand, source, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
}
)")
                .flops,
            16);
}

TEST(CostAnalysis, ControlFlowCostsItsComputationsOnce) {
  Module module = parseOk(R"(HloModule m

cond {
  p = (s32[], f32[4]{0}) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  p = (s32[], f32[4]{0}) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4]{0} get-tuple-element(p), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  twice = f32[4]{0} add(v, v)
  ROOT t = (s32[], f32[4]{0}) tuple(next, twice)
}

small {
  x = f32[4]{0} parameter(0)
  ROOT y = f32[4]{0} negate(x)
}

big {
  x = f32[4]{0} parameter(0)
  y = f32[4]{0} negate(x)
  ROOT z = f32[4]{0} exponential(y)
}

callee {
  x = f32[3]{0} parameter(0)
  ROOT e = f32[3]{0} exponential(x)
}

ENTRY e {
  zero = s32[] constant(0)
  v = f32[4]{0} parameter(0)
  init = (s32[], f32[4]{0}) tuple(zero, v)
  loop = (s32[], f32[4]{0}) while(init), condition=cond, body=body
  which = s32[] parameter(1)
  pick = f32[4]{0} conditional(which, v, v), branch_computations={small, big}
  w = f32[3]{0} parameter(2)
  c = f32[3]{0} call(w), to_apply=callee
  ROOT out = (f32[4]{0}, f32[4]{0}, f32[3]{0}) tuple(pick, pick, c)
}
)");
  auto cost = analyzeCost(module);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  // while: body (1 + 4) + condition 1; conditional: the bigger branch, per
  // property (4 flops, 4 transcendentals); call: 3 transcendentals.
  EXPECT_EQ(cost->flops, 6 + 4);
  EXPECT_EQ(cost->transcendentals, 4 + 3);

  CostAnalysis analysis;
  EXPECT_EQ(
      analysis.instructionCost(*module.entry()->findInstruction("loop")).flops,
      6);
  // Called computations are costed through their callers only.
  EXPECT_EQ(analysis.computationCost(*module.findComputation("body")).flops, 5);
}

TEST(CostAnalysis, SortIsNLogN) {
  EXPECT_EQ(costOf(R"(HloModule m

lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}

ENTRY e {
  a = f32[8]{0} parameter(0)
  ROOT s = f32[8]{0} sort(a), dimensions={0}, to_apply=lt
}
)")
                .flops,
            8 * 3);
}

TEST(CostAnalysis, ShapeOpsAreFree) {
  Cost cost = costOf(entry(R"(
  a = f32[2,3]{1,0} parameter(0)
  c = f32[] constant(1)
  b = f32[2,3]{1,0} broadcast(c), dimensions={}
  r = f32[3,2]{1,0} reshape(a)
  t = f32[3,2]{0,1} transpose(a), dimensions={1,0}
  s = f32[1,3]{1,0} slice(a), slice={[0:1], [0:3]}
  cat = f32[4,3]{1,0} concatenate(a, b), dimensions={0}
  bc = f32[6]{0} bitcast(a)
  cp = f32[2,3]{1,0} copy(b)
  i = s32[2,3]{1,0} iota(), iota_dimension=0
  tup = (f32[2,3]{1,0}, s32[2,3]{1,0}) tuple(cp, i)
  ROOT g = f32[2,3]{1,0} get-tuple-element(tup), index=0
)"));
  EXPECT_EQ(cost.flops, 0);
  EXPECT_EQ(cost.transcendentals, 0);
}

TEST(CostAnalysis, CustomCallCostIsUnknown) {
  Cost cost = costOf(entry(R"(
  a = f32[8]{0} parameter(0)
  cc = f32[8]{0} custom-call(a), custom_call_target="Vendor"
  ROOT n = f32[8]{0} negate(cc)
)"));
  EXPECT_EQ(cost.flops, 8);
  EXPECT_EQ(cost.unknownCostInstructions, 1);
}

TEST(CostAnalysis, RandomNumbersCountAsTranscendentals) {
  Cost cost = costOf(entry(R"(
  state = u64[2]{0} parameter(0)
  ROOT r = (u64[2]{0}, u32[4,8]{1,0}) rng-bit-generator(state), algorithm=rng_default
)"));
  EXPECT_EQ(cost.transcendentals, 2 + 32);
}

TEST(CostAnalysis, LongCallChainsAreCostedWithoutDeepRecursion) {
  // c0 negates; c_i calls c_{i-1}; the entry calls the last: one negate.
  constexpr int kDepth = 20000;
  std::string text = "HloModule chain\n\nc0 {\n  x = f32[2]{0} parameter(0)\n"
                     "  ROOT n = f32[2]{0} negate(x)\n}\n";
  for (int i = 1; i < kDepth; ++i)
    text += "\nc" + std::to_string(i) +
            " {\n  x = f32[2]{0} parameter(0)\n"
            "  ROOT c = f32[2]{0} call(x), to_apply=c" +
            std::to_string(i - 1) + "\n}\n";
  text += "\nENTRY e {\n  x = f32[2]{0} parameter(0)\n  ROOT c = f32[2]{0} "
          "call(x), to_apply=c" +
          std::to_string(kDepth - 1) + "\n}\n";
  EXPECT_EQ(costOf(text).flops, 2);
}

TEST(CostAnalysis, UnverifiedModuleIsAnError) {
  Module module("handmade");
  auto cost = analyzeCost(module);
  ASSERT_FALSE(cost.ok());
  EXPECT_EQ(cost.error().message,
            "module 'handmade': module has no entry computation");
}
