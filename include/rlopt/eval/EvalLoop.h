#ifndef RLOPT_EVAL_EVALLOOP_H
#define RLOPT_EVAL_EVALLOOP_H

#include "rlopt/agent/SequenceSearch.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/core/Env.h"
#include "rlopt/core/Progress.h"
#include "rlopt/core/Result.h"
#include "rlopt/eval/AgentSpec.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

// The agent loop shared by the pass-ordering evaluations (`rlopt passes
// eval`, `rlopt graph eval`).

namespace rlopt::eval {

/// The trained policy of a `policy:PATH` or `guided:K:PATH` agent, for an
/// env with `spaces`; null for any other agent.
Result<std::unique_ptr<agent::discrete::DiscretePolicy>>
loadPolicyAgent(const AgentSpec &agent, const Spaces &spaces);

/// The actions `policy` takes greedily on `benchmark`; with `episodes` > 1,
/// guided search: the greedy episode and `episodes` - 1 sampled from the
/// policy, the one with the highest return kept (the shorter on a tie). With
/// `seconds` > 0, episodes are sampled until that time has passed instead
/// (the greedy one always runs). An action that failed ends its episode;
/// only the ones that ran are kept.
Result<std::vector<Action>>
policyActions(const agent::discrete::DiscretePolicy &policy, Env &env,
              const BenchmarkRef &benchmark, uint64_t seed,
              int64_t episodes = 1, double seconds = 0);

/// The actions of a pass-ordering agent on `benchmark`: the policy's
/// (greedy or guided search), greedy search over at most `maxSteps` steps,
/// or random search with an episode or time budget. Fixed pipelines are
/// the caller's; they have no actions here.
Result<std::vector<Action>> searchAgentActions(
    Env &env, const BenchmarkRef &benchmark, const AgentSpec &agent,
    const agent::discrete::DiscretePolicy *policy, uint64_t seed, int maxSteps);

/// Runs `agent` on `uri` with searchAgentActions (timed into
/// `outcome.seconds`), names the actions it chose into `outcome.passes`,
/// then replays them from the start of `uri` so `env` holds their result.
/// False, with `outcome.error` set, when the agent or the replay failed.
template <typename Outcome, typename NameFn>
bool runAndReplay(Env &env, const std::string &uri, Outcome &outcome,
                  const AgentSpec &agent,
                  const agent::discrete::DiscretePolicy *policy, uint64_t seed,
                  int maxSteps, NameFn actionName) {
  auto start = std::chrono::steady_clock::now();
  Result<std::vector<Action>> actions =
      searchAgentActions(env, {uri}, agent, policy, seed, maxSteps);
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!actions) {
    outcome.error = actions.error().message;
    return false;
  }
  for (const Action &action : *actions)
    outcome.passes.push_back(actionName(action));
  auto replayed = agent::replayActions(env, {uri}, *actions);
  if (!replayed) {
    outcome.error = "replay: " + replayed.error().message;
    return false;
  }
  return true;
}

/// `evaluateOne(env, uri, options, agent, policy)` for each URI in turn,
/// where `agent` is `options.agent` as parsed once and `policy` that of a
/// policy agent (null for other agents). A progress bar titled "TITLE
/// AGENT" goes to stderr when `options.progress`.
template <typename Outcome, typename EnvT, typename Options>
Result<std::vector<Outcome>>
evaluateEach(const std::string &title, EnvT &env,
             const std::vector<std::string> &uris, const Options &options,
             const AgentSpec &agent,
             Outcome (*evaluateOne)(EnvT &, const std::string &,
                                    const Options &, const AgentSpec &,
                                    const agent::discrete::DiscretePolicy *)) {
  auto policy = loadPolicyAgent(agent, env.spaces());
  if (!policy)
    return policy.error();
  std::vector<Outcome> outcomes;
  ProgressBar bar(title + " " + options.agent, uris.size());
  for (size_t i = 0; i < uris.size(); ++i) {
    if (options.progress)
      bar.update(i, uris[i]);
    outcomes.push_back(
        evaluateOne(env, uris[i], options, agent, policy->get()));
  }
  if (options.progress)
    bar.finish();
  return outcomes;
}

} // namespace rlopt::eval

#endif
