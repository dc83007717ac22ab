// Every transformation on every op class lowers, runs and matches the
// baseline: each case applies a schedule in-process (checking that the IR
// shows the transformation), then measures it in the worker and requires a
// correct result.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Measurement.h"
#include "rlopt/linalg/Schedule.h"

#include <gtest/gtest.h>

#include <cctype>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

struct ScheduleCase {
  std::string fixture;
  std::string schedule;
  int threads = 1;
  /// Text the transformed IR must contain besides what the steps imply,
  /// e.g. masks for partial tiles.
  std::vector<std::string> expectInIR = {};
};

std::ostream &operator<<(std::ostream &os, const ScheduleCase &c) {
  return os << c.fixture << " '" << c.schedule << "' threads " << c.threads;
}

std::string caseName(const ::testing::TestParamInfo<ScheduleCase> &info) {
  std::string name = info.param.fixture + "_";
  for (char c : info.param.schedule) {
    if (std::isalnum((unsigned char)c))
      name += c;
    else if (name.back() != '_')
      name += '_';
  }
  while (name.back() == '_')
    name.pop_back();
  if (info.param.threads != 1)
    name += "_threads" + std::to_string(info.param.threads);
  return name;
}

bool hasStep(const Schedule &schedule, const std::string &opId,
             const std::string &name) {
  for (const OpSchedule &op : schedule.ops)
    if (op.opId == opId)
      for (const TransformStep &step : op.steps)
        if (step.name == name)
          return true;
  return false;
}

/// What the transformed IR must show for the steps of `schedule`.
void expectStepsVisible(const Program &program, const Schedule &schedule,
                        mlir::ModuleOp transformed, const std::string &before,
                        const std::string &after) {
  bool onlyStops = true;
  for (const OpSchedule &op : schedule.ops) {
    const OpInfo *info = program.findOp(op.opId);
    ASSERT_NE(info, nullptr);
    bool onlyInterchanges = !op.steps.empty();
    std::vector<int64_t> ranges = info->loopRanges;
    std::vector<bool> reductions = info->isReduction;
    for (const TransformStep &step : op.steps) {
      SCOPED_TRACE(op.opId + ": " + step.name);
      if (step.name != "stop")
        onlyStops = false;
      if (step.name != "interchange") {
        onlyInterchanges = false;
      } else {
        std::vector<int64_t> permutedRanges;
        std::vector<bool> permutedReductions;
        for (int64_t p : step.params) {
          permutedRanges.push_back(ranges[p]);
          permutedReductions.push_back(reductions[p]);
        }
        ranges = permutedRanges;
        reductions = permutedReductions;
      }
      if (step.name == "tile") {
        EXPECT_NE(after.find("scf.for %"), std::string::npos);
      } else if (step.name == "parallelize") {
        EXPECT_NE(after.find("scf.forall"), std::string::npos);
      } else if (step.name == "vectorize") {
        EXPECT_NE(after.find("vector.transfer_write"), std::string::npos);
      } else if (step.name == "img2col") {
        EXPECT_EQ(after.find("linalg.conv_2d"), std::string::npos);
        EXPECT_NE(after.find("tensor.collapse_shape"), std::string::npos);
      } else if (step.name == "fuse") {
        // The fused producers run inside the loop (unless vectorized later,
        // when they are vector ops there).
        size_t begin = after.find("scf.forall (");
        size_t end = after.find("scf.forall.in_parallel", begin);
        ASSERT_NE(begin, std::string::npos);
        ASSERT_NE(end, std::string::npos);
        std::string body = after.substr(begin, end - begin);
        for (unsigned p : info->producers) {
          const std::string &kind = program.ops[p].kind;
          if (hasStep(schedule, program.ops[p].id, "vectorize"))
            continue;
          int expected = 1;
          if (kind == info->kind && !hasStep(schedule, op.opId, "vectorize"))
            expected = 2; // the consumer itself
          EXPECT_GE(countOccurrences(body, kind + " "), expected)
              << kind << " was not fused into the loop";
        }
      }
    }
    // An op that is only interchanged is a generic with permuted loops.
    if (onlyInterchanges) {
      std::vector<OpInfo> now = analyzeOps(transformed);
      ASSERT_EQ(now.size(), program.ops.size());
      const OpInfo &permuted = now[info->index];
      EXPECT_EQ(permuted.kind, "linalg.generic");
      EXPECT_EQ(permuted.loopRanges, ranges);
      EXPECT_EQ(permuted.isReduction, reductions);
    }
  }
  if (onlyStops)
    EXPECT_EQ(after, before) << "stop must not change the program";
  else
    EXPECT_NE(after, before) << "the schedule left the program unchanged";
}

