#include "EpisodeLoop.h"

#include <algorithm>
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
                         DiscreteShape shape, int maxEpisodeSteps,
                         double rewardClip)
    : env(env), benchmarks(std::move(benchmarks)), agentShape(shape),
      maxEpisodeSteps(maxEpisodeSteps), rewardClip(rewardClip) {}

std::string EpisodeLoop::where() const {
  return current->uri + ": step " + std::to_string(episodeSteps);
}

Result<AgentState> EpisodeLoop::toAgentState(const Observation &obs,
                                             bool ended) const {
  AgentState state;
  state.features = obs.features;
  if (obs.masks.size() == 1 &&
      (int64_t)obs.masks[0].size() == agentShape.actionCount)
    state.allowed = obs.masks[0];
  else if (obs.masks.empty())
    state.allowed.assign(agentShape.actionCount, ended ? 0 : 1);
  else
    return makeError(where() + ": the observation has " +
                     std::to_string(obs.masks.size()) +
                     " masks; expected one of " +
                     std::to_string(agentShape.actionCount) + " actions");
  if ((int64_t)state.features.size() != agentShape.observationSize) {
    // After a failed last step there may be nothing to observe; that state
    // is never bootstrapped from.
    if (!ended)
      return makeError(where() + ": the observation has " +
                       std::to_string(state.features.size()) +
                       " features; the observation space says " +
                       std::to_string(agentShape.observationSize));
    state.features.assign(agentShape.observationSize, 0);
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
  // One pass that grows the code many times over scores far below what any
  // good pass earns; clipped, it no longer dominates what the agent learns.
  step.reward = rewardClip > 0
                    ? std::clamp(result.reward, -rewardClip, rewardClip)
                    : result.reward;
  step.terminated = result.terminated;
  bool cut = maxEpisodeSteps > 0 && episodeSteps >= maxEpisodeSteps;
  step.ended = result.terminated || result.truncated || cut;
  auto next = toAgentState(result.obs, step.ended);
  if (!next)
    return next.error();
  step.next = std::move(*next);
  if (!step.ended)
    return step;

  nlohmann::json record = {{"program", current->uri},
                           {"actions", episodeActions},
                           {"return", episodeReturn},
                           {"failed", result.info.contains("error")}};
  auto speedup = result.info.find("speedup");
  if (speedup != result.info.end() && speedup->is_number() &&
      speedup->get<double>() > 0)
    record["speedup"] = *speedup;
  finished.push_back(std::move(record));
  return step;
}

void summarizeEpisodes(const std::vector<nlohmann::json> &records,
                       IterationMetrics &metrics) {
  metrics.episodes = records.size();
  metrics.failures = 0;
  double returnSum = 0, logSpeedupSum = 0;
  int speedups = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const nlohmann::json &record = records[i];
    double episodeReturn = record.value("return", 0.0);
    returnSum += episodeReturn;
    metrics.bestReturn =
        i == 0 ? episodeReturn : std::max(metrics.bestReturn, episodeReturn);
    metrics.failures += record.value("failed", false);
    if (record.contains("speedup")) {
      logSpeedupSum += std::log(record["speedup"].get<double>());
      ++speedups;
    }
  }
  metrics.meanReward = records.empty() ? 0 : returnSum / records.size();
  metrics.geomeanSpeedup = speedups ? std::exp(logSpeedupSum / speedups) : -1;
}

std::vector<nlohmann::json> EpisodeLoop::reportInto(IterationMetrics &metrics) {
  summarizeEpisodes(finished, metrics);
  metrics.steps = steps;
  metrics.environmentSeconds = environmentSeconds;
  steps = 0;
  environmentSeconds = 0;
  return std::exchange(finished, {});
}

Result<double> EpisodeLoop::greedyReturn(const DiscretePolicy &policy) {
  double sum = 0;
  for (const BenchmarkRef &benchmark : benchmarks) {
    auto episode =
        runGreedyEpisode(policy, env, benchmark, /*seed=*/0, maxEpisodeSteps);
    if (!episode)
      return episode.error();
    sum += episode->totalReward;
  }
  return sum / static_cast<double>(benchmarks.size());
}

} // namespace rlopt::agent::discrete
