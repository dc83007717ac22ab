// pad: the script it emits, when zeros leave the result as it is, that padded
// schedules measure correct, how an agent meets it, and the heuristic's use.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

std::string refusal(const std::string &fixture, const std::string &schedule,
                    unsigned op) {
  return applyToFixture(fixture, schedule, op).refusal;
}

} // namespace

TEST(Pad, PadsWithTypedZerosAndHoistsEachInputOutOfTheTileLoops) {
  std::string script =
      transformScriptFor("matmul_odd", "op1: tile(40,64,300) pad tile(8,32,1)");
  EXPECT_NE(script.find("transform.structured.pad %op1_tiled_0 "
                        "{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], "
                        "padding_dimensions = [0, 1, 2], copy_back_op = "
                        "\"linalg.copy\"}"),
            std::string::npos)
      << script;
  // Both inputs, out of the three loops of the first tiling; an input
  // without a pad fails to hoist, silently.
  for (const char *input : {"[0]", "[1]"})
    EXPECT_NE(script.find(std::string("transform.get_producer_of_operand "
                                      "%op1_padded_0") +
                          input),
              std::string::npos)
        << script;
  EXPECT_NE(script.find("failures(suppress)"), std::string::npos) << script;
  EXPECT_NE(script.find("transform.structured.hoist_pad %op1_pad_0 by 3 loops"),
            std::string::npos)
      << script;
  // The later tiling takes the padded op.
  EXPECT_NE(script.find("tile_using_for %op1_padded_0 tile_sizes [8, 32, 1]"),
            std::string::npos)
      << script;
  // Zeros of each operand's own type.
  EXPECT_NE(transformScriptFor("matmul_bf16", "op1: tile(64,40,32) pad")
                .find("0.0 : bf16"),
            std::string::npos);
}

TEST(Pad, MakesAConvolutionsPartialTilesFullSoItVectorizes) {
  const char *padded = "op1: tile(1,1,8,32,0,0,0) pad tile(0,0,0,0,1,1,8) "
                       "vectorize";
  EXPECT_EQ(refusal("conv_nhwc_13", padded, 1), "");
  EXPECT_NE(refusal("conv_nhwc_13",
                    "op1: tile(1,1,8,32,0,0,0) tile(0,0,0,0,1,1,8) vectorize",
                    1)
                .find("convolution tiles must divide the loops"),
            std::string::npos);
}

TEST(Pad, RefusesWhereZerosWouldChangeTheResultOrNothingIsPartial) {
  EXPECT_NE(refusal("matmul", "op1: tile(32,64,64) pad", 1)
                .find("every tile is full: nothing to pad"),
            std::string::npos);
  EXPECT_NE(refusal("matmul", "op1: pad", 1).find("nothing to pad"),
            std::string::npos);
  // A max over a partial reduction tile would see the zeros.
  EXPECT_NE(refusal("row_max", "op1: tile(0,100) pad", 1)
                .find("does not sum products: zeros would change its result"),
            std::string::npos);
  // So would a sum of squared deviations: (0 - mean)^2 is no zero.
  EXPECT_NE(refusal("row_variance", "op1: tile(0,0,100) pad", 1)
                .find("does not sum products"),
            std::string::npos);
  // A max over partial rows only pads rows whose results are dropped.
  EXPECT_EQ(refusal("row_max", "op1: tile(20,0) pad", 1), "");
  // Sums of products and of inputs take zeros in their reductions.
  EXPECT_EQ(refusal("matmul_odd", "op1: tile(40,64,64) pad", 1), "");
  EXPECT_EQ(refusal("generic_rowsum", "op1: tile(0,48) pad", 1), "");
  EXPECT_NE(refusal("chain", "op2: tile(8,8) fuse pad", 2).find("fus"),
            std::string::npos);
}

class PadScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(PadScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, PadScheduleTest,
    ::testing::Values(
        // The 1000 columns leave a last tile of 40 of 64; B's padded panels
        // are copied once, ahead of the loops.
        std::make_pair("matmul_odd",
                       "op1: tile(40,64,300) pad tile(8,32,1) vectorize"),
        // A partial reduction tile (300 = 4 x 64 + 44): zeros add nothing.
        std::make_pair("matmul_odd",
                       "op1: tile(40,64,64) pad tile(8,32,1) vectorize"),
        // Columns of 13 in tiles of 8, the window and channels whole.
        std::make_pair("conv_nhwc_13", "op1: tile(1,1,8,32,0,0,0) pad "
                                       "tile(0,0,0,0,1,1,8) vectorize"),
        // Under threads: the copies stay inside each thread's tile.
        std::make_pair("conv_nhwc_13", "op1: parallelize(0,4,0,0,0,0,0) "
                                       "tile(1,1,8,32,0,0,0) pad "
                                       "tile(0,0,0,0,1,1,8) vectorize"),
        // A max pooling padded along its output columns only.
        std::make_pair("pool_nhwc_odd", "op1: tile(1,1,3,37,0,0) pad "
                                        "tile(0,0,0,0,1,1) vectorize"),
        // A row sum's partial reduction tile.
        std::make_pair("generic_rowsum", "op1: tile(8,48) pad vectorize"),
        // Elementwise, unvectorized.
        std::make_pair("add", "op0: tile(20,20) pad stop")));

TEST(Pad, AnAgentMayPadOnlyAnOpWithPartialTiles) {
  ExtraEnvConfig extra("pad");
  LinalgEnv env(extra.config);
  int pad = env.typeIndex("pad");
  ASSERT_GE(pad, 0);
  auto obs = env.tryReset({fixturePath("add")}, 0); // 64 x 48
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  EXPECT_FALSE(obs->masks[0][pad]);
  // 48 = 32 + 16 columns.
  StepResult step = env.step(extra.action(env, "tile", {1, 32}));
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  ASSERT_TRUE(step.obs.masks[0][pad]);
  step = env.step(extra.action(env, "pad"));
  EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_EQ(env.schedule().str(), "op0: tile(1,32) pad");
  // Its tiles are full now: nothing more to pad.
  EXPECT_FALSE(step.obs.masks[0][pad]);
}

TEST(Pad, HeuristicPadsLongConvolutionColumnsThatNoWideTileDivides) {
  std::string padded = heuristicText("conv_nhwc_13", cpu(16, 32), {"pad"});
  EXPECT_NE(padded.find("op1: tile(1,1,8,32,0,0,0) pad tile(0,0,0,0,1,1,8) "
                        "vectorize"),
            std::string::npos)
      << padded;
  EXPECT_EQ(heuristicText("conv_nhwc_13", cpu(16, 32), {}).find("pad"),
            std::string::npos);
  // 40 products per result: copying each result tile in and out would
  // cost more than padding saves.
  EXPECT_EQ(heuristicText("conv_nhwc_13_1x1", cpu(16, 32), {"pad"}).find("pad"),
            std::string::npos);
  // Columns of 8 tile by 8: nothing to pad.
  EXPECT_EQ(heuristicText("conv_nhwc", cpu(16, 32), {"pad"}).find("pad"),
            std::string::npos);
}

TEST(Pad, TheHeuristicsPadIsDemonstratedAsTheActionsThatReplayIt) {
  ExtraEnvConfig extra("pad");
  LinalgEnv env(extra.config);
  auto demo =
      demonstrateHeuristic(env, {fixturePath("conv_nhwc_13")}, cpu(16, 32));
  ASSERT_TRUE(demo.ok()) << demo.error().message;
  EXPECT_EQ(demo->error, "");
  EXPECT_NE(demo->schedule.find("tile(1,1,8,32,0,0,0) pad tile(0,0,0,0,1,1,8) "
                                "vectorize"),
            std::string::npos)
      << demo->schedule;
}