class ScheduleMeasureTest : public ::testing::TestWithParam<ScheduleCase> {};

TEST_P(ScheduleMeasureTest, LowersRunsAndMatchesBaseline) {
  const ScheduleCase &c = GetParam();
  auto program = loadFixture(c.fixture);
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto schedule = parseSchedule(c.schedule);
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;

  auto transformed = applySchedule(*program, *schedule);
  ASSERT_TRUE(transformed.ok()) << transformed.error().message;
  std::string before = printed(program->module.get());
  std::string after = printed(transformed->get());
  expectStepsVisible(*program, *schedule, transformed->get(), before, after);
  for (const std::string &text : c.expectInIR)
    EXPECT_NE(after.find(text), std::string::npos)
        << "expected '" << text << "' in the transformed IR";

  auto measured =
      measureSchedule(*program, *schedule, quickMeasureOptions(c.threads));
  ASSERT_TRUE(measured.ok()) << measured.error().message;
  EXPECT_TRUE(measured->correct)
      << "max abs error " << measured->maxAbsError << " for " << c;
  EXPECT_GT(measured->baselineMs, 0);
  EXPECT_GT(measured->candidateMs, 0);
  EXPECT_GT(measured->speedup, 0);
  EXPECT_FALSE(measured->cached);
  EXPECT_EQ(measured->programHash.size(), 16u);
}

const std::string kMask = "vector.create_mask";

INSTANTIATE_TEST_SUITE_P(
    Matmul, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"matmul", "op1: tile(32,32,32)"},
        ScheduleCase{"matmul", "op1: tile(24,24,24)"}, // 64 % 24 != 0
        ScheduleCase{"matmul", "op1: tile(8,8,8) vectorize"},
        ScheduleCase{"matmul", "op1: tile(24,16,8) vectorize", 1, {kMask}},
        ScheduleCase{"matmul", "op1: tile(32,32,32) tile(8,8,8) vectorize"},
        ScheduleCase{"matmul", "op1: parallelize(16,16,0)"},
        ScheduleCase{"matmul", "op1: parallelize(16,16,0)", 2},
        ScheduleCase{"matmul", "op1: parallelize(24,40,0)", 2},
        ScheduleCase{"matmul",
                     "op1: parallelize(24,40,0) tile(8,8,8) vectorize", 2},
        ScheduleCase{"matmul", "op1: interchange(1,0,2)"},
        ScheduleCase{"matmul", "op1: interchange(0,2,1) tile(8,8,8) vectorize"},
        ScheduleCase{"matmul",
                     "op1: interchange(2,0,1) tile(8,24,16) vectorize",
                     1,
                     {kMask}},
        ScheduleCase{"matmul", "op1: fuse(16,16,0)"},
        ScheduleCase{"matmul", "op1: fuse(24,40,0)", 2},
        ScheduleCase{"matmul", "op1: fuse(16,16,0); op0: vectorize"},
        ScheduleCase{"matmul", "op1: fuse(24,40,0); op0: vectorize"},
        ScheduleCase{
            "matmul",
            "op1: fuse(16,16,0) tile(8,8,8) vectorize; op0: vectorize"},
        ScheduleCase{"matmul", "op0: tile(8,8) vectorize"},
        ScheduleCase{"matmul", "op0: tile(24,40) vectorize", 1, {kMask}},
        ScheduleCase{"matmul",
                     "op0: parallelize(16,0); op1: parallelize(16,0,0)", 2},
        ScheduleCase{"matmul", "op1: stop"},
        ScheduleCase{"matmul", "op0: stop; op1: stop"},
        ScheduleCase{"matmul_f64", "op1: tile(16,16,16) vectorize"},
        ScheduleCase{"matmul_f64", "op1: tile(24,16,8) vectorize", 1, {kMask}},
        ScheduleCase{"matmul_f64", "op1: parallelize(16,16,0)", 2},
        ScheduleCase{"batch_matmul", "op1: tile(1,8,8,8) vectorize"},
        ScheduleCase{
            "batch_matmul", "op1: tile(1,12,12,12) vectorize", 1, {kMask}},
        ScheduleCase{"batch_matmul", "op1: parallelize(1,16,0,0)", 2},
        ScheduleCase{"batch_matmul",
                     "op1: interchange(0,2,1,3) tile(1,8,8,8) vectorize"},
        ScheduleCase{"matvec", "op1: tile(32,32) vectorize"},
        ScheduleCase{"matvec", "op1: tile(24,40) vectorize", 1, {kMask}},
        ScheduleCase{"matvec", "op1: parallelize(32,0)", 2},
        ScheduleCase{"matvec", "op1: interchange(1,0) tile(32,32) vectorize"}),
    caseName);

