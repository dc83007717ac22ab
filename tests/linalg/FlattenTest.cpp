// flatten: which ops it collapses, the one loop it leaves, that flattened
// schedules measure correct, and that the heuristic flattens same-shaped
// elementwise ops.
#include "LinalgTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

using Sizes = std::vector<int64_t>;

TEST(Flatten, LeavesOneLoopOverEveryElement) {
  ScheduleOutcome add = applyToFixture("add", "op0: flatten", 0);
  EXPECT_EQ(add.refusal, "");
  EXPECT_EQ(add.ranges, (Sizes{64 * 48}));
  EXPECT_EQ(add.isReduction, (std::vector<bool>{false}));
  // 3072 elements: whole vectors of 64 run across the rows of 48.
  EXPECT_EQ(applyToFixture("add", "op0: flatten tile(64) vectorize", 0).refusal,
            "");
}

TEST(Flatten, RefusesBroadcastsReductionsAndLaterSteps) {
  auto refusal = [](const char *fixture, const char *schedule, unsigned op) {
    return applyToFixture(fixture, schedule, op).refusal;
  };
  // The bias is read along the columns only: no one loop serves both.
  EXPECT_NE(refusal("bias_add", "op0: flatten", 0).find("loops' shape"),
            std::string::npos);
  EXPECT_NE(refusal("generic_rowsum", "op1: flatten", 1).find("shape"),
            std::string::npos);
  EXPECT_NE(refusal("add", "op0: tile(8,16) flatten", 0).find("first"),
            std::string::npos);
}

TEST(Flatten, FlattenedSchedulesMeasureCorrect) {
  for (const FixtureSchedule &c : {
           FixtureSchedule{"add", "op0: flatten tile(64) vectorize"},
           FixtureSchedule{"add", "op0: flatten tile(40) vectorize"},
           FixtureSchedule{"add", "op0: flatten parallelize(1536) tile(64) "
                                  "vectorize"},
       }) {
    SCOPED_TRACE(c.second);
    expectMeasuresCorrectOnOneAndTwoThreads(c);
  }
}

TEST(Flatten, HeuristicFlattensSameShapedElementwiseOps) {
  EXPECT_NE(heuristicText("add", cpu(16, 32), {"flatten"})
                .find("op0: flatten tile(64) vectorize"),
            std::string::npos);
  EXPECT_EQ(heuristicText("bias_add", cpu(16, 32), {"flatten"}).find("flatten"),
            std::string::npos);
  EXPECT_EQ(heuristicText("add", cpu(16, 32), {}).find("flatten"),
            std::string::npos);
}

} // namespace
