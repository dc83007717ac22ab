#include "GraphTestUtil.h"

#include "rlopt/graph/Printer.h"

#include <cmath>

using namespace rlopt::graph;
using rlopt::graph::testing::fixture;
using rlopt::graph::testing::parseOk;
using rlopt::graph::testing::readText;

static const Instruction &named(const Module &module, const std::string &name) {
  for (const auto &computation : module.computations())
    if (Instruction *instruction = computation->findInstruction(name))
      return *instruction;
  ADD_FAILURE() << "no instruction " << name;
  static Instruction none("none", Opcode::Tuple, Shape());
  return none;
}

TEST(Parser, TypedOperandsWithPercentNamesAndSignatures) {
  Module module = parseOk(readText(fixture("small.hlo")));
  EXPECT_EQ(module.name(), "small_mlp");
  ASSERT_EQ(module.headerAttributes().size(), 1u);
  EXPECT_EQ(module.headerAttributes()[0].key, "entry_computation_layout");
  EXPECT_EQ(module.headerAttributes()[0].value,
            "{(f32[8,16]{1,0}, f32[16,4]{1,0})->f32[8]{0}}");
  ASSERT_EQ(module.computations().size(), 2u);
  EXPECT_EQ(module.computations()[0]->name(), "add_f32");
  ASSERT_NE(module.entry(), nullptr);
  EXPECT_EQ(module.entry()->name(), "main");
  EXPECT_EQ(module.entry()->instructionCount(), 6u);
  EXPECT_EQ(module.entry()->root()->name(), "sum");
  EXPECT_EQ(module.style(), (TextStyle{true, true, true}));

  const Instruction &dot = named(module, "dot");
  EXPECT_EQ(dot.opcode(), Opcode::Dot);
  EXPECT_EQ(dot.shape().toString(), "f32[8,4]{1,0}");
  ASSERT_EQ(dot.operandCount(), 2u);
  EXPECT_EQ(dot.operand(0)->name(), "x");
  EXPECT_EQ(dot.operand(1)->name(), "w");
  EXPECT_EQ(dot.dotDims().lhsContracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(dot.dotDims().rhsContracting, (std::vector<int64_t>{0}));
  ASSERT_EQ(dot.attributes().size(), 3u);
  EXPECT_EQ(dot.attributes()[2].key, "metadata");
  EXPECT_EQ(dot.attributes()[2].value,
            "{op_type=\"aten__mm\" op_name=\"linear\"}");

  const Instruction &sum = named(module, "sum");
  EXPECT_EQ(sum.dimensions(), (std::vector<int64_t>{1}));
  EXPECT_EQ(sum.calledComputation("to_apply"), module.computations()[0].get());
  std::vector<Instruction *> params = module.entry()->parameters();
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[1]->name(), "w");
  EXPECT_EQ(params[1]->parameterNumber(), 1);
}

TEST(Parser, BareOperandsWithoutPercentOrSignatures) {
  Module module = parseOk(R"(HloModule jit_f.7

region_0.3 {
  Arg_0.4 = f32[] parameter(0)
  Arg_1.5 = f32[] parameter(1)
  ROOT add.6 = f32[] add(Arg_0.4, Arg_1.5)
}

ENTRY main.7 {
  Arg_0.1 = f32[4,5]{1,0} parameter(0)
  constant.2 = f32[] constant(0)
  ROOT reduce.7 = f32[4]{0} reduce(Arg_0.1, constant.2), dimensions={1}, to_apply=region_0.3
}
)");
  EXPECT_EQ(module.style(), (TextStyle{false, false, false}));
  const Instruction &reduce = named(module, "reduce.7");
  EXPECT_EQ(reduce.operand(1)->name(), "constant.2");
  EXPECT_EQ(reduce.calledComputation("to_apply")->name(), "region_0.3");
}

TEST(Parser, MixedPercentAndBareNamesAndForwardReferences) {
  // Operands may be used before they are defined, as in XLA's text.
  Module module = parseOk(R"(HloModule m
ENTRY %e {
  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(n, %p)
  n = f32[2]{0} negate(p)
  %p = f32[2]{0} parameter(0)
}
)");
  const Instruction &tuple = named(module, "t");
  EXPECT_EQ(tuple.operand(0)->name(), "n");
  EXPECT_EQ(tuple.operand(1)->opcode(), Opcode::Parameter);
  EXPECT_EQ(module.entry()->root(), &tuple);
}

