#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/agent/RandomSearch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>

using namespace rlopt;
using namespace rlopt::linalg;

namespace {

const std::string kMatmulRelu =
    std::string(RLOPT_TEST_DATA) + "/env/matmul_relu.mlir";

std::filesystem::path cacheFile() {
  return std::filesystem::temp_directory_path() /
         ("rlopt-env-test-" + std::to_string(getpid()) + ".sqlite");
}

/// The binary's measurement cache goes when its tests end.
class RemoveCacheFile : public ::testing::Environment {
public:
  void TearDown() override {
    for (const char *suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(cacheFile().string() + suffix);
  }
};
const ::testing::Environment *const removeCacheFile =
    ::testing::AddGlobalTestEnvironment(new RemoveCacheFile);

EnvConfig fastConfig() {
  EnvConfig config;
  config.measure.timing.repetitions = 1;
  config.measure.timing.maxRounds = 1;
  config.measure.timing.minSampleMs = 0.1;
  config.cachePath = cacheFile().string();
  return config;
}

unsigned kindIndex(const std::string &name) {
  for (unsigned i = 0; i < transformations().size(); ++i)
    if (name == transformations()[i].name)
      return i;
  ADD_FAILURE() << "no transformation " << name;
  return 0;
}

/// An action choosing `kind`, with every parameter head at its first
/// allowed value.
Action actionFor(const Observation &obs, const std::string &kind) {
  Action action;
  for (const auto &mask : obs.masks) {
    int64_t first = 0;
    while (first < (int64_t)mask.size() && !mask[first])
      ++first;
    action.values.push_back(first);
  }
  action.values[0] = kindIndex(kind);
  return action;
}

/// Plays one episode of masked random actions on kMatmulRelu, showing each
/// step to `check`; returns the last step.
StepResult randomEpisode(LinalgEnv &env, uint64_t seed, uint64_t &rng,
                         const std::function<void(const StepResult &)> &check) {
  Observation obs = env.reset({kMatmulRelu}, seed);
  EXPECT_FALSE(env.lastError());
  StepResult r;
  for (int steps = 0; steps < 200; ++steps) {
    r = env.step(agent::sampleMaskedAction(obs, rng));
    check(r);
    if (r.terminated)
      return r;
    obs = r.obs;
  }
  ADD_FAILURE() << "no end after 200 steps: " << env.schedule().str();
  return r;
}

} // namespace

TEST(LinalgEnv, ResetGivesObservationOfTheDeclaredShape) {
  LinalgEnv env(fastConfig());
  Observation obs = env.reset({kMatmulRelu}, 0);
  ASSERT_FALSE(env.lastError()) << env.lastError()->message;
  EXPECT_EQ((int64_t)obs.features.size(), env.spaces().observation.size());
  ASSERT_EQ(obs.masks.size(), env.spaces().action.nvec.size());
  for (size_t h = 0; h < obs.masks.size(); ++h)
    EXPECT_EQ((int64_t)obs.masks[h].size(), env.spaces().action.nvec[h]);
  // The walk starts at the last consumer: the relu generic (op2).
  EXPECT_EQ(env.currentOp(), 2);
}

TEST(LinalgEnv, TileSizeMasksRespectLoopRanges) {
  EnvConfig config = fastConfig();
  LinalgEnv env(config);
  Observation obs = env.reset({kMatmulRelu}, 0);
  // op2 has loops 64 x 32: size 64 fits level 0 only; levels >= 2 are unused.
  const auto &sizes = config.tileSizes;
  for (size_t c = 0; c < sizes.size(); ++c) {
    EXPECT_EQ(obs.masks[env.tileHead(0)][c], sizes[c] <= 64);
    EXPECT_EQ(obs.masks[env.tileHead(1)][c], sizes[c] <= 32);
    EXPECT_EQ(obs.masks[env.tileHead(2)][c], c == 0);
  }
  // img2col applies to convolutions only.
  EXPECT_EQ(obs.masks[0][kindIndex("img2col")], 0);
}

// Layout 2 appends to each op block, per level and nonzero candidate,
// whether the candidate divides the range (1) or exceeds it (-1).
TEST(LinalgEnv, FeatureVersionTwoTellsWhichTileCandidatesDivide) {
  EnvConfig one = fastConfig(), two = fastConfig();
  two.featureVersion = 2;
  two.tileSizes = {0, 1, 3, 8, 48, 64, 128};
  one.tileSizes = two.tileSizes;
  LinalgEnv envOne(one), envTwo(two);
  Observation obsOne = envOne.reset({kMatmulRelu}, 0);
  Observation obsTwo = envTwo.reset({kMatmulRelu}, 0);
  ASSERT_FALSE(envTwo.lastError()) << envTwo.lastError()->message;
  EXPECT_EQ(envTwo.actionLayout().featureVersion, 2);
  size_t blockOne = envOne.actionLayout().opFeatureSize;
  size_t blockTwo = envTwo.actionLayout().opFeatureSize;
  size_t candidates = two.tileSizes.size() - 1;
  ASSERT_EQ(blockTwo, blockOne + two.maxLoops * candidates);
  EXPECT_EQ(obsTwo.features.size(),
            obsOne.features.size() + 2 * two.maxLoops * candidates);
  // The layout-1 part of the consumer's block is unchanged.
  for (size_t i = 0; i < blockOne; ++i)
    EXPECT_EQ(obsTwo.features[i], obsOne.features[i]) << i;
  // op2 (relu) has loops 64 x 32.
  const float *divides = obsTwo.features.data() + blockOne;
  std::vector<float> level0 = {1, 0, 1, 0, 1, -1};
  std::vector<float> level1 = {1, 0, 1, -1, -1, -1};
  for (size_t c = 0; c < candidates; ++c) {
    EXPECT_EQ(divides[c], level0[c]) << "level 0, candidate " << c;
    EXPECT_EQ(divides[candidates + c], level1[c]) << "level 1, candidate " << c;
    EXPECT_EQ(divides[2 * candidates + c], 0) << "unused level 2";
  }
}

TEST(LinalgEnv, InterchangeIsChosenByLevelPointers) {
  LinalgEnv env(fastConfig());
  Observation obs = env.reset({kMatmulRelu}, 0);
  StepResult r = env.step(actionFor(obs, "stop")); // relu: done
  ASSERT_FALSE(r.info.contains("error")) << r.info.dump();
  ASSERT_EQ(env.currentOp(), 1); // the matmul
  r = env.step(actionFor(r.obs, "interchange"));
  ASSERT_FALSE(r.info.contains("error")) << r.info.dump();
  // Only interchange may continue; every loop is still free.
  for (size_t t = 0; t < r.obs.masks[0].size(); ++t)
    EXPECT_EQ(r.obs.masks[0][t], t == kindIndex("interchange"));
  Action pick = actionFor(r.obs, "interchange");
  pick.values[env.pointerHead()] = 2;
  r = env.step(pick);
  EXPECT_EQ(r.obs.masks[env.pointerHead()][2], 0); // placed: masked
  EXPECT_EQ(r.obs.masks[env.pointerHead()][0], 1);
  pick = actionFor(r.obs, "interchange");
  pick.values[env.pointerHead()] = 0;
  r = env.step(pick); // the last loop is implied
  ASSERT_FALSE(r.info.contains("error")) << r.info.dump();
  EXPECT_EQ(env.schedule().str(), "op2: stop; op1: interchange(2,0,1)");
}

// The ablation: one step picks a swap of two loops from a fixed list.
TEST(LinalgEnv, EnumeratedInterchangePicksASwapInOneStep) {
  EnvConfig config = fastConfig();
  config.interchange = "enumerated";
  LinalgEnv env(config);
  // 8 loop levels: 28 candidate swaps.
  EXPECT_EQ(env.spaces().action.nvec[env.pointerHead()], 28);
  EXPECT_EQ(env.spaces().action.names[env.pointerHead()],
            "interchange_candidate");
  EXPECT_TRUE(env.actionLayout().enumeratedInterchange);
  EXPECT_EQ(env.actionLayout().pointerChoices(), 28);
  Observation obs = env.reset({kMatmulRelu}, 0);
  StepResult r = env.step(actionFor(obs, "stop"));
  ASSERT_EQ(env.currentOp(), 1); // the matmul: 3 loops, 3 swaps
  for (int c = 0; c < 28; ++c)
    EXPECT_EQ(r.obs.masks[env.pointerHead()][c], c < 3) << c;
  Action pick = actionFor(r.obs, "interchange");
  pick.values[env.pointerHead()] = 1; // (0, 2)
  r = env.step(pick);
  ASSERT_FALSE(r.info.contains("error")) << r.info.dump();
  // No sub-steps: the next step may choose any transformation again.
  EXPECT_EQ(r.obs.masks[0][kindIndex("tile")], 1);
  EXPECT_EQ(env.schedule().str(), "op2: stop; op1: interchange(2,1,0)");

  auto bad = EnvConfig::fromJson({{"interchange", "pointer"}}, "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("interchange"), std::string::npos);
}

TEST(LinalgEnv, MaskedActionIsAnErrorNotACrash) {
  LinalgEnv env(fastConfig());
  Observation obs = env.reset({kMatmulRelu}, 0);
  Action bad = actionFor(obs, "img2col");
  StepResult r = env.step(bad);
  EXPECT_TRUE(r.terminated);
  ASSERT_TRUE(r.info.contains("error"));
  EXPECT_NE(r.info["error"].get<std::string>().find("masked"),
            std::string::npos);
  StepResult after = env.step(bad);
  EXPECT_TRUE(after.terminated);
  EXPECT_TRUE(after.info.contains("error"));
}

TEST(LinalgEnv, ForkedEnvironmentsAreIndependent) {
  LinalgEnv env(fastConfig());
  Observation obs = env.reset({kMatmulRelu}, 0);
  std::unique_ptr<Env> branch = env.fork();
  auto *linalgBranch = static_cast<LinalgEnv *>(branch.get());
  Action tile = actionFor(obs, "tile");
  tile.values[env.tileHead(0)] = 4; // size 8
  StepResult r = branch->step(tile);
  ASSERT_FALSE(r.info.contains("error")) << r.info.dump();
  EXPECT_EQ(linalgBranch->schedule().str(), "op2: tile(8,0)");
  EXPECT_EQ(env.schedule().str(), "");
  EXPECT_EQ(env.currentOp(), 2);
}

TEST(LinalgEnv, RandomMaskedEpisodesFinishWithAMeasuredReward) {
  LinalgEnv env(fastConfig());
  uint64_t rng = 7;
  for (int episode = 0; episode < 8; ++episode) {
    StepResult r = randomEpisode(env, episode, rng, [&](const StepResult &s) {
      EXPECT_FALSE(s.info.contains("error"))
          << "schedule " << env.schedule().str() << ": " << s.info.dump();
    });
    ASSERT_TRUE(r.info.contains("measurement")) << r.info.dump();
    EXPECT_TRUE(r.info["measurement"]["correct"].get<bool>());
    double speedup = r.info["measurement"]["speedup"].get<double>();
    EXPECT_NEAR(r.reward, std::log(speedup), 1e-9);
    // The schedule text the episode reports parses back to itself.
    auto parsed = parseSchedule(r.info["schedule"].get<std::string>());
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->str(), env.schedule().str());
    std::cout << "episode " << episode << ": " << parsed->str() << " -> "
              << speedup << "x\n";
  }
}

TEST(LinalgEnv, RewardNoneProposesSchedulesWithoutMeasuring) {
  EnvConfig config = fastConfig();
  config.reward = RewardMode::None;
  LinalgEnv env(config);
  uint64_t rng = 3;
  for (int episode = 0; episode < 4; ++episode) {
    StepResult r = randomEpisode(env, episode, rng, [](const StepResult &s) {
      EXPECT_EQ(s.reward, 0);
      EXPECT_FALSE(s.info.contains("measurement")) << s.info.dump();
    });
    ASSERT_TRUE(r.info.contains("schedule"));
    EXPECT_EQ(r.info["schedule"].get<std::string>(), env.schedule().str());
  }
}

TEST(LinalgEnv, BadBenchmarkIsReportedOnReset) {
  LinalgEnv env(fastConfig());
  Observation obs = env.reset({"file:///nonexistent/x.mlir"}, 0);
  EXPECT_TRUE(obs.features.empty());
  ASSERT_TRUE(env.lastError());
  EXPECT_NE(env.lastError()->message.find("/nonexistent/x.mlir"),
            std::string::npos);
  StepResult r = env.step(Action{});
  EXPECT_TRUE(r.terminated);
  EXPECT_TRUE(r.info.contains("error"));
}

TEST(EnvConfig, RejectsUnknownKeysAndWrongTypes) {
  auto unknown = EnvConfig::fromJson({{"steps_per_opp", 3}}, "c.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message, "c.json: unknown key 'steps_per_opp'");
  auto wrongType = EnvConfig::fromJson({{"steps_per_op", "x"}}, "c.json");
  ASSERT_FALSE(wrongType.ok());
  EXPECT_NE(wrongType.error().message.find("steps_per_op"), std::string::npos);
  auto badSizes = EnvConfig::fromJson({{"tile_sizes", {4, 8}}}, "c.json");
  EXPECT_FALSE(badSizes.ok());
  auto badVersion = EnvConfig::fromJson({{"feature_version", 3}}, "c.json");
  ASSERT_FALSE(badVersion.ok());
  EXPECT_EQ(badVersion.error().message,
            "c.json: feature_version: expected 1..2");
  auto good = EnvConfig::fromJson(
      {{"steps_per_op", 3}, {"reward", "per_step"}, {"threads", 2}}, "c.json");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->stepsPerOp, 3u);
  EXPECT_EQ(good->reward, RewardMode::PerStep);
  EXPECT_EQ(good->measure.threads, 2);
  // toJson round-trips.
  auto again = EnvConfig::fromJson(good->toJson(), "c.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->toJson(), good->toJson());
  auto none = EnvConfig::fromJson({{"reward", "none"}}, "c.json");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->reward, RewardMode::None);
  EXPECT_EQ(none->toJson()["reward"], "none");
  auto badReward = EnvConfig::fromJson({{"reward", "speed"}}, "c.json");
  ASSERT_FALSE(badReward.ok());
  EXPECT_EQ(badReward.error().message,
            "c.json: reward: expected \"final\", \"per_step\" or \"none\", "
            "got \"speed\"");
}
