// `rlopt train` (and `rlopt passes train`) as a user runs it: a run killed
// with -9 continues with --resume and ends with every iteration logged
// exactly once; Ctrl-C saves a checkpoint and exits cleanly; bad invocations
// give exit code 2.
#include "CliRunTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace rlopt::tool::testing;

namespace {

/// The iteration numbers of metrics.jsonl, in file order.
std::vector<int> metricIterations(const fs::path &run) {
  std::vector<int> iterations;
  for (const nlohmann::json &json : readJsonLines(run / "metrics.jsonl"))
    iterations.push_back(json.value("iteration", -1));
  return iterations;
}

/// The run's training time after each metrics line.
std::vector<double> metricElapsedSeconds(const fs::path &run) {
  std::vector<double> elapsed;
  for (const nlohmann::json &json : readJsonLines(run / "metrics.jsonl"))
    elapsed.push_back(
        json.value(nlohmann::json::json_pointer("/time/elapsed_s"), -1.0));
  return elapsed;
}

/// How many episodes.jsonl lines each iteration has.
std::map<int, int> episodesPerIteration(const fs::path &run) {
  std::map<int, int> counts;
  int last = 0;
  for (const nlohmann::json &json : readJsonLines(run / "episodes.jsonl")) {
    int iteration = json.value("iteration", -1);
    EXPECT_GE(iteration, last) << "episodes out of order";
    last = iteration;
    ++counts[iteration];
  }
  return counts;
}

std::vector<int> range(int first, int last) {
  std::vector<int> values;
  for (int i = first; i <= last; ++i)
    values.push_back(i);
  return values;
}

class TrainCliTest : public ::testing::Test {
protected:
  void SetUp() override {
    writeFixtureSuite(suite, {{"matmul", "train"},
                              {"add", "train"},
                              {"chain", "train"},
                              {"mul", "validation"}});
  }
  std::string writeConfig(int iterations, int programs) {
    std::string path = (scratch / "config.json").string();
    writeFile(path,
              tinyTrainConfig(iterations, programs, scratch / "cache.sqlite")
                  .dump(2));
    return path;
  }

  /// Runs `rlopt ARGS`, kills it with -9 once its second iteration is
  /// logged (before the last of `iterations`), and leaves what a kill in the
  /// middle of saving leaves, whether or not this kill hit one: a temporary
  /// named after a process that is gone.
  void killAfterTwoIterations(const std::vector<std::string> &args,
                              size_t iterations) {
    {
      RloptProcess train(args, scratch.path());
      ASSERT_TRUE(train.waitForLines(run / "metrics.jsonl", 2, 120))
          << "no second metrics line; stderr:\n"
          << train.err();
      ASSERT_TRUE(train.running())
          << "finished before it could be killed; stderr:\n"
          << train.err();
      train.killGroup(SIGKILL);
      EXPECT_EQ(train.waitExit(30), 128 + SIGKILL);
    }
    size_t before = countLines(run / "metrics.jsonl");
    ASSERT_GE(before, 2u);
    ASSERT_LT(before, iterations);
    writeFile((run / "checkpoint.pt.tmp.999999999").string(), "partial");
  }

  ScratchDir scratch;
  fs::path suite = scratch / "suite";
  fs::path run = scratch / "run";
};

TEST_F(TrainCliTest, KilledRunResumesWithEveryIterationOnce) {
  std::string config = writeConfig(6, 2);
  std::vector<std::string> args = {"train",     "--config",     config,
                                   "--suite",   suite.string(), "--out",
                                   run.string()};
  ASSERT_NO_FATAL_FAILURE(killAfterTwoIterations(args, 6));

  args.push_back("--resume");
  RunResult resumed = runRlopt(args, scratch.path());
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  // It continued: iteration 1 was checkpointed before the kill, so it is not
  // trained again.
  EXPECT_EQ(resumed.err.find("iter 1/6"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.err.find("iter 6/6"), std::string::npos) << resumed.err;

  EXPECT_EQ(metricIterations(run), range(1, 6));
  std::map<int, int> episodes = episodesPerIteration(run);
  std::map<int, int> expected;
  for (int i = 1; i <= 6; ++i)
    expected[i] = 2;
  EXPECT_EQ(episodes, expected)
      << "each iteration's episodes appear once, killed iteration included";
  // The training time goes on from where the killed process left it.
  std::vector<double> elapsed = metricElapsedSeconds(run);
  ASSERT_EQ(elapsed.size(), 6u);
  EXPECT_GT(elapsed[0], 0);
  for (size_t i = 1; i < elapsed.size(); ++i)
    EXPECT_GT(elapsed[i], elapsed[i - 1]) << "iteration " << i + 1;
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
  EXPECT_GT(fs::file_size(run / "policy.pt"), 0u);
  EXPECT_TRUE(fs::is_regular_file(run / "checkpoint.pt"));
  // No temporary file is left over.
  for (const auto &entry : fs::directory_iterator(run))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos)
        << entry.path();
}

TEST_F(TrainCliTest, KilledDiscreteRunResumesWithEveryIterationOnce) {
  // The pass-ordering trainers share the Linalg run's guarantees: a run
  // killed with -9 continues from its last checkpoint.
  std::string config = (scratch / "ppo.json").string();
  writeFile(config, R"({"algorithm": "ppo", "steps_per_iteration": 16,
      "minibatch_size": 8, "epochs": 1, "iterations": 40,
      "network": {"hidden": [8]}})");
  std::vector<std::string> args = {
      "passes",           "train", "--config", config,
      "--episode-length", "4",     "--out",    run.string()};
  ASSERT_NO_FATAL_FAILURE(killAfterTwoIterations(args, 40));

