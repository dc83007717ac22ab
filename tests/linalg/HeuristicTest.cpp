// The heuristic sizes its tiles for the CPU it is given: register tiles by
// the vector unit, cache tiles by the L2 cache.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Heuristic.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

measure::CpuTarget cpu(int lanes, int registers, long l1d, long l2) {
  measure::CpuTarget target;
  target.f32Lanes = lanes;
  target.vectorRegisters = registers;
  target.l1dBytes = l1d;
  target.l2Bytes = l2;
  return target;
}

measure::CpuTarget avx512() { return cpu(16, 32, 48 << 10, 1 << 20); }
measure::CpuTarget avx2() { return cpu(8, 16, 32 << 10, 256 << 10); }

/// The heuristic's steps for op `opId` of `fixture` on `target`.
std::vector<TransformStep> stepsFor(const std::string &fixture,
                                    const std::string &opId,
                                    const measure::CpuTarget &target,
                                    int threads = 1) {
  auto program = loadFixture(fixture);
  EXPECT_TRUE(program.ok()) << program.error().message;
  if (!program.ok())
    return {};
  HeuristicOptions options;
  options.target = target;
  options.threads = threads;
  // The base rules; the opt-in ones are tested with their transformations.
  options.extraTransformations = {};
  Schedule schedule = heuristicSchedule(*program, options);
  for (const OpSchedule &op : schedule.ops)
    if (op.opId == opId)
      return op.steps;
  return {};
}

using Sizes = std::vector<int64_t>;

/// The sizes of the last tile step (the register tile), or empty.
Sizes registerTile(const std::vector<TransformStep> &steps) {
  for (auto step = steps.rbegin(); step != steps.rend(); ++step)
    if (step->name == "tile")
      return step->params;
  return {};
}

TEST(Heuristic, MatmulRegisterTileFillsHalfTheVectorRegisters) {
  // 8 rows x 2 vectors of 16 floats on AVX-512, 4 x 2 vectors of 8 on AVX2.
  auto wide = stepsFor("big_matmul", "op1", avx512());
  ASSERT_EQ(wide.size(), 3u);
  EXPECT_EQ(wide[1].name, "tile");
  EXPECT_EQ(wide[1].params, (Sizes{8, 32, 1}));
  EXPECT_EQ(wide[2].name, "vectorize");
  auto narrow = stepsFor("big_matmul", "op1", avx2());
  ASSERT_EQ(narrow.size(), 3u);
  EXPECT_EQ(narrow[1].params, (Sizes{4, 16, 1}));
  // f64 has half the lanes (the 64^3 fixture is one cache tile).
  EXPECT_EQ(registerTile(stepsFor("matmul_f64", "op1", avx512())),
            (Sizes{8, 16, 1}));
}

TEST(Heuristic, VectorWidthsAreWholeVectorsOrPowersOfTwo) {
  // N = 1000: no multiple of 16 divides it, so the vectors are 8 wide (a
  // width of 25 or 40 lowers to shuffles), in up to 16 rows (10 of 200),
  // and the cache tile is a multiple of the register tile.
  auto steps = stepsFor("matmul_odd", "op1", avx512());
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].params, (Sizes{50, 40, 300}));
  EXPECT_EQ(steps[1].params, (Sizes{10, 8, 1}));
}

TEST(Heuristic, OneVectorWideRegisterTilesTakeTwiceTheRows) {
  // 48 columns: no two vectors of 16 divide them, so the register tile is
  // one vector wide and 16 rows high, 16 accumulators as 8 x 32 has.
  EXPECT_EQ(registerTile(stepsFor("matmul_cols48_depth1040", "op1", avx512())),
            (Sizes{16, 16, 1}));
  // On AVX2 two vectors of 8 divide them: 4 x 16, as any matmul.
  EXPECT_EQ(registerTile(stepsFor("matmul_cols48_depth1040", "op1", avx2())),
            (Sizes{4, 16, 1}));
  // A's rows 4 KiB apart fall into one set of the L1: 16 of them would
  // evict one another, 8 fit its 12 ways.
  measure::CpuTarget twelveWays = avx512();
  twelveWays.l1dWays = 12;
  EXPECT_EQ(
      registerTile(stepsFor("matmul_cols48_depth1024", "op1", twelveWays)),
      (Sizes{8, 16, 1}));
  EXPECT_EQ(
      registerTile(stepsFor("matmul_cols48_depth1040", "op1", twelveWays)),
      (Sizes{16, 16, 1}));
  // Unknown ways: 4 KiB each, as on x86.
  EXPECT_EQ(registerTile(stepsFor("matmul_cols48_depth1024", "op1", avx512())),
            (Sizes{8, 16, 1}));
}

