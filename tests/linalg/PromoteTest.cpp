// promote: which input tiles it copies, where it refuses, that promoted
// schedules measure correct, how an agent meets it, and the heuristic's use.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Lowering.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

std::string refusal(const std::string &fixture, const std::string &schedule,
                    unsigned op) {
  return applyToFixture(fixture, schedule, op).refusal;
}

std::string copiesOf(const std::string &fixture, const std::string &schedule) {
  std::string script = transformScriptFor(fixture, schedule);
  size_t at = script.find("pack_paddings = ");
  if (at == std::string::npos)
    return script;
  return script.substr(at, script.find(']', at) + 1 - at);
}

} // namespace

TEST(Promote, CopiesOnlyTheInputTilesTheInnermostLoopReadsAcrossRows) {
  // conv_nhwc: input 1x10x10x8, filter 3x3x8x16. Eight of the sixteen
  // output channels: the filter slice's rows are 16 floats apart, while the
  // input tile is the whole image.
  EXPECT_EQ(copiesOf("conv_nhwc", "op1: tile(0,0,0,8,0,0,0) promote"),
            "pack_paddings = [0, 1, 0]");
  // One output row: the input tile is three whole rows of the image, one
  // block of memory, and so is the filter, all of whose channels it reads.
  EXPECT_NE(refusal("conv_nhwc", "op1: tile(1,1,0,0,0,0,0) promote", 1)
                .find("no input tile has rows the op's innermost loop steps "
                      "across: nothing to promote"),
            std::string::npos);
  // Four output columns: the input tile takes 6 of 10 columns of 3 rows,
  // but the innermost loop (the input channels) reads each along a row.
  EXPECT_NE(refusal("conv_nhwc", "op1: tile(1,1,4,0,0,0,0) promote", 1)
                .find("nothing to promote"),
            std::string::npos);
  // A matmul's 64 x 16 panel of B is 16 of each row's 64 columns, and each
  // step of k reads the next row; A's 16 x 64 block is 16 whole rows.
  EXPECT_EQ(copiesOf("matmul", "op1: tile(16,16,0) promote"),
            "pack_paddings = [0, 1, 0]");
  // A's 16 x 16 block has rows apart too, but k reads along them.
  EXPECT_EQ(copiesOf("matmul", "op1: tile(16,16,16) promote"),
            "pack_paddings = [0, 1, 0]");
  // The later tiling takes the promoted op, and nothing is copied back.
  std::string script =
      transformScriptFor("matmul", "op1: tile(16,16,0) promote tile(8,16,1)");
  EXPECT_NE(script.find("copy_back_op = \"none\""), std::string::npos);
  EXPECT_NE(script.find("tile_using_for %op1_padded_0 tile_sizes [8, 16, 1]"),
            std::string::npos)
      << script;
}

TEST(Promote, RefusesWhereItsCopiesWouldNotBeWhatTheLoopsRead) {
  EXPECT_NE(refusal("matmul", "op1: promote", 1).find("nothing to promote"),
            std::string::npos);
  EXPECT_NE(refusal("matmul_odd", "op1: tile(40,64,300) promote", 1)
                .find("a tile is partial: promote needs tile sizes that "
                      "divide their loops"),
            std::string::npos);
  EXPECT_NE(
      refusal("matmul", "op1: interchange(1,0,2) tile(16,16,0) promote", 1)
          .find("only tile and parallelize may come before it"),
      std::string::npos);
  EXPECT_NE(refusal("matmul", "op1: tile(16,16,0) promote promote", 1)
                .find("not promote"),
            std::string::npos);
  // The matmul fused into the bias add's loops is computed inside them.
  EXPECT_NE(refusal("chain", "op2: fuse(8,8); op1: promote", 1)
                .find("promote the op before fusing it into its consumer"),
            std::string::npos);
}

