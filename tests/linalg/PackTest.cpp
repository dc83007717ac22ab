// pack: the loop nest it leaves, what it refuses, that packed schedules
// measure correct, and that the heuristic packs contractions whose vector
// loop an input reads across rows (B stored n x k) only when it may.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

void expectRefused(const std::string &name, const std::string &schedule,
                   const std::string &why, TransformLimits limits = {}) {
  std::string refusal = applyToFixture(name, schedule, 0, limits).refusal;
  EXPECT_NE(refusal.find(why), std::string::npos)
      << schedule << ": '" << refusal << "'";
}

} // namespace

TEST(Pack, EachPackedLoopSplitsIntoOuterBlocksAndAnInnerTile) {
  // 32 x 48 x 256 by (8, 16, 1): 4 x 3 x 256 blocks, then the 8 x 16 x 1
  // tile, the reduction loops still reductions.
  ScheduleOutcome packed =
      applyToFixture("matmul_transpose_b", "op0: pack(8,16,1)", 0);
  ASSERT_EQ(packed.refusal, "");
  EXPECT_EQ(packed.ranges, (std::vector<int64_t>{4, 3, 256, 8, 16, 1}));
  EXPECT_EQ(packed.isReduction,
            (std::vector<bool>{false, false, true, false, false, true}));
  // A loop left unpacked keeps its range and gets no inner loop.
  ScheduleOutcome batch =
      applyToFixture("batch_matmul", "op1: pack(0,8,16,0)", 1);
  ASSERT_EQ(batch.refusal, "");
  EXPECT_EQ(batch.ranges, (std::vector<int64_t>{2, 4, 2, 32, 8, 16}));
}

TEST(Pack, RefusesWhatItCannotPack) {
  expectRefused("matmul_transpose_b", "op0: tile(8,16,32) pack(8,16,1)",
                "pack must come before every step but parallelize");
  expectRefused("matmul_transpose_b", "op0: pack(8,16,5)",
                "the size for reduction loop 2 must divide its range (256)");
  expectRefused("matmul_transpose_b", "op0: pack(33,16,1)",
                "the size for loop 0 must lie in 1..32");
  expectRefused("matmul_transpose_b", "op0: pack(1,1,1)", "nothing to pack");
  // The output row slides over the window's rows: a block of it would not
  // be a block of the input.
  expectRefused("conv_nchw", "op1: pack(0,0,2,0,0,0,0)",
                "loop 2 slides over a window and does not pack");
  expectRefused("shift_rows", "op0: pack(0,8)",
                "read neither by one loop nor by a window's sum of loops");
  expectRefused("conv_nchw",
                "op1: parallelize(0,0,4,0,0,0,0) pack(0,8,0,0,0,0,0)",
                "loop 2 slides over a window: pack before parallelizing it");
  TransformLimits fewLoops;
  fewLoops.maxLoops = 5;
  expectRefused("matmul_transpose_b", "op0: pack(8,16,1)",
                "packing makes 6 loops, above max_loops (5)", fewLoops);
}

TEST(Pack, ConvolutionTilesFoldIntoContractionsOnlyAlongUnitStrides) {
  // conv_nchw (n, f, oh, ow, c, kh, kw) = (1, 16, 8, 8, 8, 3, 3), its filters
  // packed by 8: an inner loop of 8 after the window's loops.
  ScheduleOutcome packed =
      applyToFixture("conv_nchw", "op1: pack(0,8,0,0,0,0,0)", 1);
  ASSERT_EQ(packed.refusal, "");
  EXPECT_EQ(packed.ranges, (std::vector<int64_t>{1, 2, 8, 8, 8, 3, 3, 8}));
  // The tile folds into a contraction once at most one loop of each window
  // is above 1, and that one steps by 1 through the input.
  std::string interchanged =
      "op1: pack(0,8,0,0,0,0,0) interchange(0,1,2,3,7,4,5,6) ";
  expectRefused("conv_nchw", interchanged + "tile(1,1,2,8,0,4,0,1) vectorize",
                "tile all but one of the window's loops (2, 6) to 1 first");
  expectRefused("conv_nchw", interchanged + "vectorize",
                "tile all but one of the window's loops");
  expectRefused("conv_nchw_stride2",
                interchanged + "tile(1,1,1,8,0,8,1,1) vectorize",
                "loop 3 steps by 2 through its window: tile it to 1 first");
  EXPECT_EQ(applyToFixture("conv_nchw_stride2",
                           interchanged + "tile(1,1,1,1,0,8,1,1) vectorize", 1)
                .refusal.find("steps by 2"),
            std::string::npos);
  // Folded, the register tile's contraction lowers to FMAs.
  auto program = loadFixture("conv_nchw");
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto schedule =
      parseSchedule(interchanged + "tile(1,1,1,8,0,4,1,1) vectorize");
  ASSERT_TRUE(schedule.ok());
  auto applied = applySchedule(*program, *schedule);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  std::string ir = printed(applied->get());
  EXPECT_NE(ir.find("tensor<2x8x3x3x8xf32>"), std::string::npos); // filter
  EXPECT_GE(countOccurrences(ir, "vector.fma"), 8);
  EXPECT_EQ(countOccurrences(ir, "arith.mulf"), 0);
}

