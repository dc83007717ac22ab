// What a training run leaves in its directory and how it continues: the
// documented files, every episode and the env's settings, identical metrics
// for identical seeds, a resumed run
// that carries on the iteration count exactly as an uninterrupted one, and
// refusals of a changed config, another environment shape, or an
// environment with several action heads.
#include "CounterEnv.h"
#include "TinyConfigs.h"

#include "rlopt/agent/Archive.h"
#include "rlopt/core/FileLock.h"
#include "rlopt/core/Json.h"

#include <map>

using namespace rlopt;
using namespace rlopt::agent::discrete;
using namespace rlopt::agent::discrete::testing;
using rlopt::tool::testing::readFile;
using rlopt::tool::testing::writeFile;

namespace {

Status trainFor(const AgentConfig &config, const fs::path &run,
                const TrainOptions &options = {}) {
  CounterEnv env;
  return train(config, env, toyBenchmarks(), run.string(), options);
}

/// Options that request a stop after `iteration`, as SIGINT does.
TrainOptions stoppingAfter(int iteration, std::atomic<bool> &stop) {
  TrainOptions options;
  options.stopRequested = &stop;
  options.onIteration = [&stop, iteration](const IterationMetrics &m) {
    if (m.iteration == iteration)
      stop = true;
  };
  return options;
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, SameSeedGivesIdenticalMetrics) {
  ScratchDir scratch;
  AgentConfig config = withIterations(tinyConfig(GetParam()), 3);
  ASSERT_TRUE(trainFor(config, scratch / "first").ok());
  ASSERT_TRUE(trainFor(config, scratch / "second").ok());
  std::vector<nlohmann::json> first = metricsWithoutTime(scratch / "first");
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first, metricsWithoutTime(scratch / "second"));

  std::visit([](auto &c) { c.seed += 1; }, config.config);
  ASSERT_TRUE(trainFor(config, scratch / "other").ok());
  EXPECT_NE(first, metricsWithoutTime(scratch / "other"))
      << "the seed changes nothing";
}