TEST(Parser, CommentsAndIndexMarksAreSkipped) {
  Module module = parseOk(R"(HloModule m // trailing comment
/* block
   comment */
ENTRY %e (a: f32[]) -> (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) {
  %a = f32[] parameter(0)
  // a line comment between instructions
  ROOT %t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) tuple(f32[] %a, f32[] %a, f32[] %a, f32[] %a, f32[] %a, /*index=5*/f32[] %a)
}
)");
  EXPECT_EQ(named(module, "t").operandCount(), 6u);
}

TEST(Parser, RootDefaultsToTheLastInstruction) {
  Module module = parseOk("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                          "  b = f32[] negate(a)\n}\n");
  EXPECT_EQ(module.entry()->root()->name(), "b");
}

TEST(Parser, ModuleWithoutHeaderTakesTheEntryName) {
  Module module =
      parseOk("ENTRY %graph.9 {\n  ROOT %a = f32[] parameter(0)\n}\n");
  EXPECT_EQ(module.name(), "graph.9");
  EXPECT_EQ(printModule(module).rfind("HloModule graph.9\n", 0), 0u);
}

TEST(Parser, InterpretsTheAttributesAnalysesRead) {
  Module module = parseOk(R"(HloModule m

max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}

ENTRY e {
  a = f32[4,6]{1,0} parameter(0)
  s = f32[2,2]{1,0} slice(a), slice={[0:2], [1:5:2]}
  t = f32[6,4]{0,1} transpose(a), dimensions={1,0}
  img = f32[1,8,8,3]{3,2,1,0} parameter(1)
  k = f32[3,3,3,16]{3,2,1,0} parameter(2)
  c = f32[1,4,4,16]{3,2,1,0} convolution(img, k), window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=1
  cmp = pred[4,6]{1,0} compare(a, a), direction=GE
  i = s32[4,6]{1,0} iota(), iota_dimension=1
  z = f32[] constant(0)
  p = f32[5,8]{1,0} pad(a, z), padding=0_1x1_1_0
  tup = (f32[4,6]{1,0}, s32[4,6]{1,0}) tuple(a, i)
  g = s32[4,6]{1,0} get-tuple-element(tup), index=1
  rw = f32[2,3]{1,0} reduce-window(a, z), window={size=2x2 stride=2x2}, to_apply=max
  ROOT out = (f32[2,2]{1,0}, f32[6,4]{0,1}) tuple(s, t)
}
)");
  const Instruction &slice = named(module, "s");
  ASSERT_EQ(slice.slice().size(), 2u);
  EXPECT_EQ(slice.slice()[1].start, 1);
  EXPECT_EQ(slice.slice()[1].limit, 5);
  EXPECT_EQ(slice.slice()[1].stride, 2);
  EXPECT_EQ(named(module, "t").dimensions(), (std::vector<int64_t>{1, 0}));

  const Instruction &conv = named(module, "c");
  ASSERT_EQ(conv.window().size(), 2u);
  EXPECT_EQ(conv.window()[0].size, 3);
  EXPECT_EQ(conv.window()[1].stride, 2);
  EXPECT_EQ(conv.window()[1].padLow, 0);
  EXPECT_EQ(conv.window()[1].padHigh, 1);
  ASSERT_TRUE(conv.convDims());
  EXPECT_EQ(conv.convDims()->inputBatch, 0);
  EXPECT_EQ(conv.convDims()->inputFeature, 3);
  EXPECT_EQ(conv.convDims()->inputSpatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(conv.convDims()->kernelInputFeature, 2);
  EXPECT_EQ(conv.convDims()->kernelOutputFeature, 3);
  EXPECT_EQ(conv.convDims()->outputFeature, 3);
  EXPECT_EQ(conv.featureGroupCount(), 1);

  EXPECT_EQ(named(module, "cmp").comparisonDirection(),
            ComparisonDirection::Ge);
  EXPECT_EQ(named(module, "i").iotaDimension(), 1);
  const Instruction &pad = named(module, "p");
  ASSERT_EQ(pad.padding().size(), 2u);
  EXPECT_EQ(pad.padding()[0].high, 1);
  EXPECT_EQ(pad.padding()[1].low, 1);
  EXPECT_EQ(pad.padding()[1].interior, 0);
  EXPECT_EQ(named(module, "g").tupleIndex(), 1);
  EXPECT_EQ(named(module, "rw").window().size(), 2u);
}

