#include "EpisodeLoop.h"

#include <cmath>
#include <utility>

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

EpisodeLoop::EpisodeLoop(Env &env, std::vector<BenchmarkRef> benchmarks,
                         DiscreteShape shape, int maxEpisodeSteps)
    : env(env), benchmarks(std::move(benchmarks)), shape(shape),
      maxEpisodeSteps(maxEpisodeSteps) {}

std::string EpisodeLoop::where() const {
  return current->uri + ": step " + std::to_string(episodeSteps);
}

Result<AgentState> EpisodeLoop::toAgentState(const Observation &obs,
                                             bool ended) const {
  AgentState state;
  state.features = obs.features;
  if (obs.masks.size() == 1 &&
      (int64_t)obs.masks[0].size() == shape.actionCount)
    state.allowed = obs.masks[0];
  else if (obs.masks.empty())
    state.allowed.assign(shape.actionCount, ended ? 0 : 1);
  else
    return makeError(where() + ": the observation has " +
                     std::to_string(obs.masks.size()) +
                     " masks; expected one of " +
                     std::to_string(shape.actionCount) + " actions");
  if ((int64_t)state.features.size() != shape.observationSize) {
    // After a failed last step there may be nothing to observe; that state
    // is never bootstrapped from.
    if (!ended)
      return makeError(where() + ": the observation has " +
                       std::to_string(state.features.size()) +
                       " features; the observation space says " +
                       std::to_string(shape.observationSize));
    state.features.assign(shape.observationSize, 0);
  }
  if (!ended) {
    bool any = false;
    for (uint8_t a : state.allowed)
      any = any || a;
    if (!any)
      return makeError(where() + ": every action is masked");
  }
  return state;
}

Result<AgentState> EpisodeLoop::reset(std::mt19937_64 &rng) {
  if (benchmarks.empty())
    return makeError("no benchmarks to train on");
  current = &benchmarks[rng() % benchmarks.size()];
  uint64_t seed = rng();
  episodeSteps = 0;
  episodeReturn = 0;
  episodeActions.clear();
  auto start = Clock::now();
  auto obs = env.tryReset(*current, seed);
  environmentSeconds += secondsSince(start);
  if (!obs)
    return obs.error();
  return toAgentState(*obs, /*ended=*/false);
}

Result<LoopStep> EpisodeLoop::step(int64_t action) {
  auto start = Clock::now();
  StepResult result = env.step(Action{{action}});
  environmentSeconds += secondsSince(start);
  ++episodeSteps;
  ++steps;
  episodeReturn += result.reward;
  episodeActions.push_back(action);

  LoopStep step;
  step.reward = result.reward;
  step.terminated = result.terminated;
  bool cut = maxEpisodeSteps > 0 && episodeSteps >= maxEpisodeSteps;
  step.ended = result.terminated || result.truncated || cut;
  auto next = toAgentState(result.obs, step.ended);
  if (!next)
    return next.error();
  step.next = std::move(*next);
  if (!step.ended)
    return step;

  ++episodes;
  bool failed = result.info.contains("error");
  failures += failed;
  nlohmann::json record = {{"program", current->uri},
                           {"actions", episodeActions},
                           {"return", episodeReturn},
                           {"failed", failed}};
  returnSum += episodeReturn;
  bestReturn =
      episodes == 1 ? episodeReturn : std::max(bestReturn, episodeReturn);
  auto speedup = result.info.find("speedup");
  if (speedup != result.info.end() && speedup->is_number() &&
      speedup->get<double>() > 0) {
    logSpeedupSum += std::log(speedup->get<double>());
    ++speedups;
    record["speedup"] = *speedup;
  }
  finished.push_back(std::move(record));
  return step;
}

std::vector<nlohmann::json> EpisodeLoop::reportInto(IterationMetrics &metrics) {
  metrics.episodes = episodes;
  metrics.failures = failures;
  metrics.steps = steps;
  metrics.meanReward = episodes ? returnSum / episodes : 0;
  metrics.bestReturn = bestReturn;
  metrics.geomeanSpeedup = speedups ? std::exp(logSpeedupSum / speedups) : -1;
  metrics.environmentSeconds = environmentSeconds;
  episodes = failures = speedups = 0;
  steps = 0;
  returnSum = bestReturn = logSpeedupSum = environmentSeconds = 0;
  return std::exchange(finished, {});
}

} // namespace rlopt::agent::discrete
