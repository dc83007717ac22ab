// peel: what it leaves of the op, what it refuses, that peeled schedules
// measure correct, and that the heuristic peels columns no two-vector tile
// divides, rows and reductions without a good divisor, only when it may.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"
#include "rlopt/measure/MachineInfo.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

bool refusedWith(const std::string &name, const std::string &schedule,
                 const std::string &why) {
  std::string refusal = applyToFixture(name, schedule, 0).refusal;
  EXPECT_NE(refusal.find(why), std::string::npos)
      << schedule << ": '" << refusal << "'";
  return refusal.find(why) != std::string::npos;
}

std::vector<TransformStep>
heuristicSteps(std::vector<std::string> extras,
               const std::string &fixture = "matmul_odd") {
  auto program = loadFixture(fixture);
  EXPECT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  options.target.f32Lanes = 16;
  options.target.vectorRegisters = 32;
  options.target.l2Bytes = 1 << 20;
  options.extraTransformations = std::move(extras);
  Schedule schedule = heuristicSchedule(*program, options);
  for (const OpSchedule &op : schedule.ops)
    if (op.opId == "op1")
      return op.steps;
  return {};
}

/// The heuristic's steps begin with `peel` at `sizes` and end with the
/// register tile `registerTile` before `vectorize`.
void expectPeelAndRegisterTile(const std::vector<TransformStep> &steps,
                               const std::vector<int64_t> &sizes,
                               const std::vector<int64_t> &registerTile) {
  ASSERT_GE(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "peel");
  EXPECT_EQ(steps[0].params, sizes);
  EXPECT_EQ(steps[steps.size() - 2].params, registerTile);
  EXPECT_EQ(steps.back().name, "vectorize");
}

/// The `vector_sizes` of each part of a peeled op, in the script's order.
std::vector<std::string> vectorSizes(const std::string &fixture,
                                     const std::string &schedule) {
  std::string script = transformScriptFor(fixture, schedule);
  std::regex sizes("vectorize %\\w+_part_\\d+ vector_sizes \\[([0-9, ]+)\\]");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(script.begin(), script.end(), sizes);
       it != std::sregex_iterator(); ++it)
    found.push_back((*it)[1]);
  return found;
}

} // namespace

TEST(Peel, EachPartVectorizesAtItsOwnTileSizes) {
  // Rows 200 = 192 + 8 and columns 1000 = 992 + 8: four parts, ordered as
  // peel's splits left them, none masked beyond its own tile.
  EXPECT_EQ(vectorSizes("matmul_odd", "op1: peel(64,32,0) tile(16,32,1) "
                                      "vectorize"),
            (std::vector<std::string>{"16, 32, 1", "8, 32, 1", "16, 8, 1",
                                      "8, 8, 1"}));
  // The peeled column loop moved by interchange: to the last place, and
  // to the first by a rotation of the three loops.
  EXPECT_EQ(vectorSizes("matmul_odd", "op1: peel(0,32,0) interchange(0,2,1) "
                                      "tile(4,1,32) vectorize"),
            (std::vector<std::string>{"4, 1, 32", "4, 1, 8"}));
  EXPECT_EQ(vectorSizes("matmul_odd", "op1: peel(0,32,0) interchange(1,2,0) "
                                      "tile(32,1,4) vectorize"),
            (std::vector<std::string>{"32, 1, 4", "8, 1, 4"}));
  // 49 pixels = 32 + 17: a rest across the lanes that is neither whole
  // registers nor a power of two is rounded up to whole registers.
  int64_t lanes = measure::hostMachine().target.f32Lanes;
  int64_t rest = std::min<int64_t>(32, (17 + lanes - 1) / lanes * lanes);
  EXPECT_EQ(vectorSizes("conv_nchw_7x7",
                        "op1: img2col peel(0,0,32,0) tile(1,8,32,1) vectorize"),
            (std::vector<std::string>{
                "1, 8, 32, 1", "1, 8, " + std::to_string(rest) + ", 1"}));
}

TEST(Peel, MainPartRangesDivideAndLaterStepsSeeThem) {
  // 1000 columns peeled at 32: the main part has 992, which 32 divides, so
  // the tile leaves no partial tile.
  ScheduleOutcome peeled = applyToFixture("matmul_odd", "op1: peel(0,32,0)", 1);
  ASSERT_EQ(peeled.refusal, "");
  EXPECT_EQ(peeled.ranges, (std::vector<int64_t>{200, 992, 300}));
  ScheduleOutcome tiled = applyToFixture(
      "matmul_odd", "op1: peel(0,32,0) tile(8,32,1) vectorize", 1);
  EXPECT_EQ(tiled.refusal, "");
  EXPECT_EQ(tiled.ranges, (std::vector<int64_t>{8, 32, 1}));
}

