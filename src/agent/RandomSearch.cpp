#include "rlopt/agent/RandomSearch.h"

#include <random>

namespace rlopt::agent {

Action sampleMaskedAction(const Observation &obs, uint64_t &state) {
  std::mt19937_64 rng(state);
  Action action;
  for (const auto &mask : obs.masks) {
    std::vector<int64_t> allowed;
    for (size_t v = 0; v < mask.size(); ++v)
      if (mask[v])
        allowed.push_back(v);
    action.values.push_back(allowed.empty() ? 0
                                            : allowed[rng() % allowed.size()]);
  }
  state = rng();
  return action;
}

Result<SearchResult> randomSearch(
    Env &env, const BenchmarkRef &benchmark, int episodes, uint64_t seed,
    const std::function<void(int, const EpisodeOutcome &)> &onEpisode) {
  SearchResult result;
  uint64_t state = seed;
  for (int e = 0; e < episodes; ++e) {
    auto started = env.tryReset(benchmark, seed + e);
    if (!started)
      return started.error();
    Observation obs = started.takeValue();
    EpisodeOutcome outcome;
    StepResult step;
    do {
      step = env.step(sampleMaskedAction(obs, state));
      outcome.reward += step.reward;
      obs = step.obs;
    } while (!step.terminated && !step.truncated);
    outcome.info = step.info;
    if (onEpisode)
      onEpisode(e, outcome);
    if (result.episodes.empty() || outcome.reward > result.best.reward)
      result.best = outcome;
    result.episodes.push_back(std::move(outcome));
  }
  return result;
}

} // namespace rlopt::agent
