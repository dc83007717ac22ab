// A tiny deterministic environment for the discrete agents, and helpers to
// train on it and to score a policy.
//
// Each of the 6 steps of an episode rewards one action: (previous action +
// 2 + b) mod 6, where b is 0 on toy://a and 1 on toy://b. The observation
// shows the step (one-hot), the previous action (one-hot), the benchmark
// (one-hot) and a count that grows tenfold per step, as instruction counts
// differ by orders of magnitude. Two actions are masked at every step,
// never the rewarded one; choosing one is counted, reported as an error
// and ends the episode. A uniformly random policy earns 6/4 = 1.5 per
// episode, the best one 6.
#ifndef RLOPT_TESTS_AGENT_DISCRETE_COUNTERENV_H
#define RLOPT_TESTS_AGENT_DISCRETE_COUNTERENV_H

#include "../../tools/ToolTestUtil.h"

#include "rlopt/agent/RandomSearch.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/core/Env.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace rlopt::agent::discrete::testing {

namespace fs = std::filesystem;

class CounterEnv : public Env {
public:
  static constexpr int kActions = 6;
  static constexpr int kLength = 6;

  /// `extraFeatures` zeros are appended to every observation, to make an
  /// environment of another observation size.
  explicit CounterEnv(int extraFeatures = 0)
      : extraFeatures(extraFeatures), maskedChoices(std::make_shared<int>(0)) {
    space.observation.shape = {kLength + kActions + 2 + 1 + extraFeatures};
    space.observation.high = 1e6;
    space.action.nvec = {kActions};
    space.action.names = {"action"};
  }

  const Spaces &spaces() const override { return space; }

  Result<Observation> tryReset(const BenchmarkRef &benchmark,
                               uint64_t seed) override {
    if (benchmark.uri != "toy://a" && benchmark.uri != "toy://b")
      return makeError(benchmark.uri + ": unknown benchmark");
    variant = benchmark.uri == "toy://b";
    previous = seed % kActions;
    position = 0;
    return observe();
  }

  StepResult step(const Action &action) override {
    StepResult result;
    int64_t a = action.values.empty() ? -1 : action.values[0];
    if (a < 0 || a >= kActions || !allowed(a)) {
      ++*maskedChoices;
      result.terminated = true;
      result.info["error"] = "action " + std::to_string(a) + " is masked";
      return result;
    }
    result.reward = a == rewarded() ? 1 : 0;
    previous = a;
    ++position;
    result.terminated = position == kLength;
    result.obs = observe();
    return result;
  }

  std::unique_ptr<Env> fork() const override {
    return std::make_unique<CounterEnv>(*this);
  }

  /// Masked actions chosen so far, by this environment and its forks.
  int maskedChoiceCount() const { return *maskedChoices; }
  int64_t rewarded() const { return (previous + 2 + variant) % kActions; }

private:
  bool allowed(int64_t a) const {
    return a != (previous + 1) % kActions && a != (previous + 4) % kActions;
  }

  Observation observe() const {
    Observation obs;
    obs.features.assign(space.observation.size(), 0);
    obs.features[std::min(position, kLength - 1)] = 1;
    obs.features[kLength + previous] = 1;
    obs.features[kLength + kActions + variant] = 1;
    obs.features[kLength + kActions + 2] = std::pow(10.0f, position);
    obs.masks.emplace_back(kActions);
    for (int64_t a = 0; a < kActions; ++a)
      obs.masks[0][a] = allowed(a);
    return obs;
  }

  Spaces space;
  int extraFeatures;
  std::shared_ptr<int> maskedChoices;
  int variant = 0, position = 0;
  int64_t previous = 0;
};

inline std::vector<BenchmarkRef> toyBenchmarks() {
  return {{"toy://a"}, {"toy://b"}};
}

/// Mean return of the greedy policy over both benchmarks and every start.
inline double meanGreedyReturn(const DiscretePolicy &policy, Env &env) {
  double total = 0;
  int episodes = 0;
  for (const BenchmarkRef &benchmark : toyBenchmarks())
    for (uint64_t seed = 0; seed < CounterEnv::kActions; ++seed) {
      auto episode = runGreedyEpisode(policy, env, benchmark, seed);
      EXPECT_TRUE(episode.ok()) << episode.error().message;
      if (!episode.ok())
        return 0;
      total += episode->totalReward;
      ++episodes;
    }
  return total / episodes;
}

/// Mean return of uniformly random allowed actions, measured.
inline double meanRandomReturn(Env &env) {
  double total = 0;
  int episodes = 0;
  for (const BenchmarkRef &benchmark : toyBenchmarks()) {
    auto search = randomSearch(env, benchmark, 200, /*seed=*/1);
    EXPECT_TRUE(search.ok());
    for (const EpisodeOutcome &e : search->episodes) {
      total += e.reward;
      ++episodes;
    }
  }
  return total / episodes;
}

/// A fresh directory under the test temp dir, removed afterwards.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern =
        (fs::path(::testing::TempDir()) / "rlopt-discrete-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      ADD_FAILURE() << "mkdtemp failed";
    dir = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path operator/(const std::string &name) const { return dir / name; }

private:
  fs::path dir;
};

using rlopt::tool::testing::readJsonLines;

/// The metrics lines without their wall-clock times, which differ between
/// otherwise identical runs.
inline std::vector<nlohmann::json> metricsWithoutTime(const fs::path &runDir) {
  std::vector<nlohmann::json> lines = readJsonLines(runDir / "metrics.jsonl");
  for (nlohmann::json &line : lines)
    line.erase("time");
  return lines;
}

} // namespace rlopt::agent::discrete::testing

#endif