TEST(Pack, TheRegisterTileLowersToFmasOnContiguousPanels) {
  auto program = loadFixture("matmul_transpose_b");
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto schedule = parseSchedule(
      "op0: pack(8,16,1) tile(2,3,64,0,0,0) tile(1,1,1,0,0,0) vectorize");
  ASSERT_TRUE(schedule.ok());
  auto applied = applySchedule(*program, *schedule);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  std::string ir = printed(applied->get());
  // A in k x 8 panels, B in k x 16 ones; no scalar multiply left.
  EXPECT_NE(ir.find("tensor<4x256x1x8xf32>"), std::string::npos);
  EXPECT_NE(ir.find("tensor<3x256x1x16xf32>"), std::string::npos);
  EXPECT_GE(countOccurrences(ir, "vector.fma"), 8);
  EXPECT_EQ(countOccurrences(ir, "arith.mulf"), 0);
}

class PackScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(PackScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, PackScheduleTest,
    ::testing::Values(
        // B read n x k: the case packing is for.
        std::make_pair("matmul_transpose_b",
                       "op0: pack(8,16,1) tile(2,3,64,0,0,0) "
                       "tile(1,1,1,0,0,0) vectorize"),
        // The result's fill is packed with it; the fill's own schedule
        // still applies.
        std::make_pair("matmul", "op1: pack(8,32,1) tile(4,1,32,0,0,0) "
                                 "tile(1,1,1,0,0,0) vectorize; op0: "
                                 "tile(8,32) vectorize"),
        // Inner tiles larger than a register tile, no vectorize.
        std::make_pair("matmul", "op1: pack(16,16,4)"),
        std::make_pair("batch_matmul",
                       "op1: pack(0,8,16,1) tile(1,2,1,8,0,0,0) "
                       "tile(0,1,1,1,0,0,0) vectorize"),
        // Threads first: each packs its own rows of A and all of B.
        std::make_pair("matmul_transpose_b",
                       "op0: parallelize(16,0,0) pack(8,16,1) "
                       "tile(1,3,64,0,0,0) tile(1,1,1,0,0,0) vectorize"),
        // A convolution's filters packed, its tile folded into a
        // contraction; with threads each packs its own filters.
        std::make_pair("conv_nchw", "op1: pack(0,8,0,0,0,0,0) "
                                    "interchange(0,1,2,3,7,4,5,6) "
                                    "tile(1,1,1,8,0,4,1,1) vectorize"),
        std::make_pair("conv_nchw",
                       "op1: parallelize(0,8,0,0,0,0,0) "
                       "pack(0,8,0,0,0,0,0) interchange(0,1,2,3,7,4,5,6) "
                       "tile(1,1,1,4,0,8,1,1) vectorize; op0: tile(1,4,8,8) "
                       "vectorize"),
        // Blocks that do not divide the parallel loops: the last ones
        // padded with zeros, their results dropped.
        std::make_pair("matmul_transpose_b",
                       "op0: pack(5,12,1) tile(1,1,64,0,0,0) "
                       "tile(1,1,1,0,0,0) vectorize"),
        std::make_pair("conv_nchw_7x7", "op1: pack(0,12,0,0,0,0,0) "
                                        "interchange(0,1,2,3,7,4,5,6) "
                                        "tile(1,1,1,7,0,8,1,1) vectorize"),
        // Threads over the packed op's outer rows.
        std::make_pair("matmul_transpose_b",
                       "op0: pack(8,16,1) parallelize(2,0,0,0,0,0) "
                       "tile(1,3,64,0,0,0) tile(1,1,1,0,0,0) vectorize")));

TEST(Pack, HeuristicPacksOnlyContractionsThatReadTheVectorLoopAcrossRows) {
  // B stored 48 x 256: packed into k x 16 panels (and A into k x 16 ones,
  // the rows of a register tile one vector wide); a plain matmul whose
  // rows of B lie within a page reads them already and is not packed; nor
  // without the transformation.
  std::string packed =
      heuristicText("matmul_transpose_b", cpu(16, 32), {"pack"});
  EXPECT_EQ(packed.substr(0, 24), "op0: pack(16,16,1) tile(") << packed;
  EXPECT_NE(packed.find("tile(1,1,1,0,0,0) vectorize"), std::string::npos)
      << packed;
  EXPECT_EQ(heuristicText("matmul_transpose_b", cpu(16, 32), {}).find("pack"),
            std::string::npos);
  measure::CpuTarget hugePages = cpu(16, 32);
  hugePages.pageBytes = 64 << 10;
  EXPECT_EQ(heuristicText("big_matmul", hugePages, {"pack"}).find("pack"),
            std::string::npos);
}

