// fuse: which producers move into the consumer's loop, the loop ranges they
// are left with, and that fused chains and the heuristic's schedules of them
// measure correct.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

using Indices = std::vector<unsigned>;
using Sizes = std::vector<int64_t>;

Indices producersFusedInto(const std::string &fixture, unsigned index) {
  auto program = loadFixture(fixture);
  EXPECT_TRUE(program.ok()) << program.error().message;
  ScheduleState state(program->ops);
  return fusableProducers(state, index);
}

TEST(Fuse, MovesTheWholeStreamingChainIntoTheLoopConsumersFirst) {
  // Layernorm: the normalization (op6) reads the means and deviations,
  // which read the sums, which read their fills.
  EXPECT_EQ(producersFusedInto("layernorm", 6), (Indices{5, 4, 3, 2, 1, 0}));

  auto program = loadFixture("layernorm");
  ASSERT_TRUE(program.ok()) << program.error().message;
  ScheduleState state(program->ops);
  auto schedule = parseSchedule("op6: fuse(1,8,0)");
  ASSERT_TRUE(schedule.ok());
  ASSERT_TRUE(applySchedule(state, *schedule));
  for (unsigned p = 0; p < 6; ++p)
    EXPECT_EQ(state.ops[p].fusedInto, 6) << "op" << p;
  // Each block of 1 x 8 rows sums its rows whole.
  EXPECT_EQ(state.ops[1].ranges, (Sizes{1, 8, 256}));
  EXPECT_EQ(state.ops[2].ranges, (Sizes{1, 8}));
  EXPECT_EQ(state.ops[6].ranges, (Sizes{1, 8, 256}));
}

TEST(Fuse, AContractionJoinsOnlyAsTheDirectProducer) {
  // relu(A * B + bias): the relu's loop takes the bias add but not the
  // matmul behind it, whose operands each tile would read again; the bias
  // add's own loop may take the matmul.
  EXPECT_EQ(producersFusedInto("chain", 3), (Indices{2}));
  EXPECT_EQ(producersFusedInto("chain", 2), (Indices{1}));
}

TEST(Fuse, AProducerTheFunctionAlsoReturnsStaysOutside) {
  // The matmul is returned beside its relu: fused, it would be computed
  // twice, once in the loop and once for the result.
  EXPECT_TRUE(producersFusedInto("two_results", 2).empty());
  std::string refusal =
      applyToFixture("two_results", "op2: fuse(8,8)", 2).refusal;
  EXPECT_NE(refusal.find("every use is in its loop"), std::string::npos)
      << refusal;
}

TEST(Fuse, FusedChainsMeasureCorrect) {
  for (const FixtureSchedule &c : {
           FixtureSchedule{"layernorm", "op6: fuse(1,8,0)"},
           FixtureSchedule{"layernorm",
                           "op6: fuse(1,4,0) tile(1,4,64) vectorize; "
                           "op4: split_reduction(0,0,32) tile(1,4,1,0) "
                           "vectorize; op1: split_reduction(0,0,16) vectorize"},
           // The exponentials, fused for two uses, merged by CSE.
           FixtureSchedule{"softmax", "op5: fuse(8,0) vectorize; op4: "
                                      "split_reduction(0,16) vectorize; op2: "
                                      "tile(8,16) vectorize"},
           FixtureSchedule{"chain", "op3: fuse(16,32) vectorize; op2: "
                                    "vectorize; op1: tile(8,32,1) vectorize"},
       }) {
    SCOPED_TRACE(c.second);
    expectMeasuresCorrectOnOneAndTwoThreads(c);
  }
}

/// An AVX-512 CPU whose L2 cache holds half of `bytes`: the fixtures'
/// tensors are small.
measure::CpuTarget smallCaches(long l2Bytes) {
  measure::CpuTarget target = cpu(16, 32);
  target.l1dBytes = 32 << 10;
  target.l2Bytes = l2Bytes;
  return target;
}

TEST(Fuse, HeuristicFusesAStreamingChainIntoItsLastOp) {
  auto program = loadFixture("layernorm");
  ASSERT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  // x (32 KiB) does not stay in half the L2 from one op to the next.
  options.target = smallCaches(32 << 10);
  Schedule schedule = heuristicSchedule(*program, options);
  ASSERT_FALSE(schedule.ops.empty());
  // Blocks of 8 rows, each row whole: the sums need all of it.
  EXPECT_EQ(schedule.ops.front().opId, "op6");
  ASSERT_FALSE(schedule.ops.front().steps.empty());
  EXPECT_EQ(schedule.ops.front().steps.front().name, "fuse");
  EXPECT_EQ(schedule.ops.front().steps.front().params, (Sizes{1, 8, 0}));
  // The fused sums still keep vectors of partial sums.
  bool splitsTheSums = false;
  for (const OpSchedule &op : schedule.ops)
    if (op.opId == "op1")
      for (const TransformStep &step : op.steps)
        splitsTheSums |= step.name == "split_reduction";
  EXPECT_TRUE(splitsTheSums) << schedule.str();
  expectMeasuresCorrectOnOneAndTwoThreads(
      {"layernorm", schedule.str().c_str()});

  // Two threads: the fused loop is the parallel one.
  options.threads = 2;
  Schedule parallel = heuristicSchedule(*program, options);
  EXPECT_EQ(parallel.ops.front().steps.front().name, "fuse") << parallel.str();

  // Where x stays in cache between the ops, each op keeps its own loops.
  options.threads = 1;
  options.target = smallCaches(1 << 20);
  Schedule cached = heuristicSchedule(*program, options);
  EXPECT_EQ(cached.str().find("fuse"), std::string::npos) << cached.str();
}

TEST(Fuse, HeuristicFusesAnElementwiseChainInRowsOfFourVectors) {
  // 120 channels: one row of 40 on AVX-512 (16 lanes; no whole vector
  // divides 120), of 24 on AVX2 (8), each op vectorized whole, no tile of
  // its own inside the block.
  for (auto [lanes, block] : {std::pair{16, 40}, std::pair{8, 24}}) {
    measure::CpuTarget target = smallCaches(32 << 10);
    target.f32Lanes = lanes;
    std::string text = heuristicText("bn_relu6_chain", target, {});
    EXPECT_EQ(text, "op2: fuse(1,1,1," + std::to_string(block) +
                        ") vectorize; op1: vectorize; op0: vectorize")
        << lanes;
    expectMeasuresCorrectOnOneAndTwoThreads({"bn_relu6_chain", text.c_str()});
  }
}

TEST(Fuse, HeuristicKeepsAContractionOutOfItsConsumersLoop) {
  std::string text = heuristicText("chain", smallCaches(16 << 10), {});
  // The relu takes the bias add; the matmul keeps its own register tile
  // (with its fill fused into it: 64 products per output).
  EXPECT_NE(text.find("op3: fuse(1,0) vectorize"), std::string::npos) << text;
  size_t matmul = text.find("op1: ");
  ASSERT_NE(matmul, std::string::npos) << text;
  std::string own = text.substr(matmul, text.find(';', matmul) - matmul);
  EXPECT_NE(own.find(" tile("), std::string::npos) << text;
  EXPECT_EQ(text.find("op2: fuse"), std::string::npos) << text;
}

} // namespace