TEST(Heuristic, OneRowTilesTakeTheWidestMultipleOfTheirVectorThatDivides) {
  // A softmax's exponentials and division read a value per row, so each
  // tile is one row; of 1000 columns, 40 (five vectors of 8) rather than 8.
  // On AVX2, whole vectors of 8 divide 1000: one of them, as before.
  for (const char *op : {"op2", "op5"}) {
    EXPECT_EQ(registerTile(stepsFor("softmax_1000", op, avx512())),
              (Sizes{1, 40}))
        << op;
    EXPECT_EQ(registerTile(stepsFor("softmax_1000", op, avx2())), (Sizes{1, 8}))
        << op;
  }
  expectMeasuresCorrectOnOneAndTwoThreads(
      {"softmax_1000", "op5: tile(1,40) vectorize; op2: tile(1,40) vectorize"});
}

TEST(Heuristic, MatmulCacheTileIsDeeperWithALargerL2) {
  auto small = stepsFor("big_matmul", "op1", avx2());
  measure::CpuTarget bigL2 = avx2();
  bigL2.l2Bytes = 2 << 20;
  auto big = stepsFor("big_matmul", "op1", bigL2);
  ASSERT_FALSE(small.empty());
  ASSERT_FALSE(big.empty());
  EXPECT_EQ(small[0].params[0], 32); // 8 register tiles of 4 rows
  EXPECT_EQ(small[0].params[1], 64); // 4 register tiles of 16 columns
  EXPECT_LT(small[0].params[2], big[0].params[2]);
  // A, B and C blocks within half the L2.
  for (const auto &[steps, l2] :
       {std::pair{small, avx2().l2Bytes}, std::pair{big, bigL2.l2Bytes}}) {
    const Sizes &t = steps[0].params;
    int64_t bytes = 4 * (t[0] * t[2] + t[2] * t[1] + t[0] * t[1]);
    EXPECT_LE(bytes, l2 / 2);
  }
}

TEST(Heuristic, ConvolutionVectorsSpanTwoRegistersOfFilters) {
  // (n, oh, ow, f, kh, kw, c): the fixture has 16 filters, all of them
  // on AVX-512, two vectors of 4 on SSE; 8 output columns, 8 channels.
  EXPECT_EQ(registerTile(stepsFor("conv_nhwc", "op1", avx512())),
            (Sizes{1, 1, 8, 16, 1, 1, 8}));
  measure::CpuTarget sse = avx2();
  sse.f32Lanes = 4;
  EXPECT_EQ(registerTile(stepsFor("conv_nhwc", "op1", sse)),
            (Sizes{1, 1, 8, 8, 1, 1, 8}));
}

TEST(Heuristic, ConvolutionWhoseFilterStaysBeyondTheL2TakesFourVectors) {
  // conv_nhwc_stride2: 5 output columns, 16 filters (4.5 KiB). With four
  // lanes, 5 x 4 accumulators leave 12 of 32 registers free.
  measure::CpuTarget small = cpu(4, 32, 1 << 10, 4 << 10);
  EXPECT_EQ(registerTile(stepsFor("conv_nhwc_stride2", "op1", small)),
            (Sizes{1, 1, 5, 16, 1, 1, 8}));
  // The filter fits the L2: two vectors.
  EXPECT_EQ(registerTile(stepsFor("conv_nhwc_stride2", "op1",
                                  cpu(4, 32, 1 << 10, 1 << 20))),
            (Sizes{1, 1, 5, 8, 1, 1, 8}));
  // 5 x 4 accumulators would not leave four of 16 registers free.
  EXPECT_EQ(registerTile(stepsFor("conv_nhwc_stride2", "op1",
                                  cpu(4, 16, 1 << 10, 4 << 10))),
            (Sizes{1, 1, 5, 8, 1, 1, 8}));
}

