// `mpirun -np 3 rlopt train` as a cluster runs it (oversubscribed on this
// machine): one learner and two rollout ranks train, checkpoint and resume
// into the same run directory a single process writes; a rank that hangs
// stops the run with a checkpoint instead of stalling it.
#include "CliRunTestUtil.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

using namespace rlopt::tool::testing;

namespace {

const std::vector<std::string> kMpirun = {"/usr/bin/mpirun", "--oversubscribe",
                                          "-np", "3"};

std::vector<int> metricIterations(const fs::path &run) {
  std::vector<int> iterations;
  for (const nlohmann::json &json : readJsonLines(run / "metrics.jsonl"))
    iterations.push_back(json.value("iteration", -1));
  return iterations;
}

std::map<int, int> episodesPerIteration(const fs::path &run) {
  std::map<int, int> counts;
  for (const nlohmann::json &json : readJsonLines(run / "episodes.jsonl"))
    ++counts[json.value("iteration", -1)];
  return counts;
}

size_t occurrences(const std::string &text, const std::string &word) {
  size_t n = 0;
  for (size_t at = text.find(word); at != std::string::npos;
       at = text.find(word, at + 1))
    ++n;
  return n;
}

/// The pid of the MPI rank `rank` among the children of `launcher`.
pid_t rankProcess(pid_t launcher, int rank) {
  std::string wanted = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const auto &entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::string stat = readFile(entry.path() / "stat");
    size_t close = stat.rfind(')');
    if (close == std::string::npos)
      continue;
    std::istringstream fields(stat.substr(close + 2));
    char state;
    pid_t parent = 0;
    fields >> state >> parent;
    if (parent != launcher)
      continue;
    std::string environ = readFile(entry.path() / "environ");
    for (size_t begin = 0; begin < environ.size();) {
      size_t end = environ.find('\0', begin);
      if (environ.compare(begin, end - begin, wanted) == 0)
        return std::stoi(name);
      begin = end == std::string::npos ? environ.size() : end + 1;
    }
  }
  return -1;
}

class MpiTrainCliTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Open MPI refuses root unless told; CI machines run tests as root.
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    writeFixtureSuite(suite, {{"matmul", "train"},
                              {"add", "train"},
                              {"chain", "train"},
                              {"mul", "validation"}});
  }
  std::vector<std::string> trainArgs(nlohmann::json config) {
    std::string path = (scratch / "config.json").string();
    writeFile(path, config.dump(2));
    return {"train",        "--config", path,        "--suite",
            suite.string(), "--out",    run.string()};
  }
  RunResult mpirun(const std::vector<std::string> &args) {
    std::vector<std::string> all(kMpirun.begin() + 1, kMpirun.end());
    all.push_back(RLOPT_BINARY);
    all.insert(all.end(), args.begin(), args.end());
    return runCommand(kMpirun[0], all, scratch.path());
  }

  ScratchDir scratch;
  fs::path suite = scratch / "suite";
  fs::path run = scratch / "run";
};

TEST_F(MpiTrainCliTest, ThreeRanksTrainCheckpointAndResume) {
  std::vector<std::string> args =
      trainArgs(tinyTrainConfig(2, 4, scratch / "cache.sqlite"));
  RunResult first = mpirun(args);
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_NE(first.err.find("on each of 2 rollout ranks"), std::string::npos)
      << first.err;
  EXPECT_EQ(occurrences(first.err, "iter 2/2"), 1u)
      << "only the learner reports:\n"
      << first.err;
  EXPECT_EQ(metricIterations(run), (std::vector<int>{1, 2}));
  EXPECT_EQ(episodesPerIteration(run), (std::map<int, int>{{1, 4}, {2, 4}}))
      << "every episode of the two rollout ranks reached the learner";
  for (const nlohmann::json &m : readJsonLines(run / "metrics.jsonl")) {
    EXPECT_EQ(m.value("failures", -1), 0) << m.dump();
    EXPECT_GT(m.value("geomean_speedup", 0.0), 0) << m.dump();
  }
  EXPECT_TRUE(fs::is_regular_file(run / "checkpoint.pt"));
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));

  args.insert(args.end(), {"--iterations", "4", "--resume"});
  RunResult resumed = mpirun(args);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(resumed.err.find("iter 2/4"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.err.find("iter 4/4"), std::string::npos) << resumed.err;
  EXPECT_EQ(metricIterations(run), (std::vector<int>{1, 2, 3, 4}));

  // The same run directory as one process writes: the report draws it.
  RunResult report = runRlopt(
      {"report", run.string(), "-o", (scratch / "report.html").string()},
      scratch.path());
  EXPECT_EQ(report.exitCode, 0) << report.err;
}

