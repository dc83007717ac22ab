// The agent loop shared by the pass-ordering evaluations.
#include "rlopt/eval/EvalLoop.h"

namespace rlopt::eval {

Result<std::unique_ptr<agent::discrete::DiscretePolicy>>
loadPolicyAgent(const std::string &agent, const Spaces &spaces) {
  std::string path = policyPathOf(agent);
  if (path.empty())
    return std::unique_ptr<agent::discrete::DiscretePolicy>();
  auto loaded = agent::discrete::DiscretePolicy::load(path, spaces);
  if (!loaded)
    return loaded.error();
  return std::make_unique<agent::discrete::DiscretePolicy>(loaded.takeValue());
}

Result<std::vector<Action>>
policyActions(const agent::discrete::DiscretePolicy &policy, Env &env,
              const BenchmarkRef &benchmark, uint64_t seed) {
  auto episode =
      agent::discrete::runGreedyEpisode(policy, env, benchmark, seed);
  if (!episode)
    return episode.error();
  std::vector<Action> actions;
  for (int64_t value : episode->actions)
    actions.push_back(Action{{value}});
  if (episode->finalInfo.contains("error") && !actions.empty())
    actions.pop_back();
  return actions;
}

} // namespace rlopt::eval