TEST(Pack, HeuristicPacksDeepTilesOfRowsAPageApart) {
  // big_matmul (1024^3 f32): B's rows are 4 KiB apart, a page. With a 1 MiB
  // L2 the cache tile reads 512 of them: packed into panels.
  measure::CpuTarget target = cpu(16, 32);
  target.pageBytes = 4096;
  std::string deep = heuristicText("big_matmul", target, {"pack"});
  EXPECT_EQ(deep.rfind("op1: pack(8,32,1) tile(", 0), 0u) << deep;
  // A 256 KiB L2 gives 128 rows per tile, whose pages the TLB holds.
  target.l2Bytes = 256 << 10;
  std::string shallow = heuristicText("big_matmul", target, {"pack"});
  EXPECT_EQ(shallow.find("pack"), std::string::npos) << shallow;
}

TEST(Pack, ThreadsSplittingBsColumnsStillPackRowsAPageApart) {
  // linear_wide (64 x 1024 x 1024 f32): at two threads each takes 512 of
  // B's columns, whose rows still lie 4 KiB apart in memory.
  auto program = loadFixture("linear_wide");
  ASSERT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  options.target = cpu(16, 32);
  options.target.pageBytes = 4096;
  options.threads = 2;
  options.extraTransformations = {"pack"};
  std::string schedule = heuristicSchedule(*program, options).str();
  EXPECT_EQ(schedule.rfind("op1: parallelize(0,512,0) pack(8,32,1)", 0), 0u)
      << schedule;
}

TEST(Pack, HeuristicPackedScheduleMeasuresCorrectAtOneAndTwoThreads) {
  auto program = loadFixture("matmul_transpose_b");
  ASSERT_TRUE(program.ok()) << program.error().message;
  for (int threads : {1, 2}) {
    HeuristicOptions options;
    options.threads = threads;
    options.extraTransformations = {"pack"};
    Schedule schedule = heuristicSchedule(*program, options);
    // With threads, each packs the rows it computes.
    std::string expected =
        threads == 1 ? "op0: pack(" : "op0: parallelize(16,0,0) pack(";
    ASSERT_EQ(schedule.str().rfind(expected, 0), 0u) << schedule.str();
    auto measured =
        measureSchedule(*program, schedule, quickMeasureOptions(threads));
    ASSERT_TRUE(measured.ok()) << measured.error().message;
    EXPECT_TRUE(measured->correct) << measured->maxAbsError;
  }
}

TEST(Pack, HeuristicPacksTheFiltersOfNchwConvolutionsWithFewOfThem) {
  // conv_nchw_7x7 (32 filters of 16 x 3 x 3 products): two vectors of
  // filters by a row of 7 output pixels, 8 channels deep.
  std::string packed = heuristicText("conv_nchw_7x7", cpu(16, 32), {"pack"});
  EXPECT_EQ(packed.rfind("op1: pack(0,32,0,0,0,0,0) "
                         "interchange(0,1,2,3,7,4,5,6) "
                         "tile(1,1,1,7,0,8,1,1) vectorize",
                         0),
            0u)
      << packed;
  // 24 filters: blocks of one vector, the last padded.
  EXPECT_EQ(heuristicText("conv_nchw_24", cpu(16, 32), {"pack"})
                .rfind("op1: pack(0,16,0,0,0,0,0) ", 0),
            0u);
  // 16 filters: one vector of them.
  EXPECT_EQ(heuristicText("conv_nchw", cpu(16, 32), {"pack"})
                .rfind("op1: pack(0,16,0,0,0,0,0) ", 0),
            0u);
  // img2col instead: a stride along the output row, more filters than
  // pixels in whole vectors (96 filters, 8 x 8 pixels: the image's copy is
  // the smaller one), or no pack.
  for (const char *fixture : {"conv_nchw_stride2", "conv_nchw_8x8_many"})
    EXPECT_EQ(
        heuristicText(fixture, cpu(16, 32), {"pack"}).rfind("op1: img2col", 0),
        0u)
        << fixture;
  EXPECT_EQ(
      heuristicText("conv_nchw_7x7", cpu(16, 32), {}).rfind("op1: img2col", 0),
      0u);
}

TEST(Pack, HeuristicPackedConvolutionMeasuresCorrectAtOneAndTwoThreads) {
  // conv_nchw's 16 filters split by two threads are 8 each, conv_nchw_24's
  // 12, less than a vector: packed at 1 thread only.
  for (auto [fixture, most] :
       {std::pair{"conv_nchw_7x7", 2}, {"conv_nchw_24", 1}, {"conv_nchw", 1}}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    for (int threads = 1; threads <= most; ++threads) {
      HeuristicOptions options;
      options.threads = threads;
      options.target = cpu(16, 32);
      options.extraTransformations = {"pack"};
      Schedule schedule = heuristicSchedule(*program, options);
      ASSERT_NE(schedule.str().find("pack("), std::string::npos)
          << schedule.str();
      auto measured =
          measureSchedule(*program, schedule, quickMeasureOptions(threads));
      ASSERT_TRUE(measured.ok()) << measured.error().message;
      EXPECT_TRUE(measured->correct) << fixture << " " << schedule.str();
    }
  }
}