TEST_P(EveryAlgorithm, ResumeContinuesWhereTheStopLeftOff) {
  ScratchDir scratch;
  AgentConfig config = withIterations(tinyConfig(GetParam()), 4);
  ASSERT_TRUE(trainFor(config, scratch / "whole").ok());

  // Stopped after iteration 2, as by SIGINT: a checkpoint, two lines.
  fs::path run = scratch / "stopped";
  std::atomic<bool> stop{false};
  ASSERT_TRUE(trainFor(config, run, stoppingAfter(2, stop)).ok());
  EXPECT_TRUE(fs::exists(run / "checkpoint.pt"));
  EXPECT_TRUE(fs::exists(run / "policy.pt"));
  ASSERT_EQ(readJsonLines(run / "metrics.jsonl").size(), 2u);

  TrainOptions resume;
  resume.resume = true;
  std::vector<int> resumedIterations;
  resume.onIteration = [&](const IterationMetrics &m) {
    resumedIterations.push_back(m.iteration);
  };
  Status status = trainFor(config, run, resume);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(resumedIterations, (std::vector<int>{3, 4}));
  std::vector<nlohmann::json> metrics = metricsWithoutTime(run);
  ASSERT_EQ(metrics.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(metrics[i]["iteration"], i + 1);
  // Nothing of the learner's state was lost at the checkpoint.
  EXPECT_EQ(metrics, metricsWithoutTime(scratch / "whole"));
}

/// The mean return of the run's policy.pt acting greedily once on every
/// toy program, as the trainer scores policies when it keeps the best.
double greedyReturnOfPolicy(const fs::path &run) {
  CounterEnv env;
  auto policy =
      DiscretePolicy::load((run / "policy.pt").string(), env.spaces());
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  if (!policy.ok())
    return 0;
  double sum = 0;
  for (const BenchmarkRef &benchmark : toyBenchmarks()) {
    auto episode = runGreedyEpisode(*policy, env, benchmark, /*seed=*/0);
    EXPECT_TRUE(episode.ok()) << episode.error().message;
    if (episode.ok())
      sum += episode->totalReward;
  }
  return sum / toyBenchmarks().size();
}

TEST_P(EveryAlgorithm, KeepBestLeavesThePolicyWithTheHighestGreedyReturn) {
  ScratchDir scratch;
  AgentConfig config = withIterations(tinyConfig(GetParam()), 5);
  std::visit([](auto &c) { c.keepBestEvery = 2; }, config.config);
  fs::path run = scratch / "run";
  ASSERT_TRUE(trainFor(config, run).ok());

  // Scored every 2 iterations and at the last.
  std::vector<int> scored;
  double best = -1e300;
  for (const nlohmann::json &m : readJsonLines(run / "metrics.jsonl"))
    if (m.contains("greedy_return")) {
      scored.push_back(m["iteration"].get<int>());
      best = std::max(best, m["greedy_return"].get<double>());
    }
  EXPECT_EQ(scored, (std::vector<int>{2, 4, 5}));
  EXPECT_NEAR(greedyReturnOfPolicy(run), best, 1e-9);

  // Stopped after iteration 3 and resumed, the run remembers the best so
  // far and ends with the same policy.
  fs::path stopped = scratch / "stopped";
  std::atomic<bool> stop{false};
  ASSERT_TRUE(trainFor(config, stopped, stoppingAfter(3, stop)).ok());
  TrainOptions resume;
  resume.resume = true;
  Status resumed = trainFor(config, stopped, resume);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(metricsWithoutTime(stopped), metricsWithoutTime(run));
  EXPECT_NEAR(greedyReturnOfPolicy(stopped), best, 1e-9);
}

TEST(RunDirectory, KeepBestEveryMayChangeOnResume) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  ASSERT_TRUE(trainFor(withIterations(tinyConfig("dqn"), 1), run).ok());
  AgentConfig more = withIterations(tinyConfig("dqn"), 2);
  std::visit([](auto &c) { c.keepBestEvery = 1; }, more.config);
  TrainOptions resume;
  resume.resume = true;
  Status resumed = trainFor(more, run, resume);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_TRUE(
      readJsonLines(run / "metrics.jsonl").back().contains("greedy_return"));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, EveryAlgorithm,
                         ::testing::Values("ppo", "a2c", "dqn", "sac"),
                         [](const auto &info) { return info.param; });

TEST(RunDirectory, HoldsConfigMetricsCheckpointAndPolicy) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  AgentConfig config = withIterations(tinyConfig("ppo"), 2);
  ASSERT_TRUE(trainFor(config, run).ok());

  auto saved = AgentConfig::load((run / "config.json").string());
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->toJson(), config.toJson());
  EXPECT_TRUE(fs::exists(run / "checkpoint.pt"));
  EXPECT_TRUE(fs::exists(run / "policy.pt"));

  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 2u);
  for (const nlohmann::json &m : metrics) {
    SCOPED_TRACE(m.dump());
    // The keys `rlopt report` draws.
    for (const char *key :
         {"iteration", "episodes", "failures", "steps", "mean_reward",
          "entropy", "policy_loss", "value_loss", "approx_kl", "clip_fraction"})
      EXPECT_TRUE(m.contains(key)) << "missing " << key;
    EXPECT_TRUE(m["time"].contains("elapsed_s"));
    EXPECT_GE(m["steps"].get<int>(), 240);
    // Whole episodes of 6 steps.
    EXPECT_EQ(m["steps"].get<int>(), 6 * m["episodes"].get<int>());
    EXPECT_GT(m["entropy"].get<double>(), 0);
  }
  EXPECT_EQ(metrics[1]["total_steps"].get<int>(),
            metrics[0]["steps"].get<int>() + metrics[1]["steps"].get<int>());
}

TEST(RunDirectory, ARunDirectoryInUseIsRefusedAndLeftAsItWas) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  AgentConfig config = withIterations(tinyConfig("ppo"), 1);
  ASSERT_TRUE(trainFor(config, run).ok());
  std::string metricsBefore = readFile(run / "metrics.jsonl");

  // Another training process holds the directory.
  Result<FileLock> other =
      FileLock::acquire((run / "run.lock").string(), "another run");
  ASSERT_TRUE(other.ok()) << other.error().message;
  TrainOptions resume;
  resume.resume = true;
  Status second = trainFor(withIterations(config, 2), run, resume);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().message, "run directory " + run.string() +
                                        " is in use by process " +
                                        std::to_string(getpid()));
  EXPECT_EQ(readFile(run / "metrics.jsonl"), metricsBefore);
}

