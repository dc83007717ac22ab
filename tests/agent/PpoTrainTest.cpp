// trainPpo end to end on tiny programs with a tiny policy: the run
// directory holds the documented files, a resumed run continues where the
// last one stopped, and a seed fixes the first iteration's schedules.
#include "AgentTestUtil.h"

#include "rlopt/linalg/Schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

namespace {

/// (program, schedule) of every episode of `iteration`, in file order.
std::vector<std::pair<std::string, std::string>>
episodesOf(const fs::path &runDir, int iteration) {
  std::vector<std::pair<std::string, std::string>> episodes;
  for (const nlohmann::json &e : readJsonLines(runDir / "episodes.jsonl"))
    if (e.value("iteration", 0) == iteration)
      episodes.push_back({e.value("program", ""), e.value("schedule", "")});
  return episodes;
}

bool isFiniteNumber(const nlohmann::json &value) {
  return value.is_number() && std::isfinite(value.get<double>());
}

TEST(TrainPpo, TinyRunWritesMetricsEpisodesAndAPolicy) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.seed = 7;
  config.evalEvery = 2;
  config.evalPrograms = 1;
  TrainOptions options = tinyTrainOptions(run);
  options.validationPrograms = {fixturePath("mul")};

  std::vector<IterationMetrics> reported;
  Status status = trainPpo(config, options, [&](const IterationMetrics &m) {
    reported.push_back(m);
  });
  ASSERT_TRUE(status.ok()) << status.error().message;

  // One callback and one metrics line per iteration.
  ASSERT_EQ(reported.size(), 2u);
  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 2u);
  double lastElapsed = 0;
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json &m = metrics[i];
    SCOPED_TRACE(m.dump());
    for (const char *key : {"iteration", "episodes", "geomean_speedup",
                            "entropy", "policy_loss", "value_loss", "time"})
      EXPECT_TRUE(m.contains(key)) << "missing " << key;
    EXPECT_EQ(m["iteration"], i + 1);
    EXPECT_EQ(m["episodes"], config.programsPerIteration);
    EXPECT_GE(m.value("steps", 0), config.programsPerIteration);
    EXPECT_TRUE(isFiniteNumber(m["geomean_speedup"]));
    EXPECT_GT(m["geomean_speedup"].get<double>(), 0)
        << "no episode of the iteration was measured";
    EXPECT_TRUE(isFiniteNumber(m["entropy"]));
    EXPECT_GT(m["entropy"].get<double>(), 0);
    // The same record as every trainer's: the best episode and the totals.
    EXPECT_GE(m["best_return"].get<double>(), m["mean_reward"].get<double>());
    EXPECT_GE(m["total_steps"].get<int64_t>(), m["steps"].get<int64_t>());
    EXPECT_TRUE(isFiniteNumber(m["policy_loss"]));
    EXPECT_TRUE(isFiniteNumber(m["value_loss"]));
    EXPECT_GE(m["value_loss"].get<double>(), 0);
    ASSERT_TRUE(m["time"].is_object());
    for (const char *key : {"inference_s", "environment_s", "compile_s",
                            "learn_s", "elapsed_s"}) {
      ASSERT_TRUE(isFiniteNumber(m["time"][key])) << key;
      EXPECT_GE(m["time"][key].get<double>(), 0) << key;
    }
    double elapsed = m["time"]["elapsed_s"].get<double>();
    EXPECT_GT(elapsed, lastElapsed);
    lastElapsed = elapsed;
    // The callback saw what the file says.
    EXPECT_EQ(reported[i].iteration, i + 1);
    EXPECT_EQ(reported[i].episodes, m["episodes"].get<int>());
    EXPECT_DOUBLE_EQ(reported[i].geomeanSpeedup,
                     m["geomean_speedup"].get<double>());
  }
  // Validation ran on iteration 2 only (eval_every 2).
  EXPECT_FALSE(metrics[0].contains("validation_geomean_speedup"));
  ASSERT_TRUE(metrics[1].contains("validation_geomean_speedup"));
  EXPECT_GT(metrics[1]["validation_geomean_speedup"].get<double>(), 0);

  // Every episode is recorded: a training program, a schedule that parses,
  // and a speedup for those that did not fail.
  std::vector<nlohmann::json> episodes = readJsonLines(run / "episodes.jsonl");
  ASSERT_EQ(episodes.size(), 2u * config.programsPerIteration);
  std::set<std::string> programs(options.trainPrograms.begin(),
                                 options.trainPrograms.end());
  for (size_t i = 0; i < episodes.size(); ++i) {
    const nlohmann::json &e = episodes[i];
    SCOPED_TRACE(e.dump());
    EXPECT_EQ(e.value("iteration", 0),
              1 + (int)i / config.programsPerIteration);
    EXPECT_TRUE(programs.count(e.value("program", "")))
        << "not a training program (validation episodes belong elsewhere)";
    ASSERT_TRUE(e.contains("schedule") && e["schedule"].is_string());
    auto parsed = linalg::parseSchedule(e["schedule"].get<std::string>());
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_TRUE(e.contains("failed") && e["failed"].is_boolean());
    ASSERT_TRUE(isFiniteNumber(e["speedup"]));
    if (!e["failed"].get<bool>()) {
      EXPECT_GT(e["speedup"].get<double>(), 0);
    }
  }

  // config.json is the config, loadable as one.
  auto saved = PpoConfig::load((run / "config.json").string());
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->toJson(), config.toJson());

  // policy.pt is a loadable policy of the environment's layout, with the
  // config inside; checkpoint.pt names the last iteration.
  nlohmann::json extra;
  auto policy =
      LinalgPolicy::load((run / "policy.pt").string(), defaultLayout(), &extra);
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  EXPECT_EQ((*policy)->config().toJson(), config.policy.toJson());
  EXPECT_EQ(extra.value("config", nlohmann::json()), config.toJson());
  nlohmann::json checkpointExtra;
  auto checkpoint = LinalgPolicy::load((run / "checkpoint.pt").string(),
                                       defaultLayout(), &checkpointExtra);
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.error().message;
  EXPECT_EQ(checkpointExtra.value("iteration", 0), 2);
  EXPECT_TRUE(fs::exists(run / "optimizer.pt"));
  // The final policy is the last checkpoint's.
  torch::Tensor obs = torch::randn({4, defaultLayout().observationSize()});
  {
    torch::NoGradGuard noGrad; // Scoped: trainPpo below needs gradients.
    EXPECT_TRUE(torch::equal((*policy)->actor->forward(obs),
                             (*checkpoint)->actor->forward(obs)));
  }

  // Resuming with more iterations runs only the new one.
  config.iterations = 3;
  options.resume = true;
  reported.clear();
  status = trainPpo(config, options,
                    [&](const IterationMetrics &m) { reported.push_back(m); });
  ASSERT_TRUE(status.ok()) << status.error().message;
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported[0].iteration, 3);
  metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(metrics[i]["iteration"], i + 1);
  EXPECT_EQ(readJsonLines(run / "episodes.jsonl").size(),
            3u * config.programsPerIteration);
  // The policy changed with the extra iteration.
  auto resumed =
      LinalgPolicy::load((run / "policy.pt").string(), defaultLayout());
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  torch::NoGradGuard noGrad;
  EXPECT_FALSE(torch::equal((*resumed)->actor->forward(obs),
                            (*checkpoint)->actor->forward(obs)));
}

