// split_reduction: the loop nest it leaves, what it refuses, that split
// schedules measure correct, that the heuristic splits long row reductions
// only, and that an environment offers it only when its config opts in.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

using Sizes = std::vector<int64_t>;

/// Applies `schedule` to fixture `name`; the state of the op `index`.
struct Applied {
  Program program;
  std::unique_ptr<ScheduleState> state;
  Status status;
};

Applied apply(const std::string &name, const std::string &schedule) {
  auto program = loadFixture(name);
  EXPECT_TRUE(program.ok()) << program.error().message;
  Applied applied{std::move(*program), nullptr, Status::success()};
  applied.state = std::make_unique<ScheduleState>(applied.program.ops);
  auto parsed = parseSchedule(schedule);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  applied.status = applySchedule(*applied.state, *parsed);
  return applied;
}

/// Why `schedule` does not apply to `name` ("" if it does).
std::string refusal(const std::string &name, const std::string &schedule) {
  Applied applied = apply(name, schedule);
  return applied.status ? "" : applied.status.error().message;
}

EnvConfig quickEnvConfig(const std::string &cachePath) {
  EnvConfig config;
  config.measure = quickMeasureOptions(1);
  config.cachePath = cachePath;
  return config;
}

} // namespace

TEST(SplitReduction, ReductionLoopIsFollowedByAParallelLoopOfTheFactor) {
  Applied applied = apply("matvec", "op1: split_reduction(0,32)");
  ASSERT_TRUE(applied.status) << applied.status.error().message;
  const OpState &op = applied.state->ops[1];
  EXPECT_EQ(op.ranges, (Sizes{128, 4, 32}));
  EXPECT_EQ(op.isReduction, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(op.kind, "linalg.generic");
  // The next steps see three loops.
  Applied tiled =
      apply("matvec", "op1: split_reduction(0,32) tile(4,1,0) vectorize");
  ASSERT_TRUE(tiled.status) << tiled.status.error().message;
  EXPECT_EQ(tiled.state->ops[1].ranges, (Sizes{4, 1, 32}));
  std::string script = tiled.state->transformScript();
  EXPECT_NE(script.find("transform.structured.split_reduction %op1 { "
                        "split_factor = 32, insert_split_dimension = 1, "
                        "inner_parallel }"),
            std::string::npos)
      << script;
}

TEST(SplitReduction, RefusesWhatItCannotSplit) {
  EXPECT_NE(refusal("matvec", "op1: split_reduction(0,48)")
                .find("the factor must divide the reduction loop (128)"),
            std::string::npos);
  EXPECT_NE(
      refusal("matvec", "op1: split_reduction(0,128)").find("must divide"),
      std::string::npos);
  EXPECT_NE(refusal("matvec", "op1: split_reduction(8,32)")
                .find("only the reduction loop (1) takes a factor"),
            std::string::npos);
  EXPECT_NE(refusal("conv_nhwc", "op1: split_reduction(0,0,0,0,0,0,2)")
                .find("exactly one reduction loop"),
            std::string::npos);
  EXPECT_NE(refusal("matvec", "op1: split_reduction(0,32) "
                              "split_reduction(0,0,16)")
                .find("already split"),
            std::string::npos);
  EXPECT_NE(refusal("matvec", "op1: tile(0,48) split_reduction(0,16)")
                .find("tile sizes must divide the loops first"),
            std::string::npos);
  EXPECT_NE(refusal("row_last", "op0: split_reduction(0,16)")
                .find("not a reduction with a neutral element"),
            std::string::npos);
  EXPECT_NE(refusal("matvec", "op1: interchange(1,0) split_reduction(32,0)")
                .find("split the reduction before interchange"),
            std::string::npos);
  EXPECT_NE(refusal("conv_1d", "op0: split_reduction(0,7)")
                .find("not projected permutations"),
            std::string::npos);
  EXPECT_EQ(refusal("matvec", "op1: split_reduction(0,32)"), "");
}

class SplitScheduleTest : public ::testing::TestWithParam<FixtureSchedule> {};

TEST_P(SplitScheduleTest, MeasuresCorrectAtOneAndTwoThreads) {
  expectMeasuresCorrectOnOneAndTwoThreads(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, SplitScheduleTest,
    ::testing::Values(
        std::make_pair("matvec",
                       "op1: split_reduction(0,32) tile(4,1,0) vectorize"),
        std::make_pair("generic_rowsum",
                       "op1: split_reduction(0,16) tile(8,1,0) vectorize"),
        // The partials reduced over the whole outer loop in one vector op.
        std::make_pair("reduce",
                       "op1: split_reduction(0,32) tile(16,0,0) vectorize"),
        std::make_pair("row_max",
                       "op1: split_reduction(0,32) tile(4,1,0) vectorize"),
        // Parallel rows first, then the split inside each thread's rows.
        std::make_pair("row_variance",
                       "op1: parallelize(1,0,0) split_reduction(0,0,16) "
                       "tile(0,2,4,0) vectorize")));

TEST(SplitReduction, HeuristicSplitsLongRowReductionsIntoTwoVectors) {
  // Two vectors of partials per row, a quarter of the registers' worth of
  // rows at a time: 32 x 4 on AVX-512, 16 x 2 on AVX2.
  std::vector<std::string> extras = {"split_reduction"};
  EXPECT_EQ(heuristicText("matvec", cpu(16, 32), extras).substr(0, 46),
            "op1: split_reduction(0,32) tile(4,1,0) vectori");
  EXPECT_EQ(heuristicText("matvec", cpu(8, 16), extras).substr(0, 46),
            "op1: split_reduction(0,16) tile(2,1,0) vectori");
  EXPECT_NE(heuristicText("row_variance", cpu(16, 32), extras)
                .find("op1: split_reduction(0,0,32) tile(1,4,1,0) vectorize"),
            std::string::npos);
  // Not without the transformation, not a matmul (B is read down its
  // columns), not a row too short for four splits.
  EXPECT_EQ(heuristicText("matvec", cpu(16, 32), {}).find("split_reduction"),
            std::string::npos);
  EXPECT_EQ(heuristicText("matmul", cpu(16, 32), extras).find("split"),
            std::string::npos);
  EXPECT_EQ(heuristicText("row_last", cpu(16, 32), extras).find("split"),
            std::string::npos);
  EXPECT_EQ(
      heuristicText("matmul_transpose_b", cpu(16, 32), extras).find("split"),
      std::string::npos);
  EXPECT_EQ(heuristicText("conv_1d", cpu(16, 32), extras).find("split"),
            std::string::npos);
}

TEST(SplitReduction, EnvironmentOffersItOnlyWhenItsConfigOptsIn) {
  std::filesystem::path cache =
      std::filesystem::temp_directory_path() /
      ("rlopt-split-test-" + std::to_string(getpid()) + ".sqlite");
  EnvConfig base = quickEnvConfig(cache.string());
  LinalgEnv baseEnv(base);
  EXPECT_EQ(baseEnv.spaces().action.nvec[0], 7);
  EXPECT_EQ(baseEnv.typeIndex("split_reduction"), -1);
  EXPECT_FALSE(
      baseEnv.actionLayout().toJson().contains("extra_transformations"));

  auto opted = EnvConfig::fromJson(
      {{"extra_transformations", {"split_reduction"}}}, "env.json");
  ASSERT_TRUE(opted.ok()) << opted.error().message;
  opted->measure = base.measure;
  opted->cachePath = base.cachePath;
  LinalgEnv env(*opted);
  ASSERT_EQ(env.spaces().action.nvec[0], 8);
  int split = env.typeIndex("split_reduction");
  ASSERT_EQ(split, 7);
  ActionLayout layout = env.actionLayout();
  EXPECT_EQ(layout.extraTransformations,
            std::vector<std::string>{"split_reduction"});
  EXPECT_EQ(layout.extraTileTypes, std::vector<int>{7});
  EXPECT_EQ(ActionLayout::fromJson(layout.toJson()), layout);
  // One more history slot per op block of the observation.
  EXPECT_EQ(env.spaces().observation.size(),
            baseEnv.spaces().observation.size() + 2);

  auto obs = env.tryReset({fixturePath("matvec")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  EXPECT_EQ(env.currentOp(), 1);
  EXPECT_TRUE(obs->masks[0][split]);
  // The factor is read from the tile head of the reduction loop.
  Action action{std::vector<int64_t>(env.numHeads(), 0)};
  action.values[0] = split;
  const std::vector<int64_t> &sizes = opted->tileSizes;
  action.values[env.tileHead(1)] =
      std::find(sizes.begin(), sizes.end(), 32) - sizes.begin();
  StepResult step = env.step(action);
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_EQ(env.schedule().str(), "op1: split_reduction(0,32)");
  // The op has three loops now; split_reduction is masked from here on.
  EXPECT_EQ(env.currentOpState()->numLoops(), 3u);
  EXPECT_FALSE(step.obs.masks[0][split]);

  // A head value that does not divide the loop rounds down to one that
  // does (128 on a loop of 128: 64), so no unmasked value fails.
  ASSERT_TRUE(env.tryReset({fixturePath("matvec")}, 0).ok());
  action.values[env.tileHead(1)] =
      std::find(sizes.begin(), sizes.end(), 128) - sizes.begin();
  step = env.step(action);
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_EQ(env.schedule().str(), "op1: split_reduction(0,64)");
  // The heads cover max_loops loops: an op that has as many cannot split.
  EnvConfig narrow = *opted;
  narrow.maxLoops = 2;
  LinalgEnv narrowEnv(narrow);
  auto narrowObs = narrowEnv.tryReset({fixturePath("matvec")}, 0);
  ASSERT_TRUE(narrowObs.ok()) << narrowObs.error().message;
  EXPECT_FALSE(narrowObs->masks[0][narrowEnv.typeIndex("split_reduction")]);

  // A demonstration uses it only in the environment that offers it.
  auto withSplit =
      demonstrateHeuristic(env, {fixturePath("matvec")}, cpu(16, 32));
  ASSERT_TRUE(withSplit.ok()) << withSplit.error().message;
  EXPECT_NE(withSplit->schedule.find("split_reduction(0,32)"),
            std::string::npos)
      << withSplit->schedule;
  auto without =
      demonstrateHeuristic(baseEnv, {fixturePath("matvec")}, cpu(16, 32));
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_EQ(without->schedule.find("split"), std::string::npos)
      << without->schedule;
  for (const char *suffix : {"", "-wal", "-shm"})
    std::filesystem::remove(cache.string() + suffix);
}

TEST(SplitReduction, ConfigNamesOnlyRegisteredOptInTransformations) {
  auto unknown = EnvConfig::fromJson(
      {{"extra_transformations", {"split_reductions"}}}, "env.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "env.json: extra_transformations: \"split_reductions\" is not an "
            "opt-in transformation (known: " +
                extraTransformationNames() + ")");
  auto base =
      EnvConfig::fromJson({{"extra_transformations", {"tile"}}}, "env.json");
  ASSERT_FALSE(base.ok());
  EXPECT_NE(base.error().message.find("\"tile\" is not an opt-in"),
            std::string::npos);
  auto twice = EnvConfig::fromJson(
      {{"extra_transformations", {"split_reduction", "split_reduction"}}},
      "env.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("listed twice"), std::string::npos);
  auto wrongType = EnvConfig::fromJson(
      {{"extra_transformations", "split_reduction"}}, "env.json");
  EXPECT_FALSE(wrongType.ok());
}