TEST_F(MpiTrainCliTest, ARankThatHangsStopsTheRunWithACheckpoint) {
  nlohmann::json config = tinyTrainConfig(200, 4, scratch / "cache.sqlite");
  config["rank_timeout_seconds"] = 3;
  config["checkpoint_every"] = 100;
  std::vector<std::string> args = trainArgs(config);
  size_t before = 0;
  {
    RloptProcess train(args, scratch.path(), kMpirun);
    ASSERT_TRUE(train.waitForLines(run / "metrics.jsonl", 2, 120))
        << train.err();
    pid_t rank2 = rankProcess(train.processId(), 2);
    ASSERT_GT(rank2, 0) << "rank 2 not found among mpirun's children";
    ::kill(rank2, SIGSTOP);
    int code = train.waitExit(90);
    ASSERT_NE(code, -1) << "the run hung on a stopped rank:\n" << train.err();
    EXPECT_NE(code, 0);
    // Stopped while idle, it takes no work; while rolling out, it sends no
    // episodes.
    std::string err = train.err();
    bool named =
        err.find("rollout rank 2 took nothing in 3 s") != std::string::npos ||
        err.find("rollout rank 2 sent nothing in 3 s") != std::string::npos;
    EXPECT_TRUE(named) << err;
    EXPECT_NE(err.find("; checkpoint of iteration"), std::string::npos) << err;
    before = countLines(run / "metrics.jsonl");
  }
  ASSERT_GE(before, 2u);

  // The checkpoint, not the last due one (every 100), is where it resumes.
  args.insert(args.end(),
              {"--iterations", std::to_string(before + 1), "--resume"});
  RunResult resumed = mpirun(args);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  std::vector<int> expected;
  for (int i = 1; i <= static_cast<int>(before) + 1; ++i)
    expected.push_back(i);
  EXPECT_EQ(metricIterations(run), expected);
}

TEST_F(MpiTrainCliTest, PassOrderingPpoTrainsOnThreeRanks) {
  std::string config = (scratch / "ppo.json").string();
  writeFile(config, R"({"algorithm": "ppo", "steps_per_iteration": 32,
                        "minibatch_size": 16, "iterations": 2})");
  RunResult trained =
      mpirun({"passes", "train", "--agent", "ppo", "--config", config, "--out",
              run.string(), "--episode-length", "4"});
  ASSERT_EQ(trained.exitCode, 0) << trained.err;
  EXPECT_NE(trained.err.find("; 2 rollout ranks"), std::string::npos)
      << trained.err;
  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 2u);
  std::map<int, int> episodes = episodesPerIteration(run);
  for (const nlohmann::json &m : metrics) {
    // Each rank fills its share, 16 steps, with whole 4-step episodes.
    EXPECT_EQ(m.value("steps", 0), 32) << m.dump();
    EXPECT_EQ(m.value("episodes", 0), 8) << m.dump();
    EXPECT_EQ(episodes[m.value("iteration", 0)], 8);
  }
  EXPECT_TRUE(fs::is_regular_file(run / "policy.pt"));
}

TEST_F(MpiTrainCliTest, OnlyPpoTrainsOnSeveralRanks) {
  RunResult refused = mpirun({"graph", "train", "--agent", "dqn", "--out",
                              run.string(), "--iterations", "1"});
  EXPECT_NE(refused.exitCode, 0);
  EXPECT_NE(refused.err.find("under mpirun only ppo trains on several "
                             "ranks; dqn trains in one process"),
            std::string::npos)
      << refused.err;
}

} // namespace