TEST(RunDirectory, RecordsEveryEpisodeAndTheEnvironment) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  AgentConfig config = withIterations(tinyConfig("ppo"), 2);
  TrainOptions options;
  options.env = {{"observation", "counter"}, {"episode_length", 6}};
  ASSERT_TRUE(trainFor(config, run, options).ok());

  // config.json holds the env and still loads as the agent's config.
  auto json = readJsonFile((run / "config.json").string());
  ASSERT_TRUE(json.ok()) << json.error().message;
  EXPECT_EQ((*json)["env"], options.env);
  auto saved = AgentConfig::load((run / "config.json").string());
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->toJson(), config.toJson());

  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  std::vector<nlohmann::json> episodes = readJsonLines(run / "episodes.jsonl");
  ASSERT_EQ(metrics.size(), 2u);
  std::map<int, int> perIteration;
  for (const nlohmann::json &e : episodes) {
    SCOPED_TRACE(e.dump());
    ++perIteration[e.value("iteration", 0)];
    std::string program = e.value("program", "");
    EXPECT_TRUE(program == "toy://a" || program == "toy://b");
    ASSERT_TRUE(e["actions"].is_array());
    EXPECT_EQ(e["actions"].size(), 6u) << "the counter's episodes last 6 steps";
    for (const nlohmann::json &a : e["actions"])
      EXPECT_TRUE(a.is_number_integer() && a.get<int>() >= 0 &&
                  a.get<int>() < CounterEnv::kActions);
    EXPECT_TRUE(e["return"].is_number());
    EXPECT_EQ(e["failed"], false);
  }
  for (const nlohmann::json &m : metrics)
    EXPECT_EQ(perIteration[m["iteration"].get<int>()],
              m["episodes"].get<int>());
}

TEST(RunDirectory, ResumeRefusesAnotherEnvironmentAndReadsEnvJson) {
  ScratchDir scratch;
  nlohmann::json counter = {{"observation", "counter"}};
  nlohmann::json other = {{"observation", "other"}};
  TrainOptions first;
  first.env = counter;
  fs::path run = scratch / "run";
  ASSERT_TRUE(trainFor(withIterations(tinyConfig("ppo"), 1), run, first).ok());
  std::string config = readFile(run / "config.json");

  TrainOptions resume;
  resume.resume = true;
  resume.env = other;
  Status refused = trainFor(withIterations(tinyConfig("ppo"), 2), run, resume);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("env"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(readFile(run / "config.json"), config) << "the run's config lost";
  resume.env = counter;
  Status resumed = trainFor(withIterations(tinyConfig("ppo"), 2), run, resume);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;

  // Runs of earlier versions kept the env settings in env.json.
  fs::path earlier = scratch / "earlier";
  ASSERT_TRUE(trainFor(withIterations(tinyConfig("ppo"), 1), earlier).ok());
  writeFile(earlier / "env.json", counter.dump());
  resume.env = other;
  refused = trainFor(withIterations(tinyConfig("ppo"), 2), earlier, resume);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("env"), std::string::npos);
  resume.env = counter;
  resumed = trainFor(withIterations(tinyConfig("ppo"), 2), earlier, resume);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(readJsonLines(earlier / "metrics.jsonl").size(), 2u);
}

/// A tiny PPO config of one iteration.
PpoConfig oneIterationPpo() {
  PpoConfig config = tinyPpo();
  config.iterations = 1;
  return config;
}

TrainOptions resuming() {
  TrainOptions options;
  options.resume = true;
  return options;
}