TEST(Peel, RefusesWhatItCannotPeel) {
  refusedWith("add", "op0: peel(8,16)", "every size divides its loop");
  refusedWith("add", "op0: peel(0,48)", "must lie in 1..47");
  refusedWith("add", "op0: tile(0,32) peel(0,5)",
              "peel before tiling with sizes that do not divide");
  refusedWith(
      "add", "op0: peel(0,32) parallelize(8,0)",
      "after peel only tile, interchange, unroll, vectorize and stop apply");
  refusedWith("conv_nhwc", "op1: peel(0,5,0,0,0,0,0)",
              "loop 1 slides over a window and does not split");
  refusedWith("reduce", "op1: peel(0,48) vectorize",
              "cannot mask linalg.reduce");
}

class PeelScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(PeelScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, PeelScheduleTest,
    ::testing::Values(
        std::make_pair("matmul_odd",
                       "op1: peel(0,32,0) tile(40,128,300) tile(8,32,1) "
                       "vectorize; op0: peel(0,64) tile(8,64) vectorize"),
        // Both parallel loops peeled: four parts.
        std::make_pair("matmul_odd",
                       "op1: peel(64,32,0) tile(8,32,1) vectorize"),
        // Threads first, then each thread's rows peeled and interchanged.
        std::make_pair("matmul_odd", "op1: parallelize(100,0,0) peel(0,32,0) "
                                     "interchange(0,2,1) tile(4,1,32) "
                                     "vectorize"),
        std::make_pair("add", "op0: peel(0,32) tile(8,32) vectorize"),
        // After img2col: the 49 output pixels as 32 and a remainder of 17.
        std::make_pair("conv_nchw_7x7",
                       "op1: img2col peel(0,0,32,0) tile(1,8,32,1) "
                       "vectorize"),
        // 48 and a rest of 1, as the heuristic peels them.
        std::make_pair("conv_nchw_7x7",
                       "op1: img2col peel(0,0,16,0) tile(1,8,16,1) "
                       "vectorize"),
        // Window ops: channels and filters split, the remainder's tile made
        // static before the unmasked convolution vectorizer.
        std::make_pair("pool_nhwc_odd",
                       "op1: peel(0,0,0,32,0,0) tile(1,1,4,32,1,1) vectorize"),
        std::make_pair("pool_nhwc_odd",
                       "op1: parallelize(0,2,0,0,0,0) peel(0,0,0,8,0,0) "
                       "tile(1,1,2,8,1,1) vectorize"),
        std::make_pair("conv_nhwc_odd",
                       "op1: peel(0,0,0,16,0,0,0) tile(1,1,6,16,1,1,5) "
                       "vectorize"),
        // The reduction peeled: its rest of one step adds itself to the
        // bulk's result.
        std::make_pair("matmul_prime_depth",
                       "op1: peel(0,0,8) tile(64,96,464) tile(8,32,1) "
                       "unroll(0,0,8) vectorize"),
        // Rows: a bulk of 48 and a rest of 5.
        std::make_pair("matmul_prime_rows",
                       "op1: peel(8,0,0) tile(8,32,1) unroll(0,0,8) "
                       "vectorize"),
        std::make_pair("matmul_cols120",
                       "op1: peel(0,16,0) tile(32,112,128) tile(8,16,1) "
                       "unroll(0,0,8) vectorize"),
        // Rows, columns and the reduction: eight parts.
        std::make_pair("matmul_odd",
                       "op1: peel(64,32,16) tile(8,32,16) tile(8,32,1) "
                       "vectorize")));

TEST(Peel, HeuristicPeelsColumnsNoTwoVectorTileDivides) {
  // With peel: the full 8 x 32 register tile on 992 columns. Without: the
  // widest power of two that divides 1000 (8), in 10 rows of 200.
  auto peeled = heuristicSteps({"peel"});
  ASSERT_EQ(peeled.size(), 4u);
  EXPECT_EQ(peeled[0].name, "peel");
  EXPECT_EQ(peeled[0].params, (std::vector<int64_t>{0, 32, 0}));
  EXPECT_EQ(peeled[2].params, (std::vector<int64_t>{8, 32, 1}));
  auto plain = heuristicSteps({});
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain[1].params, (std::vector<int64_t>{10, 8, 1}));
}

TEST(Peel, HeuristicPeelsColumnsAtOneVectorWhereThatLeavesNoMask) {
  // 120 columns: at two vectors, 96 and a rest of 24 under a mask; at one,
  // 112 and a rest of 8, a power of two that needs none, in 16 rows.
  expectPeelAndRegisterTile(heuristicSteps({"peel"}, "matmul_cols120"),
                            {0, 16, 0}, {16, 16, 1});
  EXPECT_EQ(vectorSizes("matmul_cols120", "op1: peel(0,16,0) tile(8,16,1) "
                                          "vectorize"),
            (std::vector<std::string>{"8, 16, 1", "8, 8, 1"}));
}

