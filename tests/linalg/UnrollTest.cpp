// unroll: which loop it unrolls and when, what it refuses, that unrolled
// schedules measure correct, and how an agent's heads choose it.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

void expectRefused(const std::string &fixture, const std::string &schedule,
                   const std::string &why) {
  std::string refusal = applyToFixture(fixture, schedule, 0).refusal;
  EXPECT_NE(refusal.find(why), std::string::npos)
      << schedule << ": '" << refusal << "'";
}

} // namespace

TEST(Unroll, UnrollsTheInnermostTileLoopAfterTheOpsLastStep) {
  std::string script = transformScriptFor(
      "matmul", "op1: tile(32,64,64) tile(8,32,1) unroll(0,0,4) vectorize");
  // The second tiling's third loop (k, 64 iterations of 1) unrolls by 4.
  size_t unroll =
      script.find("transform.loop.unroll %op1_for_1#2 { factor = 4 }");
  ASSERT_NE(unroll, std::string::npos) << script;
  // After vectorize, so that every copy is vectorized.
  size_t vectorize = script.find("transform.structured.vectorize");
  ASSERT_NE(vectorize, std::string::npos);
  EXPECT_GT(unroll, vectorize);
}

TEST(Unroll, InnerLoopsUnrollBeforeOuterOnes) {
  std::string script = transformScriptFor(
      "matmul", "op1: tile(0,0,8) tile(8,32,0) unroll(2,0,4)");
  size_t inner = script.find("transform.loop.unroll %op1_for_1#0 { factor "
                             "= 2 }"); // rows, tiled second: nested deeper
  size_t outer = script.find("transform.loop.unroll %op1_for_0#0 { factor "
                             "= 4 }");
  ASSERT_NE(inner, std::string::npos) << script;
  ASSERT_NE(outer, std::string::npos) << script;
  EXPECT_LT(inner, outer);
}

TEST(Unroll, FollowsItsLoopThroughAnInterchange) {
  // After interchange(0,2,1) the op's loop 1 is k, which the first tiling's
  // third loop tiles.
  std::string script = transformScriptFor(
      "matmul", "op1: tile(8,32,4) interchange(0,2,1) unroll(0,2,0)");
  EXPECT_NE(script.find("transform.loop.unroll %op1_for_0#2 { factor = 2 }"),
            std::string::npos)
      << script;
}

TEST(Unroll, RefusesWhatItCannotUnroll) {
  expectRefused("add", "op0: unroll(0,4)",
                "loop 1 is not tiled by an scf.for (tile it first)");
  expectRefused("add", "op0: parallelize(8,0) unroll(2,0)",
                "loop 0 is not tiled by an scf.for");
  expectRefused("add", "op0: tile(0,16) unroll(0,4)",
                "factor 4 exceeds the 3 iterations of loop 1's tile loop");
  expectRefused("add", "op0: tile(8,16) unroll(1,0)",
                "must be 0 or lie in 2..8");
  expectRefused("add", "op0: tile(8,16) unroll(16,0)",
                "must be 0 or lie in 2..8");
  expectRefused("add", "op0: tile(8,16) unroll(0,0)",
                "unrolls nothing (every factor is 0)");
  expectRefused("add", "op0: tile(8,16) unroll(2,0) unroll(0,2)",
                "the op's loops are already unrolled");
  expectRefused("add", "op0: tile(8,16) vectorize unroll(2,0)",
                "already vectorized");
}

class UnrollScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(UnrollScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, UnrollScheduleTest,
    ::testing::Values(
        // The register tile's reduction loop: accumulators carried across
        // four contractions.
        std::make_pair("matmul",
                       "op1: tile(32,64,64) tile(8,32,1) unroll(0,0,4) "
                       "vectorize"),
        // Peeled: the main part and the rest both unroll; 300 rows of k
        // leave no remainder at 4, the 1000 columns do at 32.
        std::make_pair("matmul_odd", "op1: peel(0,32,0) tile(8,32,1) "
                                     "unroll(0,0,8) vectorize"),
        // A partial last tile (1000 = 31 x 32 + 8) and an outer loop.
        std::make_pair("matmul_odd",
                       "op1: tile(8,32,1) unroll(2,0,4) vectorize"),
        // Under threads, and unvectorized.
        std::make_pair("add",
                       "op0: parallelize(32,0) tile(0,8) unroll(0,2) stop")));

TEST(Unroll, AnAgentsHeadChoosesTheLoopAndTheFactorIsTheLargestAllowed) {
  ExtraEnvConfig extra("unroll");
  LinalgEnv env(extra.config);
  int unroll = env.typeIndex("unroll");
  ASSERT_GE(unroll, 0);
  auto obs = env.tryReset({fixturePath("add")}, 0); // 64 x 48
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  // Nothing is tiled yet: nothing to unroll.
  EXPECT_FALSE(obs->masks[0][unroll]);
  StepResult step = env.step(extra.action(env, "tile", {1, 16}));
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  ASSERT_TRUE(step.obs.masks[0][unroll]);
  // Loop 0's range is now 1: its head offers only size 1, which picks the
  // loop; its 64 iterations allow the cap of 8.
  step = env.step(extra.action(env, "unroll", {1}));
  EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_EQ(env.schedule().str(), "op0: tile(1,16) unroll(8,0)");
}

TEST(Unroll, HeuristicUnrollsTheRegisterTilesReductionLoopByEight) {
  // 64 steps of k in the cache tile, one per register-tile iteration.
  EXPECT_NE(heuristicText("matmul", cpu(16, 32), {"unroll"})
                .find("tile(8,32,1) unroll(0,0,8) vectorize"),
            std::string::npos)
      << heuristicText("matmul", cpu(16, 32), {"unroll"});
  EXPECT_EQ(heuristicText("matmul", cpu(16, 32), {}).find("unroll"),
            std::string::npos);
  // Packed (B stored n x k): the outer reduction loop, tiled by 1, unrolls.
  std::string packed =
      heuristicText("matmul_transpose_b", cpu(16, 32), {"pack", "unroll"});
  EXPECT_NE(packed.find("pack("), std::string::npos) << packed;
  EXPECT_NE(packed.find("unroll(0,0,8,0,0,0) vectorize"), std::string::npos)
      << packed;
  // An elementwise op has no reduction loop to unroll.
  EXPECT_EQ(heuristicText("add", cpu(16, 32), {"unroll"}).find("unroll"),
            std::string::npos);
}

TEST(Unroll, TheHeuristicsUnrollIsDemonstratedAsTheActionsThatReplayIt) {
  ExtraEnvConfig extra("unroll");
  LinalgEnv env(extra.config);
  auto demo = demonstrateHeuristic(env, {fixturePath("matmul")}, cpu(16, 32));
  ASSERT_TRUE(demo.ok()) << demo.error().message;
  EXPECT_EQ(demo->error, "");
  EXPECT_NE(demo->schedule.find("tile(8,32,1) unroll(0,0,8) vectorize"),
            std::string::npos)
      << demo->schedule;
}
