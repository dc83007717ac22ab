// A policy's proposals for search: its greedy and sampled episodes in an
// environment that measures nothing, as distinct schedules, greedy first.
#include "AgentTestUtil.h"

#include "rlopt/agent/linalg/PolicyRunner.h"
#include "rlopt/linalg/Schedule.h"

#include <gtest/gtest.h>

#include <set>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

TEST(PolicyRunner, ProposalsAreDistinctGreedyFirstAndUnmeasured) {
  ScratchDir scratch;
  std::string path = (scratch / "policy.pt").string();
  linalg::EnvConfig env;
  env.reward = linalg::RewardMode::None;
  env.cachePath = (scratch / "cache.sqlite").string();
  torch::manual_seed(1);
  ASSERT_TRUE(
      LinalgPolicy(linalg::LinalgEnv(env).actionLayout(), tinyPolicyConfig())
          .save(path)
          .ok());
  auto running = startPolicy(path, env);
  ASSERT_TRUE(running.ok()) << running.error().message;

  std::string program = fixturePath("chain");
  auto greedy = runPolicyEpisode(*running->server, *running->policy, program,
                                 /*greedy=*/true, 4);
  ASSERT_TRUE(greedy.ok()) << greedy.error().message;
  EXPECT_TRUE(greedy->measurement.is_null()) << greedy->measurement.dump();
  EXPECT_EQ(greedy->speedup, 0);

  auto proposed = proposePolicySchedules(*running->server, *running->policy,
                                         program, 15, 4);
  ASSERT_TRUE(proposed.ok()) << proposed.error().message;
  ASSERT_FALSE(proposed->empty());
  EXPECT_EQ(proposed->front().str(), greedy->schedule);
  // An untrained policy samples broadly: a chain of four ops rarely gets
  // the same schedule twice.
  EXPECT_GT(proposed->size(), 1u);
  std::set<std::string> distinct;
  for (const linalg::Schedule &schedule : *proposed)
    EXPECT_TRUE(distinct.insert(schedule.str()).second) << schedule.str();
  EXPECT_LE(proposed->size(), 16u);

  // A policy file that does not load stops before any episode.
  auto missing = startPolicy((scratch / "missing.pt").string(), env);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing.pt"), std::string::npos)
      << missing.error().message;
}