  args.push_back("--resume");
  RunResult resumed = runRlopt(args, scratch.path());
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(metricIterations(run), range(1, 40));
  std::map<int, int> episodes = episodesPerIteration(run);
  ASSERT_EQ(episodes.size(), 40u) << "every iteration logs its episodes";
  for (auto [iteration, count] : episodes)
    EXPECT_EQ(count, 4) << "iteration " << iteration
                        << ": 16 steps of 4-step episodes, logged once";
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
  for (const auto &entry : fs::directory_iterator(run))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos)
        << entry.path();
}

TEST_F(TrainCliTest, CtrlCSavesACheckpointAndExitsCleanly) {
  std::string config = writeConfig(200, 2);
  std::vector<std::string> args = {"train",     "--config",     config,
                                   "--suite",   suite.string(), "--out",
                                   run.string()};
  RloptProcess train(args, scratch.path());
  ASSERT_TRUE(train.waitForLines(run / "metrics.jsonl", 1, 120))
      << "no metrics line; stderr:\n"
      << train.err();
  // A terminal's Ctrl-C reaches the whole process group, workers included.
  train.killGroup(SIGINT);
  int code = train.waitExit(120);
  std::string err = train.err();
  ASSERT_EQ(code, 0) << err;
  EXPECT_NE(err.find("checkpoint"), std::string::npos) << err;
  EXPECT_TRUE(fs::is_regular_file(run / "checkpoint.pt"));

  // It stopped early, after a whole iteration.
  std::vector<int> iterations = metricIterations(run);
  int done = iterations.size();
  ASSERT_GE(done, 1);
  ASSERT_LT(done, 200);
  EXPECT_EQ(iterations, range(1, done));

  // The checkpoint is of the last logged iteration: a resumed run with one
  // more iteration trains exactly that one.
  std::string next = std::to_string(done + 1);
  args.insert(args.end(), {"--resume", "--iterations", next});
  RunResult resumed = runRlopt(args, scratch.path());
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("iter " + next + "/" + next), std::string::npos)
      << resumed.err;
  EXPECT_EQ(resumed.err.find("iter " + std::to_string(done) + "/"),
            std::string::npos)
      << resumed.err;
  EXPECT_EQ(metricIterations(run), range(1, done + 1));
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
}

TEST_F(TrainCliTest, BadInvocationsAreUsageErrors) {
  std::string config = writeConfig(1, 1);
  std::string badConfig = (scratch / "bad.json").string();
  writeFile(badConfig, R"({"learning_rte": 0.001})");
  std::string noModel = (scratch / "no-model.json").string();
  writeFile(noModel, R"({"imitation_epochs": 1, "imitation_search_budget": 2,
                         "imitation_cost_model": "missing-model.json"})");
  fs::path testOnly = scratch / "test-only";
  writeFixtureSuite(testOnly, {{"add", "test"}});
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  std::vector<Case> cases = {
      {{"train", "--config", config, "--out", run.string()}, "--suite"},
      {{"train", "--config", config, "--suite", suite.string()}, "--out"},
      {{"train", "--config", badConfig, "--suite", suite.string(), "--out",
        run.string()},
       "learning_rte"},
      {{"train", "--config", noModel, "--suite", suite.string(), "--out",
        run.string()},
       "missing-model.json"},
      {{"train", "--config", (scratch / "none.json").string(), "--suite",
        suite.string(), "--out", run.string()},
       "none.json"},
      {{"train", "--config", config, "--suite", (scratch / "nosuite").string(),
        "--out", run.string()},
       "nosuite"},
      {{"train", "--config", config, "--suite", testOnly.string(), "--out",
        run.string()},
       "train split"},
      {{"train", "--config", config, "--suite", suite.string(), "--out",
        run.string(), "--workers", "0"},
       "--workers"},
      {{"train", "--config", config, "--suite",
        suite.string() + "," + suite.string(), "--out", run.string()},
       "given twice"},
      {{"train", "--config", config, "--suite", ",", "--out", run.string()},
       "--suite"},
      {{"train", "--config", config, "--suite",
        suite.string() + "," + testOnly.string(), "--out", run.string()},
       "test-only: no program in the train split"},
  };
  for (const Case &c : cases) {
    RunResult result = runRlopt(c.args, scratch.path());
    std::string command;
    for (const std::string &a : c.args)
      command += a + " ";
    EXPECT_EQ(result.exitCode, 2) << command << "\n" << result.err;
    EXPECT_NE(result.err.find(c.mention), std::string::npos)
        << command << ": '" << result.err << "' does not mention '" << c.mention
        << "'";
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1)
        << command << ": not one line: " << result.err;
  }
  EXPECT_FALSE(fs::exists(run / "metrics.jsonl"));
}

