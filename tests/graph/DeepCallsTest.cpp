// Modules of thousands of nested or chained calls load, go through the
// default pipeline (what `rlopt graph run` does) and evaluate to the value
// they compute; nesting past the interpreter's bound is one clear error.
#include "PassTestUtil.h"

#include "rlopt/graph/Computation.h"

#include <string>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

// c0(x) = x + 1 and cK(x) = call(cK-1, x) + 1: the entry computes p + depth
// through `depth` nested calls.
std::string nestedCalls(int depth) {
  std::string text = "HloModule nested\n\n";
  for (int level = 0; level < depth; ++level) {
    std::string name = "c" + std::to_string(level);
    text += name + " {\n  x = f32[] parameter(0)\n  one = f32[] constant(1)\n";
    if (level == 0) {
      text += "  ROOT r = f32[] add(x, one)\n}\n\n";
      continue;
    }
    text += "  c = f32[] call(x), to_apply=c" + std::to_string(level - 1) +
            "\n  ROOT r = f32[] add(c, one)\n}\n\n";
  }
  return text +
         "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] call(p), "
         "to_apply=c" +
         std::to_string(depth - 1) + "\n}\n";
}

// `count` calls of one computation, each on the previous one's result: the
// entry computes p + count.
std::string chainedCalls(int count) {
  std::string text = "HloModule chained\n\ninc {\n  x = f32[] parameter(0)\n"
                     "  one = f32[] constant(1)\n  ROOT r = f32[] add(x, one)\n"
                     "}\n\nENTRY e {\n  c0 = f32[] parameter(0)\n";
  for (int i = 1; i <= count; ++i)
    text += std::string(i == count ? "  ROOT" : " ") + " c" +
            std::to_string(i) + " = f32[] call(c" + std::to_string(i - 1) +
            "), to_apply=inc\n";
  return text + "}\n";
}

double evaluateAt(const Module &module, double x) {
  Value argument{Shape::scalar(ElementType::F32), {x}, {}};
  auto result = evaluate(module, {argument});
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() && result->data.size() == 1 ? result->data[0] : -1;
}

// The default pipeline inlines every call and keeps the value.
void expectPipelineKeeps(Module module, double expected) {
  auto rounds = runDefaultPipeline(module);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  ASSERT_TRUE(verifyModule(module).ok());
  EXPECT_EQ(countOf(module, Opcode::Call), 0);
  EXPECT_EQ(module.computations().size(), 1u);
  EXPECT_EQ(evaluateAt(module, 0.5), expected);
}

} // namespace

TEST(DeepCalls, FourThousandNestedCallsRunAndInline) {
  Module module = parseOk(nestedCalls(4000));
  EXPECT_EQ(module.computations().size(), 4001u);
  EXPECT_EQ(evaluateAt(module, 0.5), 4000.5);
  expectPipelineKeeps(std::move(module), 4000.5);
}

TEST(DeepCalls, TwentyThousandChainedCallsRunAndInline) {
  Module module = parseOk(chainedCalls(20000));
  EXPECT_EQ(countOf(module, Opcode::Call), 20000);
  EXPECT_EQ(evaluateAt(module, 0.5), 20000.5);
  expectPipelineKeeps(std::move(module), 20000.5);
}

TEST(DeepCalls, NestingPastTheInterpreterBoundIsAnError) {
  Module module = parseOk(nestedCalls(50));
  InterpreterOptions options;
  options.maxCallDepth = 20;
  Value argument{Shape::scalar(ElementType::F32), {0.5}, {}};
  auto result = evaluate(module, {argument}, options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message,
            "computation c30: calls nest deeper than 20 computations "
            "(InterpreterOptions::maxCallDepth)");
}
