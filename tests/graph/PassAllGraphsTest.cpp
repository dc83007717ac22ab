// Every pass, and the default pipeline, on every bundled graph. Each pass
// runs cleanly (or reports an error and leaves the module as it was); the
// result verifies, prints text that parses back to the same text, is the
// same on a second run, and is unchanged when the pass says so. The
// reference interpreter checks that outputs are kept on seeded random
// inputs:
//   - light graphs (under kHeavyWork elements plus FLOPs, 76 of the 89 the
//     interpreter can run): every pass on its own, and the default pipeline;
//   - light graphs: three seeded random episodes of 20 actions each;
//   - every graph: all passes one after another in action order, then the
//     default pipeline, compared once at the end. For the heavy graphs
//     (BERT, BERT-large, GPT-2, ...), where one evaluation takes up to 20 s,
//     this is the interpreter's only check.
// Two graphs are beyond the interpreter's size limit (efficientnet's
// 250x150x150x32 convolution, GPT-NeoX's 6144x24576 weight); they get the
// structural checks only.
#include "PassTestUtil.h"

#include "rlopt/graph/CostAnalysis.h"

#include <random>

using namespace rlopt;
using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace fs = std::filesystem;

namespace {

constexpr double kHeavyWork = 2e8;

// Elements of every instruction plus FLOPs and transcendentals: a static
// stand-in for the interpreter's running time.
bool isHeavy(const Module &module) {
  double work = 0;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      work += static_cast<double>(instruction->shape().elementCountRecursive());
  auto cost = analyzeCost(module);
  if (cost)
    work += cost->flops + cost->transcendentals;
  return work >= kHeavyWork;
}

Module load(const fs::path &path) {
  auto module = parseModuleFile(path.string());
  EXPECT_TRUE(module.ok()) << module.error().message;
  return module ? module.takeValue() : Module();
}

std::string testName(const fs::path &path) {
  std::string name =
      path.parent_path().filename().string() + "_" + path.stem().string();
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

// Runs `pass` on a copy of `original` with the structural checks; returns
// the result when the pass changed it.
std::optional<Module> checkedRun(const GraphPass &pass, const Module &original,
                                 const std::string &printed) {
  Module first = original.clone();
  auto changed = pass.run(first);
  if (!changed) {
    EXPECT_EQ(printModule(first), printed)
        << pass.name << " failed (" << changed.error().message
        << ") but changed the module";
    return std::nullopt;
  }
  Status valid = verifyModule(first);
  EXPECT_TRUE(valid.ok()) << pass.name << ": " << valid.error().message;
  std::string text = printModule(first);
  if (!*changed) {
    EXPECT_EQ(text, printed) << pass.name << " said it changed nothing";
    return std::nullopt;
  }
  auto reparsed = parseModule(text, pass.name);
  EXPECT_TRUE(reparsed.ok()) << pass.name << ": " << reparsed.error().message;
  if (reparsed) {
    EXPECT_EQ(printModule(*reparsed), text) << pass.name;
  }
  Module second = original.clone();
  auto again = pass.run(second);
  EXPECT_TRUE(again.ok() && *again) << pass.name << " is not deterministic";
  EXPECT_EQ(printModule(second), text) << pass.name << " is not deterministic";
  return first;
}

void expectOutputs(const Value &expected, const Module &module,
                   const std::string &what) {
  auto outputs = evaluateOnSeed(module);
  ASSERT_TRUE(outputs.ok()) << what << ": " << outputs.error().message;
  Status same = compareValues(expected, *outputs);
  EXPECT_TRUE(same.ok()) << what << ": " << same.error().message;
}

// Transposes that feed a dot: the dot decomposer moves batch dimensions to
// the front with them, and XLA's CPU configuration of transpose folding
// keeps those it cannot fold into the dot as a row/column swap.
int64_t dotOperandTransposes(const Module &module) {
  int64_t count = 0;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->opcode() == Opcode::Dot)
        for (const Instruction *operand : instruction->operands())
          count += operand->opcode() == Opcode::Transpose;
  return count;
}

class PassOnGraph : public ::testing::TestWithParam<fs::path> {};

TEST_P(PassOnGraph, EveryPassKeepsTheModuleValidAndItsOutputs) {
  Module original = load(GetParam());
  std::string printed = printModule(original);
  std::optional<Value> expected;
  if (!isHeavy(original))
    if (auto outputs = evaluateOnSeed(original))
      expected = outputs.takeValue();
  for (const GraphPass &pass : graphPasses()) {
    auto changed = checkedRun(pass, original, printed);
    if (changed && expected)
      expectOutputs(*expected, *changed, pass.name);
  }
}

TEST_P(PassOnGraph, DefaultPipelineReachesAFixedPointAndKeepsOutputs) {
  Module original = load(GetParam());
  Module module = original.clone();
  auto rounds = runDefaultPipeline(module);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  EXPECT_LT(*rounds, 25) << "no fixed point";
  Status valid = verifyModule(module);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  auto reparsed = parseModule(printModule(module), "pipeline");
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().message;
  // Like XLA's CPU pipeline, D may grow a graph only by its lowerings: a
  // simple gather becomes a dynamic-slice of a reshaped index, and a dot
  // with its batch dimensions elsewhere gets operand transposes.
  int64_t addedDotTransposes = std::max<int64_t>(
      0, dotOperandTransposes(module) - dotOperandTransposes(original));
  EXPECT_LE(totalOps(module), totalOps(original) +
                                  countOf(original, Opcode::Gather) +
                                  addedDotTransposes);
  Module again = module.clone();
  auto more = runDefaultPipeline(again);
  ASSERT_TRUE(more.ok());
  // A second run may rename (dot-decomposer and transpose-folding undo each
  // other, as in XLA) but finds nothing more to remove.
  EXPECT_EQ(totalOps(again), totalOps(module))
      << "a second run still changed the op count";
  if (isHeavy(original))
    return; // checked by the sequence test below
  auto expected = evaluateOnSeed(original);
  if (!expected)
    GTEST_SKIP() << "interpreter: " << expected.error().message;
  expectOutputs(*expected, module, "default pipeline");
}

TEST_P(PassOnGraph, AllPassesInActionOrderThenPipelineKeepOutputs) {
  Module original = load(GetParam());
  Module module = original.clone();
  for (const GraphPass &pass : graphPasses()) {
    auto changed = pass.run(module);
    ASSERT_TRUE(changed.ok()) << pass.name << ": " << changed.error().message;
    Status valid = verifyModule(module);
    ASSERT_TRUE(valid.ok()) << pass.name << ": " << valid.error().message;
  }
  auto rounds = runDefaultPipeline(module);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  auto expected = evaluateOnSeed(original);
  if (!expected)
    GTEST_SKIP() << "interpreter: " << expected.error().message;
  expectOutputs(*expected, module, "all passes, then the default pipeline");
}

// What an agent does: seeded random sequences of 20 actions, each step
// verified, the outputs compared at the end (light graphs only).
TEST_P(PassOnGraph, RandomEpisodesKeepOutputs) {
  Module original = load(GetParam());
  if (isHeavy(original))
    GTEST_SKIP() << "heavy graph: covered by the action-order test";
  auto expected = evaluateOnSeed(original);
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  const auto &passes = graphPasses();
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::mt19937 random(seed);
    Module module = original.clone();
    std::string episode;
    for (int step = 0; step < 20; ++step) {
      const GraphPass &pass = passes[random() % passes.size()];
      episode += pass.name + " ";
      auto changed = pass.run(module);
      ASSERT_TRUE(changed.ok()) << episode << ": " << changed.error().message;
      Status valid = verifyModule(module);
      ASSERT_TRUE(valid.ok()) << episode << ": " << valid.error().message;
    }
    expectOutputs(*expected, module, episode);
  }
}

INSTANTIATE_TEST_SUITE_P(BundledGraphs, PassOnGraph,
                         ::testing::ValuesIn(bundledGraphFiles()),
                         [](const ::testing::TestParamInfo<fs::path> &info) {
                           return testName(info.param);
                         });

TEST(PassAllGraphs, EveryGraphIsBundled) {
  EXPECT_EQ(bundledGraphFiles().size(), 91u);
}

} // namespace
