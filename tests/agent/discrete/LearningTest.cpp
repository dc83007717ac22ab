// Every algorithm, trained briefly on the counter environment, ends with a
// greedy policy that earns clearly more than uniformly random actions (a
// random policy earns 1.5 per episode, the best one 6), and never chooses a
// masked action on the way.
#include "CounterEnv.h"
#include "TinyConfigs.h"

using namespace rlopt;
using namespace rlopt::agent::discrete;
using namespace rlopt::agent::discrete::testing;

namespace {

class Learning : public ::testing::TestWithParam<std::string> {};

TEST_P(Learning, GreedyPolicyBeatsRandomWithoutMaskedActions) {
  CounterEnv env;
  double random = meanRandomReturn(env);
  ASSERT_NEAR(random, 1.5, 0.3) << "the counter environment changed";

  ScratchDir scratch;
  fs::path run = scratch / "run";
  Status status =
      train(tinyConfig(GetParam()), env, toyBenchmarks(), run.string());
  ASSERT_TRUE(status.ok()) << status.error().message;

  EXPECT_EQ(env.maskedChoiceCount(), 0) << "a masked action was chosen";
  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_FALSE(metrics.empty());
  std::string returns = "mean return per iteration:";
  for (const nlohmann::json &line : metrics)
    returns += " " + line["mean_reward"].dump();
  SCOPED_TRACE(returns);
  for (const nlohmann::json &line : metrics)
    EXPECT_EQ(line.value("failures", -1), 0) << line.dump();

  auto policy =
      DiscretePolicy::load((run / "policy.pt").string(), env.spaces());
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  std::string variant = GetParam();
  EXPECT_EQ(policy->algorithm(), variant.substr(0, variant.find('_')));
  double greedy = meanGreedyReturn(*policy, env);
  EXPECT_GE(greedy, random + 3.0)
      << "greedy " << greedy << " vs random " << random;
  EXPECT_GT(metrics.back()["mean_reward"].get<double>(),
            metrics.front()["mean_reward"].get<double>() + 1.0)
      << "the training return did not rise";
  EXPECT_EQ(env.maskedChoiceCount(), 0) << "a masked action was chosen";
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Learning,
                         ::testing::Values("ppo", "a2c", "dqn", "sac",
                                           "dqn_3step", "sac_3step"),
                         [](const auto &info) { return info.param; });

} // namespace

namespace {

// Learning from the first step: with three-step returns the memory holds
// nothing until the third step, and the learners must wait for it.
TEST(ReplayAgents, LearnFromTheFirstStepWithThreeStepReturns) {
  for (std::string variant : {"dqn_3step", "sac_3step"}) {
    SCOPED_TRACE(variant);
    AgentConfig config = withIterations(tinyConfig(variant), 1);
    if (auto *dqn = std::get_if<DqnConfig>(&config.config))
      dqn->learningStarts = 0;
    if (auto *sac = std::get_if<SacConfig>(&config.config))
      sac->learningStarts = 0;
    CounterEnv env;
    ScratchDir scratch;
    Status status =
        train(config, env, toyBenchmarks(), (scratch / "run").string());
    EXPECT_TRUE(status.ok()) << status.error().message;
  }
}

} // namespace