TEST(Parser, ConstantLiterals) {
  Module module = parseOk(R"(HloModule m
ENTRY e {
  f = f32[] constant(-2.5e-1)
  ninf = f32[] constant(-inf)
  nan = bf16[] constant(nan)
  hex = f32[] constant(0x1p-2)
  b = pred[2]{0} constant({true, false})
  m = s32[2,3]{1,0} constant({ { 1, 2, 3 }, { 4, 5, -6 } })
  big = u64[] constant(18446744073709551615)
  cx = c64[] constant((1, -2))
  empty = s32[0]{0} constant({})
  elided = f32[1000]{0} constant({...})
  ROOT t = (f32[]) tuple(f)
}
)");
  EXPECT_EQ(named(module, "f").literal().floats, (std::vector<double>{-0.25}));
  EXPECT_EQ(named(module, "f").literal().text, "-2.5e-1");
  EXPECT_TRUE(std::isinf(named(module, "ninf").literal().floats.at(0)));
  EXPECT_LT(named(module, "ninf").literal().floats.at(0), 0);
  EXPECT_TRUE(std::isnan(named(module, "nan").literal().floats.at(0)));
  EXPECT_EQ(named(module, "hex").literal().floats.at(0), 0.25);
  EXPECT_EQ(named(module, "b").literal().integers,
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(named(module, "m").literal().integers,
            (std::vector<int64_t>{1, 2, 3, 4, 5, -6}));
  EXPECT_EQ(
      static_cast<uint64_t>(named(module, "big").literal().integers.at(0)),
      18446744073709551615ull);
  EXPECT_EQ(named(module, "cx").literal().floats, (std::vector<double>{1, -2}));
  EXPECT_TRUE(named(module, "empty").literal().hasValues);
  EXPECT_TRUE(named(module, "empty").literal().integers.empty());

  const Literal &elided = named(module, "elided").literal();
  EXPECT_TRUE(elided.elided);
  EXPECT_FALSE(elided.hasValues);
  EXPECT_TRUE(elided.floats.empty());
  EXPECT_EQ(elided.text, "{...}");
}

TEST(Parser, CalledComputationsInAllForms) {
  Module module = parseOk(R"(HloModule m

cond {
  p = (s32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  p = (s32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  ROOT t = (s32[]) tuple(next)
}

left {
  ROOT x = f32[] parameter(0)
}

right {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}

ENTRY e {
  zero = s32[] constant(0)
  init = (s32[]) tuple(zero)
  loop = (s32[]) while(init), condition=cond, body=body
  which = s32[] parameter(0)
  v = f32[] parameter(1)
  ROOT pick = f32[] conditional(which, v, v), branch_computations={left, %right}
}
)");
  const Instruction &loop = named(module, "loop");
  EXPECT_EQ(loop.calledComputation("condition")->name(), "cond");
  EXPECT_EQ(loop.calledComputation("body")->name(), "body");
  const Instruction &pick = named(module, "pick");
  std::vector<Computation *> branches = pick.calledComputations();
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_EQ(branches[1]->name(), "right");
  EXPECT_TRUE(pick.findAttribute("branch_computations")->braced);
  // Instruction names repeat across computations without conflict.
  EXPECT_EQ(module.findComputation("cond")->findInstruction("p")->parent(),
            module.findComputation("cond"));
}

TEST(Parser, PrintsTheInputBackInItsOwnStyle) {
  std::string text = readText(fixture("small.hlo"));
  Module module = parseOk(text);
  EXPECT_EQ(printModule(module), text);

  TextStyle bare{false, false, false};
  std::string short_ = printModule(module, bare);
  EXPECT_NE(short_.find("ROOT sum = f32[8]{0} reduce(tanh, zero), "
                        "dimensions={1}, to_apply=add_f32"),
            std::string::npos)
      << short_;
  Module reparsed = parseOk(short_);
  EXPECT_EQ(reparsed.style(), bare);
  EXPECT_EQ(printModule(reparsed, module.style()), text);
}
