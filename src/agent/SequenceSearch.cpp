// Search baselines over action sequences: random and greedy.
#include "rlopt/agent/SequenceSearch.h"
#include "rlopt/agent/RandomSearch.h"

#include <chrono>

namespace rlopt::agent {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool budgetSpent(const SearchBudget &budget, long episodes,
                 Clock::time_point start) {
  if (budget.maxEpisodes > 0 && episodes >= budget.maxEpisodes)
    return true;
  return budget.maxSeconds > 0 && secondsSince(start) >= budget.maxSeconds;
}

std::string stepError(const StepResult &step) {
  auto it = step.info.find("error");
  return it == step.info.end() ? "" : it->get<std::string>();
}

} // namespace

Result<SequenceResult> randomSequenceSearch(Env &env,
                                            const BenchmarkRef &benchmark,
                                            const SearchBudget &budget,
                                            uint64_t seed,
                                            const SearchProgress &progress) {
  if (budget.maxEpisodes <= 0 && budget.maxSeconds <= 0)
    return makeError("random search needs an episode or time budget");
  auto start = Clock::now();
  SequenceResult best;
  uint64_t state = seed;
  long episodes = 0, steps = 0;
  while (!budgetSpent(budget, episodes, start)) {
    auto obs = env.tryReset(benchmark, seed + episodes);
    if (!obs)
      return obs.error();
    std::vector<Action> taken;
    double reward = 0;
    StepResult step;
    do {
      taken.push_back(sampleMaskedAction(*obs, state));
      step = env.step(taken.back());
      ++steps;
      // A step that failed ends the episode and does not count.
      if (!stepError(step).empty())
        break;
      reward += step.reward;
      if (reward > best.reward) {
        best.reward = reward;
        best.actions = taken;
      }
      *obs = step.obs;
    } while (!step.terminated && !step.truncated);
    ++episodes;
    best.episodes = episodes;
    best.steps = steps;
    best.seconds = secondsSince(start);
    if (progress)
      progress(best);
  }
  return best;
}

Result<SequenceResult> greedySearch(Env &env, const BenchmarkRef &benchmark,
                                    int maxSteps,
                                    const SearchProgress &progress) {
  auto start = Clock::now();
  auto obs = env.tryReset(benchmark, 0);
  if (!obs)
    return obs.error();
  if (obs->masks.size() != 1)
    return makeError("greedy search needs a single action head");
  SequenceResult result;
  for (int round = 0; round < maxSteps; ++round) {
    double bestReward = 0;
    std::optional<Action> bestAction;
    for (size_t value = 0; value < obs->masks[0].size(); ++value) {
      if (!obs->masks[0][value])
        continue;
      Action action{{static_cast<int64_t>(value)}};
      auto reward = env.probe(action);
      ++result.steps;
      if (reward && *reward > bestReward) {
        bestReward = *reward;
        bestAction = action;
      }
    }
    ++result.episodes;
    if (!bestAction)
      break;
    StepResult step = env.step(*bestAction);
    ++result.steps;
    if (!stepError(step).empty())
      return makeError("greedy search: " + stepError(step));
    result.actions.push_back(*bestAction);
    result.reward += step.reward;
    result.seconds = secondsSince(start);
    if (progress)
      progress(result);
    if (step.terminated || step.truncated)
      break;
    *obs = step.obs;
  }
  result.seconds = secondsSince(start);
  return result;
}

Result<double> replayActions(Env &env, const BenchmarkRef &benchmark,
                             const std::vector<Action> &actions) {
  auto obs = env.tryReset(benchmark, 0);
  if (!obs)
    return obs.error();
  double reward = 0;
  for (const Action &action : actions) {
    StepResult step = env.step(action);
    if (!stepError(step).empty())
      return makeError(stepError(step));
    reward += step.reward;
  }
  return reward;
}

} // namespace rlopt::agent