// A recipe can mix suites (a table's layers and random shapes): the run
// demonstrates and trains on the train splits of all of them.
TEST_F(TrainCliTest, SeveralSuitesTrainOnTheUnionOfTheirTrainSplits) {
  fs::path second = scratch / "second";
  writeFixtureSuite(second, {{"mul", "train"}, {"matmul", "test"}});
  nlohmann::json json = tinyTrainConfig(1, 1, scratch / "cache.sqlite");
  json["imitation_epochs"] = 1;
  std::string config = (scratch / "config.json").string();
  writeFile(config, json.dump(2));
  RunResult result =
      runRlopt({"train", "--config", config, "--suite",
                suite.string() + "," + second.string(), "--out", run.string()},
               scratch.path());
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.err.find("train: 4 training programs"), std::string::npos)
      << result.err;
  std::set<std::string> demonstrated;
  for (const nlohmann::json &line : readJsonLines(run / "demonstrations.jsonl"))
    demonstrated.insert(line.value("program", ""));
  std::set<std::string> expected = {
      (suite / "matmul.mlir").string(), (suite / "add.mlir").string(),
      (suite / "chain.mlir").string(), (second / "mul.mlir").string()};
  EXPECT_EQ(demonstrated, expected);
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
}

// With 0 iterations the run is the cloned policy: no PPO iteration is
// logged, and policy.pt is written.
TEST_F(TrainCliTest, ZeroIterationsKeepTheClonedPolicy) {
  nlohmann::json json = tinyTrainConfig(0, 1, scratch / "cache.sqlite");
  json["imitation_epochs"] = 1;
  std::string config = (scratch / "config.json").string();
  writeFile(config, json.dump(2));
  RunResult result = runRlopt({"train", "--config", config, "--suite",
                               suite.string(), "--out", run.string()},
                              scratch.path());
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.err.find("imitation: 3 heuristic schedules"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("iter "), std::string::npos) << result.err;
  EXPECT_EQ(metricIterations(run), std::vector<int>{});
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
  EXPECT_GT(fs::file_size(run / "policy.pt"), 0u);
}

// Resuming with other network sizes than the checkpoint's is one line.
TEST_F(TrainCliTest, ResumeWithAnotherPolicyConfigIsAnError) {
  std::string config = writeConfig(1, 1);
  std::vector<std::string> args = {"train",     "--config",     config,
                                   "--suite",   suite.string(), "--out",
                                   run.string()};
  RunResult first = runRlopt(args, scratch.path());
  ASSERT_EQ(first.exitCode, 0) << first.err;

  nlohmann::json changed = tinyTrainConfig(2, 1, scratch / "cache.sqlite");
  changed["policy"]["lstm"] = 8;
  std::string other = (scratch / "other.json").string();
  writeFile(other, changed.dump(2));
  RunResult resumed =
      runRlopt({"train", "--config", other, "--suite", suite.string(), "--out",
                run.string(), "--resume"},
               scratch.path());
  EXPECT_TRUE(resumed.exitCode == 1 || resumed.exitCode == 2)
      << "exit " << resumed.exitCode << "\n"
      << resumed.err;
  EXPECT_NE(resumed.err.find("checkpoint.pt"), std::string::npos)
      << resumed.err;
  EXPECT_EQ(std::count(resumed.err.begin(), resumed.err.end(), '\n'), 2)
      << "the 'train: ...' banner and one error line: " << resumed.err;
  // The run is left as it was.
  EXPECT_EQ(metricIterations(run), range(1, 1));
}

} // namespace
