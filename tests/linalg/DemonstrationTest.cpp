// Demonstrations: the heuristic replayed through the environment's action
// space, and the encoding of single steps as actions.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/Heuristic.h"

#include <filesystem>

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

std::string heuristicText(const std::string &fixture) {
  auto program = loadFixture(fixture);
  EXPECT_TRUE(program.ok()) << program.error().message;
  return program ? heuristicSchedule(*program).str() : "";
}

TEST_F(DemonstrationTest, ReplaysTheHeuristicScheduleAndMeasuresIt) {
  for (const char *fixture : {"matmul", "chain", "pool_nhwc_max"}) {
    SCOPED_TRACE(fixture);
    LinalgEnv env(config);
    auto demo = demonstrateHeuristic(env, {fixturePath(fixture)});
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    EXPECT_EQ(demo->schedule, heuristicText(fixture));
    EXPECT_TRUE(demo->error.empty()) << demo->error;
    EXPECT_GT(demo->speedup, 0);
    ASSERT_FALSE(demo->actions.empty());
    ASSERT_EQ(demo->observations.size(), demo->actions.size());
    ASSERT_EQ(demo->rewards.size(), demo->actions.size());
    // Final reward: zero until the last step, then the log speedup.
    EXPECT_NEAR(demo->rewards.back(), std::log(demo->speedup), 1e-9);
    for (size_t k = 0; k < demo->actions.size(); ++k)
      for (size_t h = 0; h < demo->actions[k].values.size(); ++h)
        EXPECT_TRUE(demo->observations[k].masks[h][demo->actions[k].values[h]])
            << "step " << k << " head " << h << " is masked";
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

TEST_F(DemonstrationTest, UnknownTransformationHasNoAction) {
  LinalgEnv env(config);
  auto obs = env.tryReset({fixturePath("matmul")}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  EXPECT_TRUE(actionsForStep(env, *obs, {"unroll", {4}}).empty());
}

TEST_F(DemonstrationTest, ProgramThatDoesNotLoadIsAnError) {
  LinalgEnv env(config);
  auto demo = demonstrateHeuristic(env, {(dir / "missing.mlir").string()});
  ASSERT_FALSE(demo.ok());
  EXPECT_NE(demo.error().message.find("missing.mlir"), std::string::npos)
      << demo.error().message;
}

} // namespace
