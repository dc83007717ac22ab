// Demonstrations: the heuristic replayed through the environment's action
// space, and the encoding of single steps as actions.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/Heuristic.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

class DemonstrationTest : public ::testing::Test {
protected:
  void SetUp() override {
    config.measure.timing.repetitions = 1;
    config.measure.timing.maxRounds = 1;
    config.measure.timing.minSampleMs = 0.1;
    config.cachePath = (dir / "cache.sqlite").string();
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("rlopt-demo-test-" + std::to_string(getpid()));
  EnvConfig config;
};

TEST_F(DemonstrationTest, ReplaysTheHeuristicScheduleAndMeasuresIt) {
  // The heuristic's schedule for an AVX-512 CPU as it writes it: a tile as
  // large as its loop (64, or 1 on a loop of 1) is a candidate, so it
  // stays, and the one rule gives the one action on every range. The
  // matmuls reduce over 64: their fill is fused into the register tiles.
  measure::CpuTarget avx512;
  avx512.f32Lanes = 16;
  avx512.vectorRegisters = 32;
  avx512.l2Bytes = 1 << 20;
  const std::pair<const char *, const char *> cases[] = {
      {"matmul", "op1: fuse(8,32,0) tile(8,32,1) vectorize; op0: vectorize"},
      {"chain", "op3: tile(8,64) vectorize; op2: tile(8,64) vectorize; "
                "op1: fuse(8,32,0) tile(8,32,1) vectorize; op0: vectorize"},
      {"pool_nhwc_max",
       "op1: fuse(1,1,0,0,0,0) tile(1,1,4,8,1,0) vectorize; op0: vectorize"}};
  for (auto [fixture, expected] : cases) {
    SCOPED_TRACE(fixture);
    LinalgEnv env(config);
    auto demo = demonstrateHeuristic(env, {fixturePath(fixture)}, avx512);
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    EXPECT_EQ(demo->schedule, expected);
    EXPECT_TRUE(demo->error.empty()) << demo->error;
    EXPECT_GT(demo->speedup, 0);
    ASSERT_FALSE(demo->actions.empty());
    ASSERT_EQ(demo->observations.size(), demo->actions.size());
    ASSERT_EQ(demo->rewards.size(), demo->actions.size());
    // Final reward: zero until the last step, then the log speedup.
    EXPECT_NEAR(demo->rewards.back(), std::log(demo->speedup), 1e-9);
    for (size_t k = 0; k + 1 < demo->rewards.size(); ++k)
      EXPECT_EQ(demo->rewards[k], 0.0) << "step " << k;
  }
}

TEST_F(DemonstrationTest, JsonRoundTripKeepsEveryStep) {
  LinalgEnv env(config);
  auto demo = demonstrateHeuristic(env, {fixturePath("add")});
  ASSERT_TRUE(demo.ok()) << demo.error().message;
  Demonstration copy = Demonstration::fromJson(demo->toJson());
  EXPECT_EQ(copy.toJson(), demo->toJson());
  EXPECT_EQ(copy.actions.size(), demo->actions.size());
}

TEST_F(DemonstrationTest, TileSizesRoundDownToTheLargestCandidate) {
  LinalgEnv env(config);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  // Candidates 0, 1, 2, 4, 8, ...: 7 becomes 4, 48 becomes 32.
  auto actions = actionsForStep(env, *obs, {"tile", {7, 48, 0}});
  ASSERT_EQ(actions.size(), 1u);
  const auto &sizes = config.tileSizes;
  EXPECT_EQ(sizes[actions[0].values[env.tileHead(0)]], 4);
  EXPECT_EQ(sizes[actions[0].values[env.tileHead(1)]], 32);
  EXPECT_EQ(sizes[actions[0].values[env.tileHead(2)]], 0);
  StepResult step = env.step(actions[0]);
  EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_NE(env.schedule().str().find("tile(4,32,0)"), std::string::npos)
      << env.schedule().str();
}

TEST_F(DemonstrationTest, InterchangeIsOneLevelPointerPerPlacedLoop) {
  LinalgEnv env(config);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  auto actions = actionsForStep(env, *obs, {"interchange", {2, 0, 1}});
  // The type, then pointers for positions 0 and 1; the env places the last.
  ASSERT_EQ(actions.size(), 3u);
  EXPECT_EQ(actions[1].values[env.pointerHead()], 2);
  EXPECT_EQ(actions[2].values[env.pointerHead()], 0);
  for (const Action &action : actions) {
    StepResult step = env.step(action);
    ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  }
  EXPECT_NE(env.schedule().str().find("interchange(2,0,1)"), std::string::npos)
      << env.schedule().str();
}

TEST_F(DemonstrationTest, EnumeratedInterchangeTakesOnlySingleSwaps) {
  config.interchange = "enumerated";
  LinalgEnv env(config);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  // Swaps of 3 loops in order (0,1), (0,2), (1,2): swapping 1 and 2 is 2.
  auto actions = actionsForStep(env, *obs, {"interchange", {0, 2, 1}});
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].values[env.pointerHead()], 2);
  EXPECT_TRUE(actionsForStep(env, *obs, {"interchange", {2, 0, 1}}).empty())
      << "a rotation is not one swap";
  StepResult step = env.step(actions[0]);
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_NE(env.schedule().str().find("interchange(0,2,1)"), std::string::npos)
      << env.schedule().str();
}