TEST(TrainPpo, SameSeedGivesTheSameFirstIterationSchedules) {
  ScratchDir scratch;
  std::string cache = (scratch / "cache.sqlite").string();
  auto runWithSeed = [&](uint64_t seed, const std::string &name) {
    PpoConfig config = tinyPpoConfig(cache);
    config.iterations = 1;
    config.seed = seed;
    Status status = trainPpo(config, tinyTrainOptions(scratch / name), nullptr);
    EXPECT_TRUE(status.ok()) << status.error().message;
    return episodesOf(scratch / name, 1);
  };
  auto first = runWithSeed(11, "a");
  auto second = runWithSeed(11, "b");
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first, second);
  // The seed is not ignored: another seed gives other episodes.
  auto other = runWithSeed(12, "c");
  ASSERT_EQ(other.size(), 4u);
  EXPECT_NE(first, other);
}

TEST(TrainPpo, BadInputsAreErrors) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.iterations = 1;
  config.workers = 1;
  config.programsPerIteration = 1;

  TrainOptions none = tinyTrainOptions(scratch / "none");
  none.trainPrograms.clear();
  Status status = trainPpo(config, none, nullptr);
  EXPECT_FALSE(status.ok());

  // A program that does not load fails the run with its name, no hang.
  std::string broken = (scratch / "broken.mlir").string();
  writeFile(broken, "func.func @f( {\n");
  TrainOptions bad = tinyTrainOptions(scratch / "bad");
  bad.trainPrograms = {broken};
  status = trainPpo(config, bad, nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find(broken), std::string::npos)
      << status.error().message;

  // A run directory that cannot be created.
  writeFile(scratch / "file", "x");
  status =
      trainPpo(config, tinyTrainOptions(scratch / "file" / "run"), nullptr);
  EXPECT_FALSE(status.ok());
}

// Resuming with other network sizes than the checkpoint's is an error.
TEST(TrainPpo, ResumeWithAnotherPolicyConfigIsAnError) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.iterations = 1;
  config.workers = 1;
  config.programsPerIteration = 1;
  TrainOptions options = tinyTrainOptions(scratch / "run");
  Status status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;

  config.iterations = 2;
  config.policy.lstm = 8;
  options.resume = true;
  EXPECT_NO_THROW(status = trainPpo(config, options, nullptr));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("checkpoint.pt"), std::string::npos)
      << status.error().message;
}

} // namespace