INSTANTIATE_TEST_SUITE_P(
    ConvAndPooling, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"conv_nhwc", "op1: tile(1,1,8,16,1,3,8) vectorize"},
        ScheduleCase{"conv_nhwc", "op1: tile(1,1,4,8,1,3,4) vectorize"},
        ScheduleCase{"conv_nhwc", "op1: tile(1,3,3,5,0,0,0)"},
        ScheduleCase{"conv_nhwc", "op1: parallelize(1,4,0,0,0,0,0)"},
        ScheduleCase{"conv_nhwc", "op1: parallelize(1,3,0,0,0,0,0)", 2},
        ScheduleCase{"conv_nhwc",
                     "op1: parallelize(1,4,0,0,0,0,0) tile(1,1,8,16,1,3,8) "
                     "vectorize",
                     2},
        ScheduleCase{"conv_nhwc", "op1: fuse(1,4,4,0,0,0,0)"},
        ScheduleCase{"conv_nhwc", "op1: img2col"},
        ScheduleCase{"conv_nhwc_stride2",
                     "op1: tile(1,1,5,16,1,3,8) vectorize"},
        ScheduleCase{"conv_nhwc_stride2", "op1: img2col"},
        ScheduleCase{"conv_nchw", "op1: tile(1,8,1,8,4,1,3) vectorize"},
        ScheduleCase{"conv_nchw", "op1: tile(1,3,3,5,0,0,0)"},
        ScheduleCase{"conv_nchw", "op1: parallelize(1,8,0,0,0,0,0)", 2},
        ScheduleCase{"conv_nchw", "op1: img2col"},
        ScheduleCase{"depthwise_conv", "op1: tile(1,1,8,8,1,3) vectorize"},
        ScheduleCase{"depthwise_conv", "op1: tile(1,1,4,4,1,3) vectorize"},
        ScheduleCase{"depthwise_conv", "op1: tile(1,3,5,3,0,0)"},
        ScheduleCase{"depthwise_conv", "op1: parallelize(1,4,0,0,0,0)", 2},
        ScheduleCase{"pool_nhwc_max", "op1: tile(1,1,8,8,1,3) vectorize"},
        ScheduleCase{"pool_nhwc_max", "op1: tile(1,3,3,3,0,0)"},
        ScheduleCase{"pool_nhwc_max", "op1: parallelize(1,4,0,0,0,0)", 2},
        ScheduleCase{"pool_nhwc_sum", "op1: tile(1,1,8,8,1,3) vectorize"},
        ScheduleCase{"pool_nhwc_sum", "op1: tile(1,1,4,4,1,3) vectorize"},
        ScheduleCase{"pool_nhwc_sum", "op1: parallelize(1,3,0,0,0,0)"},
        ScheduleCase{"pool_global_sum",
                     "op1: fuse(1,1,0,0,0,0) tile(1,1,1,256,1,0) vectorize"},
        ScheduleCase{"pool_nhwc_max",
                     "op1: fuse(1,1,0,0,0,0) tile(1,1,4,8,1,0) vectorize"},
        ScheduleCase{"pool_nchw_max", "op1: tile(1,3,3,3,0,0)"},
        ScheduleCase{"pool_nchw_max", "op1: parallelize(1,4,0,0,0,0)", 2}),
    caseName);