TEST(Peel, HeuristicPeelsAReductionNoTileOfEightOrMoreDivides) {
  // 929 steps, a prime: the bulk of 928 is tiled 464 deep, where without
  // peel the cache tile took one step of the reduction at a time.
  auto steps = heuristicSteps({"peel", "unroll"}, "matmul_prime_depth");
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[0].name, "peel");
  EXPECT_EQ(steps[0].params, (std::vector<int64_t>{0, 0, 8}));
  EXPECT_EQ(steps[1].name, "tile");
  EXPECT_GE(steps[1].params[2], 8);
  EXPECT_EQ(steps[1].params[2] % 8, 0);
  auto plain = heuristicSteps({}, "matmul_prime_depth");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(plain[0].params[2], 1);
  // Two rows stream B: its rows come 8 at a time to each register tile.
  expectPeelAndRegisterTile(
      heuristicSteps({"peel"}, "matmul_two_rows_prime_depth"), {0, 0, 8},
      {2, 32, 8});
  // A reduction with a divisor of 8 or more up to the cache tile's depth is
  // tiled by it (matmul_odd: 300 by 300).
  for (const TransformStep &step : heuristicSteps({"peel"}))
    if (step.name == "peel")
      EXPECT_EQ(step.params[2], 0);
}

TEST(Peel, HeuristicPeelsRowsWhoseRegisterTileWouldBeUnderHalf) {
  // 53 rows, a prime: 48 in tiles of 8 rows and a rest of 5, where without
  // peel every register tile was one row.
  expectPeelAndRegisterTile(heuristicSteps({"peel"}, "matmul_prime_rows"),
                            {8, 0, 0}, {8, 32, 1});
  auto plain = heuristicSteps({}, "matmul_prime_rows");
  ASSERT_GE(plain.size(), 2u);
  EXPECT_EQ(plain[plain.size() - 2].params[0], 1);
  // 200 rows divide by 8: not peeled.
  auto odd = heuristicSteps({"peel"});
  ASSERT_FALSE(odd.empty());
  EXPECT_EQ(odd[0].params[0], 0);
}

TEST(Peel, HeuristicPeelsAConvolutionsPixelsAfterImg2col) {
  // 9 x 9 = 81 pixels: without peel no vector-wide tile divides them, and
  // the masked tail tile keeps the accumulators in memory. Two tiles of
  // two vectors keep the full register tile, and the rest of 17 its own.
  auto steps = heuristicSteps({"peel"}, "conv_nchw_9x9");
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[0].name, "img2col");
  EXPECT_EQ(steps[1].name, "peel");
  EXPECT_EQ(steps[1].params, (std::vector<int64_t>{0, 0, 32, 0}));
  EXPECT_EQ(steps.back().name, "vectorize");
  // 7 x 7 = 49 pixels, one such tile and a rest of 17: one-vector tiles
  // over 48, and a rest of 1.
  steps = heuristicSteps({"peel"}, "conv_nchw_7x7");
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[1].name, "peel");
  EXPECT_EQ(steps[1].params, (std::vector<int64_t>{0, 0, 16, 0}));
  const TransformStep &registerTile = steps[steps.size() - 2];
  EXPECT_EQ(registerTile.name, "tile");
  EXPECT_EQ(registerTile.params[2], 16);
}

TEST(Peel, HeuristicPeelsChannelsNoVectorDivides) {
  // 37 channels with 16 lanes: a main part of 32 (two vectors, whose rest
  // of 5 is all that is left under one vector), instead of 1-wide vectors.
  auto steps = heuristicSteps({"peel"}, "pool_nhwc_odd");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "peel");
  EXPECT_EQ(steps[0].params, (std::vector<int64_t>{0, 0, 0, 32, 0, 0}));
  EXPECT_EQ(steps[1].params, (std::vector<int64_t>{1, 1, 4, 32, 1, 0}));
  auto plain = heuristicSteps({}, "pool_nhwc_odd");
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain[0].name, "fuse");
  EXPECT_EQ(plain[1].params, (std::vector<int64_t>{1, 1, 4, 1, 1, 0}));
  // 24 filters: one whole vector and a rest of 8.
  auto conv = heuristicSteps({"peel"}, "conv_nhwc_odd");
  ASSERT_EQ(conv.size(), 3u);
  EXPECT_EQ(conv[0].params, (std::vector<int64_t>{0, 0, 0, 16, 0, 0, 0}));
}

TEST(Peel, InTheEnvironmentASizeThatPeelsNothingIsANoOp) {
  ExtraEnvConfig extra("peel");
  LinalgEnv env(extra.config);
  int peel = env.typeIndex("peel");
  ASSERT_EQ(peel, 7);
  for (auto [size, expected] :
       {std::pair<int64_t, const char *>{32, "op0: peel(0,32)"}, {16, ""}}) {
    auto obs = env.tryReset({fixturePath("add")}, 0);
    ASSERT_TRUE(obs.ok()) << obs.error().message;
    ASSERT_TRUE(obs->masks[0][peel]);
    // 48 columns; loop 0 is not peeled.
    StepResult step = env.step(extra.action(env, "peel", {0, size}));
    EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
    EXPECT_EQ(step.info.contains("noop"), std::string(expected).empty());
    EXPECT_EQ(env.schedule().str(), expected);
  }
}
