// While-loop passes: the simplifier (zero-trip loops, invariant reads,
// dead tuple elements), constant sinking and invariant code motion.
#include "PassTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

// A loop x = x * exp(w) three times; `junk` is state nobody reads.
const char *kLoop = R"(
HloModule m
cond {
  s = (s32[], f32[4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[4] get-tuple-element(s), index=1
  w = f32[4] get-tuple-element(s), index=2
  e = f32[4] exponential(w)
  y = f32[4] multiply(x, e)
  junk = f32[4] get-tuple-element(s), index=3
  more = f32[4] negate(junk)
  ROOT t = (s32[], f32[4], f32[4], f32[4]) tuple(next, y, w, more)
}
ENTRY main {
  x0 = f32[4] parameter(0)
  w0 = f32[4] WEIGHTS
  start = s32[] constant(START)
  init = (s32[], f32[4], f32[4], f32[4]) tuple(start, x0, w0, x0)
  loop = (s32[], f32[4], f32[4], f32[4]) while(init), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(loop), index=1
})";

std::string loop(const char *start, const char *weights = "parameter(1)") {
  std::string text = kLoop;
  text.replace(text.find("START"), 5, start);
  text.replace(text.find("WEIGHTS"), 7, weights);
  return text;
}

const Instruction *findWhile(const Module &module) {
  for (const auto &instruction : module.entry()->instructions())
    if (instruction->opcode() == Opcode::While)
      return instruction.get();
  return nullptr;
}

TEST(PassWhileLoopSimplifier, RemovesUnreadStateElements) {
  Module module = expectRewrite("while-loop-simplifier", loop("0"));
  const Instruction *whileLoop = findWhile(module);
  ASSERT_NE(whileLoop, nullptr);
  EXPECT_EQ(whileLoop->shape().tupleShapes().size(), 3u);
  EXPECT_EQ(countOf(module, Opcode::Negate), 0);
}

TEST(PassWhileLoopSimplifier, ZeroTripLoopIsItsInitialValue) {
  Module module = expectRewrite("while-loop-simplifier", loop("5"));
  EXPECT_EQ(findWhile(module), nullptr);
}

TEST(PassWhileLoopSimplifier, KeepsLoopsWhoseStateIsAllRead) {
  expectNoRewrite("while-loop-simplifier", R"(
HloModule m
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[4] get-tuple-element(s), index=1
  y = f32[4] exponential(x)
  ROOT t = (s32[], f32[4]) tuple(next, y)
}
ENTRY main {
  x0 = f32[4] parameter(0)
  start = s32[] constant(0)
  init = (s32[], f32[4]) tuple(start, x0)
  loop = (s32[], f32[4]) while(init), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(loop), index=1
})");
}

TEST(PassWhileLoopConstantSinking, BodyReadsTheConstant) {
  Module module = expectRewrite("while-loop-constant-sinking",
                                loop("0", "constant({1, 2, 3, 4})"));
  const Computation *body = findWhile(module)->calledComputation("body");
  const Instruction *exp = nullptr;
  for (const auto &instruction : body->instructions())
    if (instruction->opcode() == Opcode::Exp)
      exp = instruction.get();
  ASSERT_NE(exp, nullptr);
  EXPECT_EQ(exp->operand(0)->opcode(), Opcode::Constant);
}

TEST(PassWhileLoopConstantSinking, KeepsParameterInitialValues) {
  expectNoRewrite("while-loop-constant-sinking", loop("0"));
}

TEST(PassWhileLoopInvariantCodeMotion, HoistsInvariantWork) {
  Module module = expectRewrite("while-loop-invariant-code-motion", loop("0"));
  EXPECT_EQ(countEntryOps(module).count(Opcode::Exp), 1);
  const Computation *body = findWhile(module)->calledComputation("body");
  for (const auto &instruction : body->instructions())
    EXPECT_NE(instruction->opcode(), Opcode::Exp);
}

TEST(PassWhileLoopInvariantCodeMotion, KeepsVaryingWork) {
  // exp reads x, which changes every iteration.
  std::string text = loop("0");
  text.replace(text.find("exponential(w)"), 14, "exponential(x)");
  expectNoRewrite("while-loop-invariant-code-motion", text);
}

TEST(PassWhileLoopFusibleSinking, BodyRecomputesTheIota) {
  Module module = expectRewrite("while-loop-fusible-sinking",
                                loop("0", "iota(), iota_dimension=0"));
  const Computation *body = findWhile(module)->calledComputation("body");
  bool hasIota = false;
  for (const auto &instruction : body->instructions())
    hasIota |= instruction->opcode() == Opcode::Iota;
  EXPECT_TRUE(hasIota);
}

TEST(PassWhileLoopFusibleSinking, KeepsParameterInitialValues) {
  expectNoRewrite("while-loop-fusible-sinking", loop("0"));
}

TEST(PassWhileLoopUnroller, UnrollsConstantTripCounts) {
  Module module = expectRewrite("while-loop-unroller", loop("0"));
  EXPECT_EQ(findWhile(module), nullptr);
  EXPECT_EQ(countOf(module, Opcode::Exp), 3);
  EXPECT_EQ(module.computations().size(), 1u);
}

TEST(PassWhileLoopUnroller, KeepsComputedTripCounts) {
  std::string text = loop("0");
  text.replace(text.find("constant(0)"), 11, "parameter(2)");
  expectNoRewrite("while-loop-unroller", text);
}

} // namespace