TEST_F(DemonstrationTest, DivisorsRoundToCandidatesThatDivideTheLoop) {
  std::filesystem::path path = dir / "add_20x28.mlir";
  std::ofstream(path) << R"(
func.func @add(%a: tensor<20x28xf32>, %b: tensor<20x28xf32>) -> tensor<20x28xf32> {
  %empty = tensor.empty() : tensor<20x28xf32>
  %c = linalg.add ins(%a, %b : tensor<20x28xf32>, tensor<20x28xf32>) outs(%empty : tensor<20x28xf32>) -> tensor<20x28xf32>
  return %c : tensor<20x28xf32>
}
)";
  LinalgEnv env(config);
  auto obs = env.tryReset({path.string()}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  auto sizeAt = [&](const Action &action, unsigned loop) {
    return config.tileSizes[action.values[env.tileHead(loop)]];
  };
  // 10 divides 20 and 14 divides 28, but 8 divides neither: both become 4,
  // so no partial tile is left.
  auto divisors = actionsForStep(env, *obs, {"tile", {10, 14}});
  ASSERT_EQ(divisors.size(), 1u);
  EXPECT_EQ(sizeAt(divisors[0], 0), 4);
  EXPECT_EQ(sizeAt(divisors[0], 1), 4);
  // 12 does not divide 20: the largest candidate below, 8. The whole loop
  // of 28, which is no candidate, is the same as leaving it untiled.
  auto others = actionsForStep(env, *obs, {"tile", {12, 28}});
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(sizeAt(others[0], 0), 8);
  EXPECT_EQ(sizeAt(others[0], 1), 0);
}

// A pooling peels its channels, never the loops that slide over its window:
// the environment allows peel there, so the heuristic's peeled, vectorized
// pooling replays step for step instead of ending unvectorized.
TEST_F(DemonstrationTest, PoolingPeelsItsChannelsAsTheHeuristicDoes) {
  measure::CpuTarget avx512;
  avx512.f32Lanes = 16;
  avx512.vectorRegisters = 32;
  config.extraTransformations = {"peel"};
  auto program = loadFixture("pool_nhwc_odd");
  ASSERT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  options.target = avx512;
  options.extraTransformations = config.extraTransformations;
  Schedule heuristic = heuristicSchedule(*program, options);
  auto pooling =
      std::find_if(heuristic.ops.begin(), heuristic.ops.end(),
                   [](const OpSchedule &op) { return op.opId == "op1"; });
  ASSERT_NE(pooling, heuristic.ops.end()) << heuristic.str();
  ASSERT_FALSE(pooling->steps.empty());
  ASSERT_EQ(pooling->steps.front().name, "peel") << heuristic.str();

  LinalgEnv env(config);
  auto demo = demonstrateHeuristic(env, {fixturePath("pool_nhwc_odd")}, avx512);
  ASSERT_TRUE(demo.ok()) << demo.error().message;
  EXPECT_TRUE(demo->error.empty()) << demo->error;
  auto replayed = parseSchedule(demo->schedule);
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  auto op1 =
      std::find_if(replayed->ops.begin(), replayed->ops.end(),
                   [](const OpSchedule &op) { return op.opId == "op1"; });
  ASSERT_NE(op1, replayed->ops.end()) << demo->schedule;
  ASSERT_EQ(op1->steps.size(), pooling->steps.size()) << demo->schedule;
  for (size_t k = 0; k < op1->steps.size(); ++k) {
    EXPECT_EQ(op1->steps[k].name, pooling->steps[k].name) << demo->schedule;
    EXPECT_EQ(op1->steps[k].params, pooling->steps[k].params) << demo->schedule;
  }
}

TEST_F(DemonstrationTest, UnknownOrMalformedStepHasNoAction) {
  LinalgEnv env(config);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  EXPECT_TRUE(actionsForStep(env, *obs, {"unroll", {4}}).empty());
  EXPECT_TRUE(actionsForStep(env, *obs, {"interchange", {0, 0, 1}}).empty())
      << "not a permutation";
  EXPECT_TRUE(actionsForStep(env, *obs, {"interchange", {1, 0}}).empty())
      << "matmul has three loops";
}

TEST_F(DemonstrationTest, ProgramThatDoesNotLoadIsAnError) {
  LinalgEnv env(config);
  auto demo = demonstrateHeuristic(env, {(dir / "missing.mlir").string()});
  ASSERT_FALSE(demo.ok());
  EXPECT_NE(demo.error().message.find("missing.mlir"), std::string::npos)
      << demo.error().message;
}

} // namespace