TEST(Promote, ItsCopiesLowerWithoutFillingTheirBuffersFirst) {
  auto program = loadFixture("conv_nhwc");
  ASSERT_TRUE(program.ok()) << program.error().message;
  Status applied = applyTransformScript(
      *program->module,
      transformScriptFor("conv_nhwc", "op1: tile(0,0,0,8,0,0,0) promote "
                                      "tile(1,1,4,0,1,1,8) vectorize"));
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  ASSERT_NE(printed(*program->module).find("tensor.pad"), std::string::npos);
  copyTilesThatPadNothing(*program->module);
  std::string copied = printed(*program->module);
  EXPECT_EQ(copied.find("tensor.pad"), std::string::npos) << copied;
  EXPECT_NE(copied.find("linalg.copy ins("), std::string::npos) << copied;
  // A pad that pads (a "same" convolution's border) stays a pad.
  auto padded = loadFixture("conv_padded");
  ASSERT_TRUE(padded.ok()) << padded.error().message;
  copyTilesThatPadNothing(*padded->module);
  EXPECT_NE(printed(*padded->module).find("tensor.pad"), std::string::npos);
}

class PromoteScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(PromoteScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, PromoteScheduleTest,
    ::testing::Values(
        // The filter slice of each channel tile, copied once per tile.
        std::make_pair("conv_nhwc", "op1: tile(0,0,0,8,0,0,0) promote "
                                    "tile(1,1,4,0,1,1,8) vectorize"),
        // Under threads: each thread copies its own slices.
        std::make_pair("conv_nhwc", "op1: parallelize(0,4,0,0,0,0,0) "
                                    "tile(0,0,0,8,0,0,0) promote "
                                    "tile(1,1,4,0,1,1,8) vectorize"),
        // B's panels and A's blocks, then the register tile.
        std::make_pair("matmul",
                       "op1: tile(16,16,16) promote tile(8,16,1) vectorize"),
        // Unvectorized.
        std::make_pair("matmul", "op1: tile(16,16,0) promote stop")));

TEST(Promote, AnAgentMayPromoteOnlyAfterATileThatCutsRowsApart) {
  ExtraEnvConfig extra("promote");
  LinalgEnv env(extra.config);
  int promote = env.typeIndex("promote");
  ASSERT_GE(promote, 0);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  // op1, the matmul, is scheduled first.
  EXPECT_FALSE(obs->masks[0][promote]);
  StepResult step = env.step(extra.action(env, "tile", {16, 16}));
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  ASSERT_TRUE(step.obs.masks[0][promote]);
  step = env.step(extra.action(env, "promote"));
  EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_EQ(env.schedule().str(), "op1: tile(16,16,0) promote");
  EXPECT_FALSE(step.obs.masks[0][promote]);
}

TEST(Promote, HeuristicCopiesAFilterLargerThanTheL2ReadByManyPixelTiles) {
  // conv_padded: 12 x 12 outputs in 24 tiles of 6 columns, a 4.5 KiB filter
  // of 16 channels. Four lanes: two vectors of channels are 8 of the 16.
  measure::CpuTarget small = cpu(4, 16);
  small.l2Bytes = 4 << 10;
  std::string promoted = heuristicText("conv_padded", small, {"promote"});
  EXPECT_NE(promoted.find("tile(0,0,0,8,0,0,0) promote "
                          "tile(1,1,6,0,1,1,8) vectorize"),
            std::string::npos)
      << promoted;
  EXPECT_EQ(heuristicText("conv_padded", small, {}).find("promote"),
            std::string::npos);
  // The filter fits a 1 MiB L2.
  EXPECT_EQ(
      heuristicText("conv_padded", cpu(4, 16), {"promote"}).find("promote"),
      std::string::npos);
  // conv_nhwc: 8 x 8 outputs in 8 tiles of 8 columns read each slice too
  // few times to pay for its copy.
  EXPECT_EQ(heuristicText("conv_nhwc", small, {"promote"}).find("promote"),
            std::string::npos);
  // A 1 x 1 convolution's pixels would re-read the input instead.
  EXPECT_EQ(
      heuristicText("conv_nhwc_13_1x1", small, {"promote"}).find("promote"),
      std::string::npos);
}