TEST(RunDirectory, ResumeRefusesAnotherConfigButAllowsMoreIterations) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  PpoConfig config = oneIterationPpo();
  ASSERT_TRUE(trainFor({config}, run).ok());
  TrainOptions resume = resuming();

  PpoConfig changed = config;
  changed.gamma = 0.9;
  Status refused = trainFor({changed}, run, resume);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("gamma"), std::string::npos)
      << refused.error().message;

  Status otherAlgorithm = trainFor({tinyDqn()}, run, resume);
  ASSERT_FALSE(otherAlgorithm.ok());
  EXPECT_NE(otherAlgorithm.error().message.find("ppo"), std::string::npos)
      << otherAlgorithm.error().message;

  PpoConfig longer = config;
  longer.iterations = 2;
  Status extended = trainFor({longer}, run, resume);
  ASSERT_TRUE(extended.ok()) << extended.error().message;
  EXPECT_EQ(readJsonLines(run / "metrics.jsonl").size(), 2u);
}

TEST(RunDirectory, ResumeRefusesACheckpointWithDamagedMetadata) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  PpoConfig config = oneIterationPpo();
  ASSERT_TRUE(trainFor({config}, run).ok());
  TrainOptions resume = resuming();
  std::string checkpoint = (run / "checkpoint.pt").string();
  for (const char *meta :
       {R"({"format": "rlopt-discrete-checkpoint", "algorithm": 5})",
        R"({"format": "rlopt-discrete-checkpoint", "algorithm": "ppo",
            "observation_size": "15", "action_count": 6})",
        R"({"format": "rlopt-discrete-checkpoint", "algorithm": "ppo",
            "observation_size": 15, "action_count": 6, "config": [1]})",
        R"([1, 2])"}) {
    torch::serialize::OutputArchive archive;
    writeArchiveMeta(archive, nlohmann::json::parse(meta));
    ASSERT_TRUE(saveArchive(archive, checkpoint, "checkpoint").ok());
    Status refused = trainFor({config}, run, resume);
    ASSERT_FALSE(refused.ok()) << meta;
    EXPECT_NE(refused.error().message.find(checkpoint), std::string::npos)
        << refused.error().message;
  }
}

TEST(RunDirectory, PolicyIsRefusedForAnotherEnvironmentShape) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  ASSERT_TRUE(trainFor(withIterations(tinyConfig("ppo"), 1), run).ok());
  std::string path = (run / "policy.pt").string();

  ASSERT_TRUE(DiscretePolicy::load(path, CounterEnv().spaces()).ok());
  auto wider = DiscretePolicy::load(path, CounterEnv(3).spaces());
  ASSERT_FALSE(wider.ok()) << "accepted 18 features for 15";
  EXPECT_NE(wider.error().message.find("15"), std::string::npos);
  EXPECT_NE(wider.error().message.find("18"), std::string::npos);

  Spaces moreActions = CounterEnv().spaces();
  moreActions.action.nvec = {7};
  auto refused = DiscretePolicy::load(path, moreActions);
  ASSERT_FALSE(refused.ok()) << "accepted 7 actions for 6";
  EXPECT_NE(refused.error().message.find("actions"), std::string::npos);

  // Nor does a checkpoint resume on another environment.
  CounterEnv widerEnv(3);
  TrainOptions resume;
  resume.resume = true;
  Status status = train(withIterations(tinyConfig("ppo"), 2), widerEnv,
                        toyBenchmarks(), run.string(), resume);
  EXPECT_FALSE(status.ok());
}

/// The counter environment claiming a second action head.
class TwoHeadEnv : public CounterEnv {
public:
  TwoHeadEnv() {
    space = CounterEnv::spaces();
    space.action.nvec.push_back(2);
  }
  const Spaces &spaces() const override { return space; }

private:
  Spaces space;
};

TEST(RunDirectory, RefusesEnvironmentsWithoutOneDiscreteHead) {
  ScratchDir scratch;
  TwoHeadEnv env;
  Status status = train(tinyConfig("dqn"), env, toyBenchmarks(),
                        (scratch / "run").string());
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("2 action heads"), std::string::npos)
      << status.error().message;
}

TEST(RunDirectory, UnknownBenchmarkIsAnErrorNamingIt) {
  ScratchDir scratch;
  CounterEnv env;
  Status status = train(tinyConfig("a2c"), env, {{"toy://missing"}},
                        (scratch / "run").string());
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("toy://missing"), std::string::npos)
      << status.error().message;
}

} // namespace