TEST(Heuristic,
     ConvolutionFusesItsFillIntoRegisterTilesOnShortReductionsOrThreads) {
  // conv_nhwc: 72 products per output (3 x 3 x 8); its fill is fused into
  // the loop over register tiles, which the reduction's tile then leaves.
  auto fused = stepsFor("conv_nhwc", "op1", avx512());
  ASSERT_EQ(fused.size(), 3u);
  EXPECT_EQ(fused[0].name, "fuse");
  EXPECT_EQ(fused[0].params, (Sizes{1, 1, 8, 16, 0, 0, 0}));
  // conv_nhwc_7x7_deep: 576 products (3 x 3 x 64). At 1 thread its fill
  // stays a pass of its own.
  auto apart = stepsFor("conv_nhwc_7x7_deep", "op1", avx512());
  ASSERT_FALSE(apart.empty());
  EXPECT_EQ(apart[0].name, "tile");
  // At 2 threads its register tiles (7 rows x 1 column x 2 tiles of 32
  // filters, 14) are the threads' loop, with the fill fused in, instead of
  // its rows split among them with the fill apart.
  auto shared = stepsFor("conv_nhwc_7x7_deep", "op1", avx512(), 2);
  ASSERT_FALSE(shared.empty());
  EXPECT_EQ(shared[0].name, "fuse");
  EXPECT_EQ(shared[0].params, (Sizes{1, 1, 7, 32, 0, 0, 0}));
  for (const TransformStep &step : shared)
    EXPECT_NE(step.name, "parallelize");
}

TEST(Heuristic, DepthwiseConvolutionKeepsItsWindowRowWhole) {
  // (n, oh, ow, c, kh, kw): one vector of channels (all 8 of the fixture's
  // on AVX2, 4 on SSE), the window row (kw) untiled.
  auto avx = stepsFor("depthwise_conv", "op1", avx2());
  ASSERT_FALSE(avx.empty());
  EXPECT_EQ(avx[0].params, (Sizes{1, 1, 8, 8, 1, 0}));
  measure::CpuTarget sse = avx2();
  sse.f32Lanes = 4;
  auto narrow = stepsFor("depthwise_conv", "op1", sse);
  ASSERT_FALSE(narrow.empty());
  EXPECT_EQ(narrow[0].params, (Sizes{1, 1, 8, 4, 1, 0}));
}

