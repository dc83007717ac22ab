// The agent loop shared by the pass-ordering evaluations.
#include "rlopt/eval/EvalLoop.h"

#include <chrono>
#include <optional>
#include <random>

namespace rlopt::eval {

Result<std::unique_ptr<agent::discrete::DiscretePolicy>>
loadPolicyAgent(const AgentSpec &agent, const Spaces &spaces) {
  if (agent.kind != AgentSpec::Kind::Policy)
    return std::unique_ptr<agent::discrete::DiscretePolicy>();
  auto loaded = agent::discrete::DiscretePolicy::load(agent.policyPath, spaces);
  if (!loaded)
    return loaded.error();
  return std::make_unique<agent::discrete::DiscretePolicy>(loaded.takeValue());
}

Result<std::vector<Action>>
policyActions(const agent::discrete::DiscretePolicy &policy, Env &env,
              const BenchmarkRef &benchmark, uint64_t seed, int64_t episodes,
              double seconds) {
  std::mt19937_64 random(seed);
  std::optional<agent::discrete::GreedyEpisode> best;
  auto start = std::chrono::steady_clock::now();
  auto more = [&](int64_t i) {
    if (seconds <= 0)
      return i < episodes;
    std::chrono::duration<double> spent =
        std::chrono::steady_clock::now() - start;
    return i == 0 || spent.count() < seconds;
  };
  for (int64_t i = 0; more(i); ++i) {
    auto episode = agent::discrete::runGreedyEpisode(
        policy, env, benchmark, seed, 0, i == 0 ? nullptr : &random);
    if (!episode)
      return episode.error();
    // The step that failed did not change the program, nor count.
    if (episode->finalInfo.contains("error") && !episode->actions.empty())
      episode->actions.pop_back();
    if (!best || episode->totalReward > best->totalReward + 1e-12 ||
        (episode->totalReward >= best->totalReward - 1e-12 &&
         episode->actions.size() < best->actions.size()))
      best = std::move(*episode);
  }
  std::vector<Action> actions;
  for (int64_t value : best->actions)
    actions.push_back(Action{{value}});
  return actions;
}

Result<std::vector<Action>>
searchAgentActions(Env &env, const BenchmarkRef &benchmark,
                   const AgentSpec &agent,
                   const agent::discrete::DiscretePolicy *policy, uint64_t seed,
                   int maxSteps) {
  if (policy)
    return policyActions(*policy, env, benchmark, seed, agent.episodes,
                         agent.seconds);
  Result<agent::SequenceResult> found = makeError(
      "agent '" + agent.name() + "' is not a search over pass sequences");
  if (agent.is("greedy")) {
    found = agent::greedySearch(env, benchmark, maxSteps);
  } else if (agent.kind == AgentSpec::Kind::Random ||
             agent.kind == AgentSpec::Kind::RandomTime) {
    agent::SearchBudget budget;
    if (agent.kind == AgentSpec::Kind::Random)
      budget.maxEpisodes = agent.episodes;
    else
      budget.maxSeconds = agent.seconds;
    found = agent::randomSequenceSearch(env, benchmark, budget, seed);
  }
  if (!found)
    return found.error();
  return found->actions;
}

} // namespace rlopt::eval