TEST(Promote, HeuristicCopiesBlocksOfBThatAreNotWholeRows) {
  // big_matmul (1024^3 f32), 48 KiB of L1 and 1 MiB of L2: panels of 256
  // rows of 32 floats take 32 KiB, blocks of 256 x 256 a quarter of the L2,
  // and eight register tiles of A pass over each block.
  measure::CpuTarget target = cpu(16, 32);
  target.l1dBytes = 48 << 10;
  std::string blocked = heuristicText("big_matmul", target, {"promote"});
  EXPECT_EQ(blocked.rfind("op1: tile(0,256,256) promote tile(64,0,0) "
                          "tile(8,32,1) vectorize",
                          0),
            0u)
      << blocked;
  EXPECT_NE(heuristicText("big_matmul", target, {"promote", "unroll"})
                .find("tile(8,32,1) unroll(0,0,8) vectorize"),
            std::string::npos);
  EXPECT_EQ(heuristicText("big_matmul", target, {}).find("promote"),
            std::string::npos);
  // 64 columns fit one block: its rows are whole, one stream already.
  EXPECT_EQ(heuristicText("matmul", target, {"promote"}).find("promote"),
            std::string::npos);
  // With caches small enough to cut them into blocks, its 64 rows are still
  // only 8 register tiles, too few to pay for copying each block.
  measure::CpuTarget smallCaches = target;
  smallCaches.l1dBytes = 1 << 10;
  smallCaches.l2Bytes = 1 << 10;
  EXPECT_EQ(heuristicText("matmul", smallCaches, {"promote"}).find("promote"),
            std::string::npos);
  // B stored n x k: vectors along n would read across its rows; packed.
  EXPECT_EQ(heuristicText("matmul_transpose_b", target, {"promote", "pack"})
                .rfind("op0: pack(", 0),
            0u);
}

TEST(Promote, ThreadsThatSplitBsColumnsCopyBlocksOfTheirOwnColumns) {
  // matmul_wide (16 x 64 x 32) at two threads: each takes 32 of B's 64
  // columns. A 512-byte L1 makes kc 8 and a 4 KiB L2 makes nc 32, the
  // thread's whole part: still not whole rows of B, so it is copied.
  measure::CpuTarget tiny = cpu(4, 4);
  tiny.l1dBytes = 512;
  tiny.l2Bytes = 4 << 10;
  auto program = loadFixture("matmul_wide");
  ASSERT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  options.target = tiny;
  options.threads = 2;
  options.extraTransformations = {"promote"};
  Schedule schedule = heuristicSchedule(*program, options);
  EXPECT_EQ(
      schedule.str().rfind("op1: parallelize(0,32,0) tile(0,0,8) promote", 0),
      0u)
      << schedule.str();
  auto measured = measureSchedule(*program, schedule, quickMeasureOptions(2));
  ASSERT_TRUE(measured.ok()) << measured.error().message;
  EXPECT_TRUE(measured->correct) << schedule.str();
}

TEST(Promote, HeuristicPromotedContractionsMeasureCorrectAtOneAndTwoThreads) {
  // Caches small enough that 16-column blocks of B are not whole rows, and
  // register tiles of one row, so that even a thread's 16 rows of A are 16
  // register tiles that reuse each copy.
  measure::CpuTarget tiny = cpu(4, 4);
  tiny.l1dBytes = 1 << 10;
  tiny.l2Bytes = 4 << 10;
  // matmul_wide: at two threads they split B's columns, and each copies
  // blocks of its half.
  for (const char *fixture : {"matmul", "batch_matmul", "matmul_wide"}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    for (int threads : {1, 2}) {
      HeuristicOptions options;
      options.target = tiny;
      options.threads = threads;
      options.extraTransformations = {"promote", "unroll"};
      Schedule schedule = heuristicSchedule(*program, options);
      ASSERT_NE(schedule.str().find("promote"), std::string::npos)
          << fixture << ": " << schedule.str();
      auto measured =
          measureSchedule(*program, schedule, quickMeasureOptions(threads));
      ASSERT_TRUE(measured.ok()) << measured.error().message;
      EXPECT_TRUE(measured->correct)
          << fixture << " at " << threads << " threads: " << schedule.str();
    }
  }
}
