// One --agent grammar for the three evaluations, with explicit units:
// random:N is episodes everywhere, random-time:S is seconds.
#include "rlopt/eval/AgentSpec.h"

#include <gtest/gtest.h>

using namespace rlopt::eval;

namespace {

const AgentChoices kPasses = {{"Oz", "O3", "greedy"}, true};

std::string errorOf(const std::string &text,
                    const AgentChoices &choices = kPasses) {
  auto spec = AgentSpec::parse(text, choices);
  return spec ? "" : spec.error().message;
}

TEST(AgentSpecTest, EachFormParsesAndPrintsBack) {
  for (const char *text : {"greedy", "random:100", "random-time:2.5",
                           "policy:runs/ppo/policy.pt"}) {
    auto spec = AgentSpec::parse(text, kPasses);
    ASSERT_TRUE(spec) << spec.error().message;
    EXPECT_EQ(spec->name(), text);
  }
  auto random = AgentSpec::parse("random:100", kPasses);
  EXPECT_EQ(random->kind, AgentSpec::Kind::Random);
  EXPECT_EQ(random->episodes, 100);
  auto timed = AgentSpec::parse("random-time:2.5", kPasses);
  EXPECT_EQ(timed->kind, AgentSpec::Kind::RandomTime);
  EXPECT_EQ(timed->seconds, 2.5);
  EXPECT_TRUE(AgentSpec::parse("greedy", kPasses)->is("greedy"));
  EXPECT_EQ(policyPathOf("policy:a/b.pt"), "a/b.pt");
  EXPECT_EQ(policyPathOf("greedy"), "");
}

TEST(AgentSpecTest, BudgetsOutOfRangeAreOneLineErrors) {
  EXPECT_EQ(errorOf("random:0"),
            "agent 'random:0': random:N needs N in 1..1000000 episodes "
            "(random-time:SECONDS searches for a time)");
  for (const char *text :
       {"random:1e400", "random:inf", "random:2.5",
        "random:", "random:99999999999999999999", "random:-3"})
    EXPECT_NE(errorOf(text).find("random:N needs N in 1..1000000"),
              std::string::npos)
        << text;
  for (const char *text :
       {"random-time:inf", "random-time:1e400", "random-time:nan",
        "random-time:0", "random-time:100000", "random-time:x"})
    EXPECT_EQ(errorOf(text),
              std::string("agent '") + text +
                  "': random-time:SECONDS needs SECONDS in (0, 86400]")
        << text;
}

TEST(AgentSpecTest, UnknownAgentsListWhatTheEvaluationOffers) {
  EXPECT_EQ(errorOf("bogus"),
            "unknown agent 'bogus' (expected Oz, O3, greedy, random:N, "
            "random-time:SECONDS, or policy:PATH)");
  // The Linalg evaluation measures every candidate: no time budget.
  auto linalg = AgentSpec::parse("random-time:5");
  ASSERT_FALSE(linalg);
  EXPECT_EQ(linalg.error().message,
            "unknown agent 'random-time:5' (expected naive, heuristic, "
            "random:N, search:N, search:N:PATH, or policy:PATH)");
  EXPECT_EQ(errorOf("policy:"),
            "unknown agent 'policy:' (expected Oz, O3, greedy, random:N, "
            "random-time:SECONDS, or policy:PATH)");
}

TEST(AgentSpecTest, SearchIsLinalgsAndCountsMeasuredSchedules) {
  auto search = AgentSpec::parse("search:8");
  ASSERT_TRUE(search) << search.error().message;
  EXPECT_EQ(search->kind, AgentSpec::Kind::Search);
  EXPECT_EQ(search->episodes, 8);
  EXPECT_EQ(search->name(), "search:8");
  EXPECT_TRUE(search->policyPath.empty());
  // With a policy, its proposals join the search.
  auto guided = AgentSpec::parse("search:8:runs/a:b/policy.pt");
  ASSERT_TRUE(guided) << guided.error().message;
  EXPECT_EQ(guided->kind, AgentSpec::Kind::Search);
  EXPECT_EQ(guided->episodes, 8);
  EXPECT_EQ(guided->policyPath, "runs/a:b/policy.pt");
  EXPECT_EQ(guided->name(), "search:8:runs/a:b/policy.pt");
  for (const char *text : {"search:0", "search:x", "search:", "search:1e400",
                           "search:8:", "search:x:p.pt"}) {
    auto bad = AgentSpec::parse(text);
    ASSERT_FALSE(bad) << text;
    EXPECT_EQ(bad.error().message,
              std::string("agent '") + text +
                  "': search:N[:PATH] needs N in 1..1000000 measured "
                  "schedules (and PATH a policy file)");
  }
  // Pass ordering has no cost model: search:N is not among its agents.
  EXPECT_NE(errorOf("search:8").find("unknown agent"), std::string::npos);
}

} // namespace