INSTANTIATE_TEST_SUITE_P(
    Elementwise, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"add", "op0: tile(16,16) vectorize"},
        ScheduleCase{"add", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"add", "op0: parallelize(16,0)", 2},
        ScheduleCase{"add", "op0: interchange(1,0) tile(8,8) vectorize"},
        ScheduleCase{"sub", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"sub", "op0: parallelize(24,0)", 2},
        ScheduleCase{"mul", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"mul", "op0: interchange(1,0)"},
        ScheduleCase{"div", "op0: tile(16,16) vectorize"},
        ScheduleCase{"div", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"generic_elementwise", "op0: interchange(1,0)"},
        ScheduleCase{"generic_elementwise",
                     "op0: interchange(1,0) tile(16,24) vectorize"},
        ScheduleCase{"generic_elementwise",
                     "op0: interchange(1,0) tile(20,24) vectorize",
                     1,
                     {kMask}},
        ScheduleCase{
            "generic_elementwise", "op0: tile(40,40) vectorize", 1, {kMask}},
        ScheduleCase{"generic_elementwise", "op0: parallelize(24,0)", 2},
        ScheduleCase{"bias_add", "op0: tile(16,16) vectorize"},
        ScheduleCase{"bias_add", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"bias_add", "op0: parallelize(16,0)", 2},
        ScheduleCase{"bias_add", "op0: interchange(1,0) tile(8,8) vectorize"},
        ScheduleCase{"exp", "op0: tile(8,16) vectorize"},
        ScheduleCase{"exp", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"exp", "op0: parallelize(16,0)"},
        ScheduleCase{"tanh", "op0: tile(8,16) vectorize"},
        ScheduleCase{"tanh", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"tanh", "op0: parallelize(16,0)"},
        ScheduleCase{"transpose", "op0: tile(8,8) vectorize"},
        ScheduleCase{"transpose", "op0: tile(24,20) vectorize", 1, {kMask}},
        ScheduleCase{"transpose", "op0: parallelize(16,0)", 2},
        ScheduleCase{"transpose", "op0: interchange(1,0)"},
        ScheduleCase{"transpose", "op0: interchange(1,0) tile(8,8) vectorize"}),
    caseName);

INSTANTIATE_TEST_SUITE_P(
    Reductions, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"reduce", "op1: tile(8,32)"},
        ScheduleCase{"reduce", "op1: tile(24,40)"},
        ScheduleCase{"reduce", "op1: parallelize(16,0)", 2},
        ScheduleCase{"reduce", "op1: interchange(1,0)"},
        ScheduleCase{"generic_rowsum", "op1: tile(24,40)"},
        ScheduleCase{"generic_rowsum", "op1: parallelize(24,0)", 2},
        ScheduleCase{"generic_rowsum", "op1: fuse(16,0)"},
        ScheduleCase{"generic_rowsum", "op1: fuse(16,0); op0: vectorize"}),
    caseName);

INSTANTIATE_TEST_SUITE_P(
    Fusion, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"chain", "op3: fuse(16,16)"},
        ScheduleCase{"chain", "op3: fuse(16,16); op2: vectorize"},
        ScheduleCase{"chain", "op3: fuse(24,24); op2: vectorize", 1, {kMask}},
        ScheduleCase{"chain", "op3: fuse(16,16) tile(8,8) vectorize; op2: "
                              "vectorize"},
        ScheduleCase{"chain", "op2: fuse(16,16); op1: tile(0,0,8) vectorize"},
        ScheduleCase{"chain",
                     "op2: fuse(24,16); op1: tile(0,0,8) vectorize",
                     1,
                     {kMask}},
        ScheduleCase{"chain", "op1: fuse(16,16,0); op0: vectorize"},
        ScheduleCase{"chain",
                     "op1: fuse(16,16,0); op3: fuse(16,16); op2: vectorize", 2},
        ScheduleCase{"chain", "op1: tile(8,8,8) vectorize; op2: tile(8,8) "
                              "vectorize; op3: parallelize(16,0)"}),
    caseName);

// img2col, then the steps that follow it on the matmul-like generic.
INSTANTIATE_TEST_SUITE_P(
    Img2col, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"conv_nhwc", "op1: img2col tile(1,16,8,8) vectorize"},
        ScheduleCase{
            "conv_nhwc", "op1: img2col tile(1,24,16,8) vectorize", 1, {kMask}},
        ScheduleCase{"conv_nhwc", "op1: img2col parallelize(1,16,8,0)", 2},
        ScheduleCase{"conv_nhwc",
                     "op1: img2col interchange(0,2,1,3) tile(1,8,16,8) "
                     "vectorize"},
        ScheduleCase{"conv_nchw", "op1: img2col tile(1,8,16,8) vectorize"},
        ScheduleCase{
            "conv_nchw", "op1: img2col tile(1,12,24,8) vectorize", 1, {kMask}}),
    caseName);

// Reductions that are not contractions vectorize to vector.multi_reduction,
// which the script lowers to vector.reduction. (A partially tiled
// linalg.reduce cannot be masked in MLIR 19; vectorize's check rejects it.)
INSTANTIATE_TEST_SUITE_P(
    ReductionVectorize, ScheduleMeasureTest,
    ::testing::Values(
        ScheduleCase{"reduce", "op1: tile(8,32) vectorize"},
        ScheduleCase{"reduce", "op1: interchange(1,0) tile(32,8) vectorize"},
        ScheduleCase{"generic_rowsum", "op1: tile(8,32) vectorize"},
        ScheduleCase{
            "generic_rowsum", "op1: tile(24,40) vectorize", 1, {kMask}}),
    caseName);

} // namespace
