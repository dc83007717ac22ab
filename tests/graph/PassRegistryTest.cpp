// The action list and the default pipeline as a user of the environment
// sees them.
#include "PassTestUtil.h"

#include <set>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

TEST(PassRegistry, NamesAreUniqueAndEveryPassIsDescribed) {
  const auto &passes = graphPasses();
  EXPECT_GE(passes.size(), 40u);
  std::set<std::string> names;
  for (const GraphPass &pass : passes) {
    EXPECT_TRUE(names.insert(pass.name).second) << pass.name;
    EXPECT_FALSE(pass.mirrors.empty()) << pass.name;
    EXPECT_FALSE(pass.rewrites.empty()) << pass.name;
    EXPECT_EQ(pass.rewrites.find('\n'), std::string::npos) << pass.name;
    EXPECT_TRUE(static_cast<bool>(pass.run)) << pass.name;
  }
}

TEST(PassRegistry, FindsPassesByName) {
  auto cse = findGraphPass("cse");
  ASSERT_TRUE(cse.has_value());
  EXPECT_EQ(graphPasses()[*cse].name, "cse");
  EXPECT_FALSE(findGraphPass("no-such-pass").has_value());
}

TEST(PassRegistry, DefaultPipelineNamesKnownPasses) {
  ASSERT_FALSE(defaultPipeline().empty());
  for (const PipelinePhase &phase : defaultPipeline())
    for (const std::string &name : phase.passes)
      EXPECT_NE(findPipelinePass(name), nullptr) << name;
  for (const GraphPass &pass : cpuConfiguredPasses())
    EXPECT_FALSE(findGraphPass(pass.name).has_value())
        << pass.name << " is an action too";
}

TEST(PassRegistry, DefaultPipelineReachesAFixedPoint) {
  Module before = parseOk(R"(
HloModule m
relu {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  zs = f32[4] broadcast(z), dimensions={}
  ROOT m = f32[4] maximum(x, zs)
}
ENTRY e {
  p = f32[2,2] parameter(0)
  r = f32[4] reshape(p)
  one = f32[] constant(1)
  two = f32[] constant(2)
  three = f32[] add(one, two)
  b = f32[4] broadcast(three), dimensions={}
  s = f32[4] multiply(r, b)
  c1 = f32[4] call(s), to_apply=relu
  c2 = f32[4] call(s), to_apply=relu
  dead = f32[4] exponential(c1)
  ROOT t = f32[4] add(c1, c2)
})");
  Module after = before.clone();
  auto rounds = runDefaultPipeline(after);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  EXPECT_GE(*rounds, 1);
  // Inlined, folded (1 + 2), CSE'd (the two relus), dead code gone.
  EXPECT_EQ(countOf(after, Opcode::Call), 0);
  EXPECT_EQ(countOf(after, Opcode::Maximum), 1);
  EXPECT_EQ(countOf(after, Opcode::Exp), 0);
  EXPECT_EQ(after.computations().size(), 1u);
  EXPECT_LT(totalOps(after), totalOps(before));
  expectSameResults(before, after, "default pipeline");
  auto again = runDefaultPipeline(after);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0);
}

// D lowers what XLA's CPU backend cannot run as written, before it
// simplifies: batch norms and logistics are expanded and dots canonicalized,
// and the outputs stay the same.
TEST(PassRegistry, DefaultPipelineLowersWhatTheCpuBackendNeeds) {
  Module before = parseOk(R"(
HloModule m
ENTRY e {
  x = f32[2,3,4] parameter(0)
  scale = f32[3] parameter(1)
  offset = f32[3] parameter(2)
  mean = f32[3] parameter(3)
  variance = f32[3] parameter(4)
  n = f32[2,3,4] batch-norm-inference(x, scale, offset, mean, variance), epsilon=0.001, feature_index=1
  s = f32[2,3,4] logistic(n)
  w = f32[5,3] parameter(5)
  ROOT d = f32[2,4,5] dot(s, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})");
  Module after = before.clone();
  auto rounds = runDefaultPipeline(after);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  EXPECT_EQ(countOf(after, Opcode::BatchNormInference), 0);
  EXPECT_EQ(countOf(after, Opcode::Logistic), 0);
  ASSERT_EQ(countOf(after, Opcode::Dot), 1);
  for (const auto &instruction : after.entry()->instructions())
    if (instruction->opcode() == Opcode::Dot)
      EXPECT_EQ(instruction->shape().dims().size(), 2u)
          << "the dot is not in XLA's canonical [M,K]x[K,N] form";
  expectSameResults(before, after, "default pipeline");
}

// XLA's CPU pipeline leaves SliceSinker disabled, so D does too: an add of
// two slices covering whole arrays stays as it is.
TEST(PassRegistry, DefaultPipelineDoesNotSinkSlices) {
  Module module = parseOk(R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  a0 = f32[2] slice(a), slice={[0:2]}
  a1 = f32[2] slice(a), slice={[2:4]}
  b0 = f32[2] slice(b), slice={[0:2]}
  b1 = f32[2] slice(b), slice={[2:4]}
  s0 = f32[2] add(a0, b0)
  s1 = f32[2] add(a1, b1)
  ROOT t = (f32[2], f32[2]) tuple(s0, s1)
})");
  Module sunk = module.clone();
  auto sinker = findGraphPass("slice-sinker");
  ASSERT_TRUE(sinker.has_value());
  auto changed = graphPasses()[*sinker].run(sunk);
  ASSERT_TRUE(changed.ok() && *changed) << "slice-sinker should apply here";
  auto rounds = runDefaultPipeline(module);
  ASSERT_TRUE(rounds.ok()) << rounds.error().message;
  EXPECT_EQ(countOf(module, Opcode::Add), 2);
  EXPECT_EQ(countOf(module, Opcode::Slice), 4);
}

TEST(PassRegistry, PipelineStopsAtTheRoundLimit) {
  Module module = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = f32[4] negate(p)
  ROOT m = f32[4] negate(n)
})");
  auto rounds = runDefaultPipeline(module, 0);
  ASSERT_TRUE(rounds.ok());
  EXPECT_EQ(*rounds, 0);
  EXPECT_EQ(countOf(module, Opcode::Negate), 2);
}

} // namespace
