// The environment side of every trainer: benchmarks and reset seeds drawn
// from the iteration's RNG, observations checked against the agent's shape,
// and the iteration's episode statistics.
#ifndef RLOPT_SRC_AGENT_DISCRETE_EPISODELOOP_H
#define RLOPT_SRC_AGENT_DISCRETE_EPISODELOOP_H

#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/agent/discrete/Training.h"

#include <chrono>
#include <random>

namespace rlopt::agent::discrete {

/// One state as the networks see it.
struct AgentState {
  std::vector<float> features;
  std::vector<uint8_t> allowed; ///< one per action; 1 = may be chosen
};

struct LoopStep {
  /// The environment's reward, clipped to [-rewardClip, rewardClip] when
  /// that is positive; the episode's recorded return is not clipped.
  double reward = 0;
  /// The episode reached a terminal state: nothing to bootstrap from.
  bool terminated = false;
  /// Terminated, truncated by the environment, or cut at maxEpisodeSteps.
  bool ended = false;
  AgentState next;
};

/// The episode statistics of `metrics` (count, failures, mean and best
/// return, geomean speedup) from episodes.jsonl records.
void summarizeEpisodes(const std::vector<nlohmann::json> &records,
                       IterationMetrics &metrics);

class EpisodeLoop {
public:
  EpisodeLoop(Env &env, std::vector<BenchmarkRef> benchmarks,
              DiscreteShape shape, int maxEpisodeSteps, double rewardClip = 0);

  const DiscreteShape &shape() const { return agentShape; }

  /// Starts an episode on a benchmark drawn uniformly with `rng`.
  Result<AgentState> reset(std::mt19937_64 &rng);
  Result<LoopStep> step(int64_t action);

  /// Moves the statistics of the episodes finished since the last call
  /// into `metrics`, and returns those episodes as episodes.jsonl records:
  /// program, actions, return, failed and the speedup if measured.
  std::vector<nlohmann::json> reportInto(IterationMetrics &metrics);

  /// The mean return of `policy` acting greedily once on every program,
  /// episodes cut at maxEpisodeSteps; neither counted as training steps
  /// nor reported as episodes.
  Result<double> greedyReturn(const DiscretePolicy &policy);

private:
  Result<AgentState> toAgentState(const Observation &obs, bool ended) const;
  std::string where() const;

  Env &env;
  std::vector<BenchmarkRef> benchmarks;
  DiscreteShape agentShape;
  int maxEpisodeSteps;
  double rewardClip;

  const BenchmarkRef *current = nullptr;
  int episodeSteps = 0;
  double episodeReturn = 0;
  std::vector<int64_t> episodeActions;
  std::vector<nlohmann::json> finished;

  int64_t steps = 0;
  double environmentSeconds = 0;
};

} // namespace rlopt::agent::discrete

#endif
