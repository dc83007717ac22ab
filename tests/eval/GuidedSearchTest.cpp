// Guided search: the policy's greedy episode and episodes sampled from it,
// the best kept; never worse than the greedy policy, never a masked action.
#include "rlopt/eval/AgentSpec.h"
#include "rlopt/eval/EvalLoop.h"

#include "../agent/discrete/CounterEnv.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace rlopt;
using namespace rlopt::eval;
using rlopt::agent::discrete::DiscretePolicy;
using rlopt::agent::discrete::NetworkConfig;
using rlopt::agent::discrete::testing::CounterEnv;

namespace {

DiscretePolicy untrainedPolicy(const Env &env, uint64_t seed = 7) {
  auto policy = DiscretePolicy::create(env.spaces(), NetworkConfig{}, seed);
  EXPECT_TRUE(policy.ok());
  return policy.takeValue();
}

double returnOf(Env &env, const BenchmarkRef &benchmark,
                const std::vector<Action> &actions) {
  auto total = agent::replayActions(env, benchmark, actions);
  EXPECT_TRUE(total.ok()) << total.error().message;
  return total.ok() ? *total : -1;
}

} // namespace

TEST(GuidedSearch, OneEpisodeIsTheGreedyPolicy) {
  CounterEnv env;
  DiscretePolicy policy = untrainedPolicy(env);
  auto greedy = agent::discrete::runGreedyEpisode(policy, env, {"toy://a"}, 3);
  ASSERT_TRUE(greedy.ok());
  auto guided = policyActions(policy, env, {"toy://a"}, 3, 1);
  ASSERT_TRUE(guided.ok());
  ASSERT_EQ(guided->size(), greedy->actions.size());
  for (size_t i = 0; i < guided->size(); ++i)
    EXPECT_EQ((*guided)[i].values[0], greedy->actions[i]);
}

TEST(GuidedSearch, SamplesBeatTheUntrainedGreedyPolicyAndRespectMasks) {
  CounterEnv env;
  double greedyTotal = 0, guidedTotal = 0;
  // Replays start from seed 0, so the episodes do too; the policies vary.
  const uint64_t seed = 0;
  for (const BenchmarkRef &benchmark :
       rlopt::agent::discrete::testing::toyBenchmarks())
    for (uint64_t policySeed = 1; policySeed <= 6; ++policySeed) {
      DiscretePolicy policy = untrainedPolicy(env, policySeed);
      auto greedy = policyActions(policy, env, benchmark, seed, 1);
      auto guided = policyActions(policy, env, benchmark, seed, 64);
      ASSERT_TRUE(greedy.ok() && guided.ok());
      double greedyReturn = returnOf(env, benchmark, *greedy);
      double guidedReturn = returnOf(env, benchmark, *guided);
      EXPECT_GE(guidedReturn, greedyReturn)
          << benchmark.uri << " policy " << policySeed;
      greedyTotal += greedyReturn;
      guidedTotal += guidedReturn;
      // The same seed finds the same sequence.
      auto again = policyActions(policy, env, benchmark, seed, 64);
      ASSERT_TRUE(again.ok());
      ASSERT_EQ(again->size(), guided->size());
      for (size_t i = 0; i < guided->size(); ++i)
        EXPECT_EQ((*again)[i].values, (*guided)[i].values);
    }
  // 64 samples of a near-uniform policy over 4 allowed actions find far
  // more than its single greedy episode (1.5 expected per random episode).
  EXPECT_GT(guidedTotal, greedyTotal + 12);
  EXPECT_EQ(env.maskedChoiceCount(), 0);
}

TEST(GuidedSearch, AgentSpecNamesEpisodesAndPolicy) {
  AgentChoices passes = {{"Oz", "O3", "greedy"}, true, true};
  auto spec = AgentSpec::parse("guided:16:runs/a:b/policy.pt", passes);
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->kind, AgentSpec::Kind::Policy);
  EXPECT_EQ(spec->episodes, 16);
  EXPECT_EQ(spec->policyPath, "runs/a:b/policy.pt");
  EXPECT_EQ(spec->name(), "guided:16:runs/a:b/policy.pt");
  EXPECT_EQ(policyPathOf("guided:16:p.pt"), "p.pt");
  EXPECT_EQ(AgentSpec::parse("policy:p.pt", passes)->episodes, 1);
  for (const char *bad : {"guided:0:p.pt", "guided:16",
                          "guided:16:", "guided:x:p.pt", "guided:1e400:p.pt"}) {
    auto parsed = AgentSpec::parse(bad, passes);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_NE(parsed.error().message.find("guided:K:PATH needs K"),
              std::string::npos)
        << parsed.error().message;
  }
  // The Linalg evaluation does not offer it.
  EXPECT_FALSE(AgentSpec::parse("guided:4:p.pt"));
}

TEST(GuidedSearch, AgentSpecNamesSecondsAndPolicy) {
  AgentChoices passes = {{"Oz", "O3", "greedy"}, true, true};
  auto spec = AgentSpec::parse("guided-time:60:runs/a:b/policy.pt", passes);
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->kind, AgentSpec::Kind::Policy);
  EXPECT_EQ(spec->seconds, 60);
  EXPECT_EQ(spec->policyPath, "runs/a:b/policy.pt");
  EXPECT_EQ(spec->name(), "guided-time:60:runs/a:b/policy.pt");
  EXPECT_EQ(AgentSpec::parse("guided-time:0.5:p.pt", passes)->name(),
            "guided-time:0.5:p.pt");
  EXPECT_EQ(policyPathOf("guided-time:2:p.pt"), "p.pt");
  for (const char *bad : {"guided-time:0:p.pt", "guided-time:60",
                          "guided-time:60:", "guided-time:x:p.pt",
                          "guided-time:inf:p.pt", "guided-time:1e400:p.pt",
                          "guided-time:-1:p.pt", "guided-time:90000:p.pt"}) {
    auto parsed = AgentSpec::parse(bad, passes);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().message,
              std::string("agent '") + bad +
                  "': guided-time:SECONDS:PATH needs SECONDS in (0, 86400] "
                  "and a policy file");
  }
  EXPECT_FALSE(AgentSpec::parse("guided-time:4:p.pt"));
}

TEST(GuidedSearch, ATimeBudgetSamplesUntilItIsSpent) {
  CounterEnv env;
  DiscretePolicy policy = untrainedPolicy(env);
  BenchmarkRef benchmark{"toy://a"};
  auto start = std::chrono::steady_clock::now();
  auto timed = policyActions(policy, env, benchmark, 0, 1, 0.2);
  std::chrono::duration<double> spent =
      std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(timed.ok()) << timed.error().message;
  EXPECT_GE(spent.count(), 0.2);
  EXPECT_LT(spent.count(), 5.0);
  // Many episodes fit in 0.2 s of a toy environment: at least as good as
  // 64 of them, and never worse than the greedy episode.
  auto greedy = policyActions(policy, env, benchmark, 0, 1);
  auto sampled = policyActions(policy, env, benchmark, 0, 64);
  ASSERT_TRUE(greedy.ok() && sampled.ok());
  EXPECT_GE(returnOf(env, benchmark, *timed),
            returnOf(env, benchmark, *sampled));
  EXPECT_GE(returnOf(env, benchmark, *timed),
            returnOf(env, benchmark, *greedy));
  EXPECT_EQ(env.maskedChoiceCount(), 0);
}