TEST(Heuristic, PoolingFusesItsFillAndTakesMoreChannelsOverShortRows) {
  // (n, oh, ow, c, kh, kw): the fill fused into the loop over output rows,
  // then 4 columns x up to 4 vectors of channels (the fixture's 8) with
  // the window row whole; a global pooling's one column takes 4 x 4
  // vectors, the same 16 accumulators.
  auto rows = stepsFor("pool_nhwc_max", "op1", avx512());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "fuse");
  EXPECT_EQ(rows[0].params, (Sizes{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(registerTile(rows), (Sizes{1, 1, 4, 8, 1, 0}));
  auto wide = stepsFor("pool_global_sum", "op1", avx512());
  EXPECT_EQ(registerTile(wide), (Sizes{1, 1, 1, 256, 1, 0}));
  auto narrow = stepsFor("pool_global_sum", "op1", avx2());
  EXPECT_EQ(registerTile(narrow), (Sizes{1, 1, 1, 128, 1, 0}));
}

TEST(Heuristic, PoolingFusesOnlyAFill) {
  // A relu read through the window would be recomputed for overlapping
  // rows and left unvectorized inside the pooling's loop: with it among
  // the producers nothing is fused, and it keeps a schedule of its own.
  auto pool = stepsFor("relu_max_pool", "op2", avx512());
  ASSERT_FALSE(pool.empty());
  EXPECT_NE(pool[0].name, "fuse");
  auto relu = stepsFor("relu_max_pool", "op1", avx512());
  ASSERT_FALSE(relu.empty());
  EXPECT_EQ(relu.back().name, "vectorize");
}

TEST(Heuristic, NchwConvolutionWithThreadsIsImg2colledFirst) {
  // img2col applies only to an untransformed op: with threads it still comes
  // first, and the threads split the filters of the matmul it leaves.
  auto steps = stepsFor("conv_nchw", "op1", avx512(), 2);
  std::vector<std::string> names;
  for (const TransformStep &step : steps)
    names.push_back(step.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names[0], "img2col");
  EXPECT_EQ(names[1], "parallelize");
  EXPECT_EQ(names.back(), "vectorize");
}

TEST(Heuristic, ShortReductionFusesItsFillIntoTheRegisterTiles) {
  // A 1 x 1 window over 16 channels, read as a matmul (n, f, p, c) over
  // 4 x 32 pixels: 16 products per output. Each register tile, 8 filters
  // by two vectors of pixels, is zeroed and accumulated in one step of the
  // fused loop, the reduction whole.
  auto steps = stepsFor("conv_nchw_1x1_rows32", "op1", avx512());
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "fuse");
  EXPECT_EQ(steps[0].params, (Sizes{1, 8, 32, 0}));
  EXPECT_EQ(steps[1].name, "tile");
  EXPECT_EQ(steps[1].params, (Sizes{1, 8, 32, 1}));
  EXPECT_EQ(steps[2].name, "vectorize");
  for (const char *fixture : {"conv_nchw_1x1_rows32", "conv_nchw_1x1_rows40"}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    for (int threads : {1, 2}) {
      HeuristicOptions options;
      options.threads = threads;
      options.target = avx512();
      Schedule schedule = heuristicSchedule(*program, options);
      auto measured =
          measureSchedule(*program, schedule, quickMeasureOptions(threads));
      ASSERT_TRUE(measured.ok()) << measured.error().message;
      EXPECT_TRUE(measured->correct) << fixture << " " << schedule.str();
    }
  }
  // With threads the schedule is the same: fuse's loop over the 12 register
  // tiles is the threads' too, and the op is not split first. Nothing is
  // fused with 264 products per output (conv_nchw_1x1_deep); with a stride,
  // the matmul over the pixels copied out (op2) fuses its fill as well.
  auto threaded = stepsFor("conv_nchw_1x1_rows32", "op1", avx512(), 2);
  ASSERT_EQ(threaded.size(), steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(threaded[i].name, steps[i].name);
    EXPECT_EQ(threaded[i].params, steps[i].params);
  }
  auto deep = stepsFor("conv_nchw_1x1_deep", "op1", avx512());
  ASSERT_FALSE(deep.empty());
  EXPECT_EQ(deep[0].name, "tile");
  auto strided = stepsFor("conv_nchw_1x1_stride2", "op2", avx512());
  ASSERT_FALSE(strided.empty());
  EXPECT_EQ(strided[0].name, "fuse");
  EXPECT_EQ(strided[0].params, (Sizes{1, 8, 32, 0}));
}

TEST(Heuristic, AGenericTheVectorizerCannotTakeIsNotTiled) {
  // The pixels a strided 1 x 1 convolution reads, copied out (op0, a map
  // of d * 2), do not vectorize: tiles would only add loops around the
  // same scalar copy. With threads it is split among them, and that is all.
  EXPECT_TRUE(stepsFor("conv_nchw_1x1_stride2", "op0", avx512()).empty());
  auto threaded = stepsFor("conv_nchw_1x1_stride2", "op0", avx512(), 2);
  ASSERT_EQ(threaded.size(), 1u);
  EXPECT_EQ(threaded[0].name, "parallelize");
  // A generic that vectorizes keeps its tile.
  auto add = stepsFor("add", "op0", avx512());
  ASSERT_GE(add.size(), 2u);
  EXPECT_EQ(add[add.size() - 2].name, "tile");
  EXPECT_EQ(add.back().name, "vectorize");
}

TEST(Heuristic, PoolingWithThreadsSharesItsFusedRowsWhenThereAreEnough) {
  // pool_nhwc_max fuses its fill into the loop over its output rows (n, oh);
  // with threads, those rows are the threads' loop. Two threads have four
  // of its 8 rows each; three would have fewer, and split the op first.
  auto two = stepsFor("pool_nhwc_max", "op1", avx512(), 2);
  ASSERT_FALSE(two.empty());
  EXPECT_EQ(two[0].name, "fuse");
  auto three = stepsFor("pool_nhwc_max", "op1", avx512(), 3);
  ASSERT_FALSE(three.empty());
  EXPECT_EQ(three[0].name, "parallelize");
}

TEST(Heuristic, ThreadsSplitBsColumnsWhenEachWouldReadMoreThanItsL2) {
  // Each thread reads whole the inputs that do not index the loop it
  // splits. A square matmul: A's rows, the outermost loop.
  auto square = stepsFor("big_matmul", "op1", avx512(), 2);
  ASSERT_FALSE(square.empty());
  EXPECT_EQ(square[0].name, "parallelize");
  EXPECT_EQ(square[0].params, (Sizes{512, 0, 0}));
  // 16 rows of A against 64 columns of B (8 KiB): with a 4 KiB L2, B's
  // columns, so that no thread reads all of B.
  measure::CpuTarget smallL2 = cpu(16, 32, 48 << 10, 4 << 10);
  auto wide = stepsFor("matmul_wide", "op1", smallL2, 2);
  ASSERT_FALSE(wide.empty());
  EXPECT_EQ(wide[0].name, "parallelize");
  EXPECT_EQ(wide[0].params, (Sizes{0, 32, 0}));
  // With 64 registers a register tile has 16 rows: split by rows, each
  // thread's 8 would stream B; split by columns, its 16 would not.
  auto tall = stepsFor("matmul_wide", "op1", cpu(16, 64, 48 << 10, 4 << 10), 2);
  ASSERT_FALSE(tall.empty());
  EXPECT_EQ(tall[0].params, (Sizes{8, 0, 0}));
  // With 128 registers the whole op is fewer rows than a register tile:
  // it streams B either way, each thread then only its columns.
  auto short_ =
      stepsFor("matmul_wide", "op1", cpu(16, 128, 48 << 10, 4 << 10), 2);
  ASSERT_FALSE(short_.empty());
  EXPECT_EQ(short_[0].params, (Sizes{0, 32, 0}));
  // B fits a 1 MiB L2: each thread reads it from memory once either way.
  auto fits = stepsFor("matmul_wide", "op1", avx512(), 2);
  ASSERT_FALSE(fits.empty());
  EXPECT_EQ(fits[0].params, (Sizes{8, 0, 0}));
  // 32 rows against 48 columns stored n x k: 24 columns a thread would not
  // be whole register tiles of two vectors of 16, so A's rows are split.
  auto narrow = stepsFor("matmul_transpose_b", "op0", smallL2, 2);
  ASSERT_FALSE(narrow.empty());
  EXPECT_EQ(narrow[0].params, (Sizes{16, 0, 0}));
}

TEST(Heuristic, TransposedInputsAreTiledInBlocksOfVectors) {
  // 64x32 <- 32x64: both loops by a vector's lanes, so that each block
  // reads and writes whole vectors and transposes them in registers.
  EXPECT_EQ(registerTile(stepsFor("transpose", "op0", avx512())),
            Sizes({16, 16}));
  EXPECT_EQ(registerTile(stepsFor("transpose", "op0", avx2())), Sizes({8, 8}));
  // NHWC -> NCHW: C (the input's rows) and W (the output's); 8 pixels is
  // the widest vector that divides W.
  EXPECT_EQ(registerTile(stepsFor("transpose_nhwc_to_nchw", "op0", avx512())),
            Sizes({1, 16, 1, 8}));
  EXPECT_EQ(registerTile(stepsFor("transpose_nhwc_to_nchw", "op0", avx2())),
            Sizes({1, 8, 1, 8}));
  // A broadcast input (a bias per column) is not a transposed one: the
  // usual block of 8 rows of whole vectors.
  EXPECT_EQ(registerTile(stepsFor("bias_add", "op0", avx512())),
            Sizes({8, 48}));
}

TEST(Heuristic, SizesForTheHostsVectorUnitByDefault) {
  const measure::MachineInfo &host = measure::hostMachine();
  std::string flags = " " + host.isaFlags + " ";
  int lanes = flags.find(" avx512f ") != std::string::npos ? 16
              : flags.find(" avx2 ") != std::string::npos  ? 8
                                                           : 4;
  EXPECT_EQ(host.target.f32Lanes, lanes) << host.isaFlags;
  EXPECT_EQ(HeuristicOptions().target.f32Lanes, lanes);
  EXPECT_GT(host.target.l1dBytes, 0);
  EXPECT_GT(host.target.l2Bytes, host.target.l1dBytes);
}

} // namespace
