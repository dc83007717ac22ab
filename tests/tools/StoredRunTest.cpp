// Run directories written by an earlier version of rlopt (0.1.0, kept in
// tests/data/runs: a Linalg PPO run and a pass-ordering PPO run) still
// work: training resumes from them, the report draws them, and their
// policies act. A change to the run format that
// breaks old runs fails here, and should instead say how to convert them.
#include "CliRunTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt::tool::testing;

namespace {

/// tests/data/runs/NAME copied to `dir`, so that the test can extend it.
fs::path copyStoredRun(const std::string &name, const fs::path &dir) {
  fs::path stored = fs::path(RLOPT_TEST_DATA) / "runs" / name;
  fs::copy(stored, dir, fs::copy_options::recursive);
  return dir;
}

/// `rlopt args...` run in `dir`: the stored run names its suite and cache
/// relative to the directory it was trained in.
RunResult runRloptIn(const fs::path &dir,
                     const std::vector<std::string> &args) {
  std::string command = "cd '" + dir.string() + "' && exec '" RLOPT_BINARY "'";
  for (const std::string &arg : args)
    command += " '" + arg + "'";
  return runCommand("/bin/sh", {"-c", command}, dir);
}

TEST(StoredRun, LinalgPpoRunResumesReportsAndSchedules) {
  ScratchDir scratch;
  // The run trained one iteration on these two programs, as
  // `rlopt train --suite suite --out run` in a directory holding them.
  writeFixtureSuite(scratch / "suite", {{"add", "train"}, {"matmul", "train"}});
  fs::path run = copyStoredRun("linalg-ppo", scratch / "run");
  ASSERT_EQ(countLines(run / "metrics.jsonl"), 1u);
  writeFile(scratch / "tiny.json",
            tinyTrainConfig(2, 2, "cache.sqlite").dump(2));

  RunResult resumed =
      runRloptIn(scratch.path(), {"train", "--config", "tiny.json", "--suite",
                                  "suite", "--out", "run", "--resume"});
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(resumed.err.find("iter 1/2"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.err.find("iter 2/2"), std::string::npos) << resumed.err;
  EXPECT_EQ(countLines(run / "metrics.jsonl"), 2u);

  RunResult report =
      runRloptIn(scratch.path(), {"report", "run", "-o", "report.html"});
  ASSERT_EQ(report.exitCode, 0) << report.err;
  EXPECT_TRUE(fs::exists(scratch / "report.html"));

  RunResult optimized = runRloptIn(
      scratch.path(), {"optimize", fixturePath("add"), "--policy",
                       "run/policy.pt", "--db", "cache.sqlite", "--json"});
  ASSERT_EQ(optimized.exitCode, 0) << optimized.err;
  auto json = nlohmann::json::parse(optimized.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << optimized.out;
  EXPECT_TRUE(json["correct"].get<bool>()) << optimized.out;
}

TEST(StoredRun, PassesPpoRunResumesReportsAndEvaluates) {
  ScratchDir scratch;
  fs::path run = copyStoredRun("passes-ppo", scratch / "run");
  ASSERT_EQ(countLines(run / "metrics.jsonl"), 1u);
  writeFile(scratch / "ppo.json",
            R"({"algorithm": "ppo", "steps_per_iteration": 8,
                "minibatch_size": 8, "epochs": 1, "iterations": 2,
                "network": {"hidden": [8]}})");

  RunResult resumed = runRloptIn(
      scratch.path(), {"passes", "train", "--config", "ppo.json",
                       "--episode-length", "4", "--out", "run", "--resume"});
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(countLines(run / "metrics.jsonl"), 2u);

  RunResult report =
      runRloptIn(scratch.path(), {"report", "run", "-o", "report.html"});
  ASSERT_EQ(report.exitCode, 0) << report.err;
  EXPECT_TRUE(fs::exists(scratch / "report.html"));

  RunResult evaluated =
      runRloptIn(scratch.path(),
                 {"passes", "eval", "benchmark://rlopt-v0/crc32", "--agent",
                  "policy:run/policy.pt", "--out", "eval", "--no-validate"});
  ASSERT_EQ(evaluated.exitCode, 0) << evaluated.err;
  EXPECT_TRUE(fs::exists(scratch / "eval" / "passes-eval.json"));
}

} // namespace
