// `rlopt report` as a user runs it: one line and exit code 2 for every bad
// input, nothing written on failure, the page written atomically on success.
#include "ToolTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rlopt::tool::testing;

namespace {

const char *kResults = R"({
  "suite": "suites/ops", "split": "test", "agent": "heuristic", "threads": 1,
  "seed": 0, "peak_gflops_1thread": 100.0, "rlopt_version": "0.1.0",
  "date": 1763780000,
  "results": [
    {"name": "matmul_0", "class": "matmul", "split": "test", "flops": 1e9,
     "bytes": 1e7, "schedule": "op0: vectorize", "error": "",
     "baseline_ms": 10, "candidate_ms": 5, "baseline_spread": 0.01,
     "candidate_spread": 0.01, "speedup": 2.0, "correct": true,
     "cached": false, "gflops": 200, "percent_peak": 20, "gbps": 2},
    {"name": "add_1", "class": "add", "split": "test", "flops": 1e6,
     "bytes": 1e7, "schedule": "", "error": "lowering failed",
     "baseline_ms": 1, "candidate_ms": 0, "baseline_spread": 0.01,
     "candidate_spread": 0, "speedup": 0, "correct": false,
     "cached": false, "gflops": 0, "percent_peak": 0, "gbps": 0}
  ]
})";

const char *kMetrics =
    R"({"iteration": 1, "episodes": 64, "failures": 0, "steps": 500, "mean_reward": -0.2, "geomean_speedup": 0.9, "entropy": 3.0, "policy_loss": -0.01, "value_loss": 0.4, "approx_kl": 0.01, "clip_fraction": 0.1, "time": {"elapsed_s": 60}})"
    "\n"
    R"({"iteration": 2, "episodes": 64, "failures": 1, "steps": 500, "mean_reward": -0.1, "geomean_speedup": 1.1, "entropy": 2.9, "policy_loss": -0.02, "value_loss": 0.3, "approx_kl": 0.01, "clip_fraction": 0.1, "time": {"elapsed_s": 120}, "validation_geomean_speedup": 1.05})"
    "\n";

class ReportCliTest : public ::testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(scratch / "eval");
    writeFile(scratch / "eval" / "results.json", kResults);
    fs::create_directories(scratch / "run");
    writeFile(scratch / "run" / "metrics.jsonl", kMetrics);
    fs::create_directories(scratch / "empty");
    output = (scratch / "report.html").string();
  }

  /// Runs `rlopt report args...` and checks it failed with one line naming
  /// `expected`, exit code 2, and wrote nothing.
  void expectUsageError(const std::vector<std::string> &args,
                        const std::string &expected) {
    std::vector<std::string> all = {"report"};
    all.insert(all.end(), args.begin(), args.end());
    RunResult run = runRlopt(all, scratch.path());
    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err.rfind("rlopt: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_FALSE(fs::exists(output));
    for (const std::string &name : scratch.entries())
      EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
  }

  ScratchDir scratch;
  std::string output;
};

TEST_F(ReportCliTest, WritesTheReport) {
  RunResult run = runRlopt({"report", (scratch / "eval").string(),
                            (scratch / "run").string(), "-o", output, "--title",
                            "CLI test"},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("report: " + output), std::string::npos) << run.out;
  std::string html = readFile(output);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>CLI test</h1>"), std::string::npos);
  EXPECT_NE(html.find("lowering failed"), std::string::npos);
  EXPECT_GE(std::count(html.begin(), html.end(), '\n'), 10);
  size_t charts = 0;
  for (size_t at = 0; (at = html.find("<svg", at)) != std::string::npos; ++at)
    ++charts;
  EXPECT_GE(charts, 10u);

  // A second run replaces the page and leaves no temporary file.
  writeFile(output, "old");
  run = runRlopt({"report", (scratch / "eval").string(), "--output=" + output},
                 scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(readFile(output), "old");
  for (const std::string &name : scratch.entries())
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
}

TEST_F(ReportCliTest, ADirectoryWithBothFilesIsBoth) {
  writeFile(scratch / "eval" / "metrics.jsonl", kMetrics);
  RunResult run = runRlopt(
      {"report", (scratch / "eval").string(), "-o", output}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("1 evaluation(s), 1 training run(s)"),
            std::string::npos)
      << run.out;
}

TEST_F(ReportCliTest, NoDirectory) {
  expectUsageError({"-o", output}, "expected one or more directories");
}

TEST_F(ReportCliTest, MissingOutput) {
  expectUsageError({(scratch / "eval").string()}, "-o OUT.html is required");
}

TEST_F(ReportCliTest, UnknownOption) {
  expectUsageError({(scratch / "eval").string(), "-o", output, "--colour"},
                   "unknown option --colour");
}

TEST_F(ReportCliTest, MissingDirectory) {
  std::string missing = (scratch / "nope").string();
  expectUsageError({missing, "-o", output}, missing + ": no such directory");
}

TEST_F(ReportCliTest, NotADirectory) {
  std::string file = (scratch / "eval" / "results.json").string();
  expectUsageError({file, "-o", output}, file + ": not a directory");
}

TEST_F(ReportCliTest, DirectoryWithNeitherFile) {
  std::string empty = (scratch / "empty").string();
  expectUsageError({(scratch / "eval").string(), empty, "-o", output},
                   empty + ": holds neither results.json");
}

TEST_F(ReportCliTest, GarbledResults) {
  writeFile(scratch / "eval" / "results.json", "{\"results\": [1, 2");
  expectUsageError({(scratch / "eval").string(), "-o", output},
                   "eval/results.json: not valid JSON (parse error at line 1");
}

TEST_F(ReportCliTest, ResultsWithoutTheResultsArray) {
  writeFile(scratch / "eval" / "results.json", "{\"agent\": \"naive\"}");
  expectUsageError({(scratch / "eval").string(), "-o", output},
                   "results.json: expected an object with a \"results\" "
                   "array");
}

TEST_F(ReportCliTest, ResultWithAWrongField) {
  std::string text = kResults;
  text.replace(text.find("\"speedup\": 2.0"), 14, "\"speedup\": \"2\"");
  writeFile(scratch / "eval" / "results.json", text);
  expectUsageError({(scratch / "eval").string(), "-o", output},
                   "results.json: results[0]: \"speedup\" must be a number");
}

TEST_F(ReportCliTest, GarbledTrainingLog) {
  std::string text = kMetrics;
  writeFile(scratch / "run" / "metrics.jsonl",
            text.substr(0, text.find('\n') + 1) + "{oops\n" +
                text.substr(text.find('\n') + 1));
  expectUsageError({(scratch / "run").string(), "-o", output},
                   "run/metrics.jsonl:2: not valid JSON");
}

TEST_F(ReportCliTest, UnwritableOutput) {
  output = (scratch / "no-such-dir" / "report.html").string();
  expectUsageError({(scratch / "eval").string(), "-o", output},
                   output + ": cannot write");
}

TEST_F(ReportCliTest, GnuplotMissing) {
  // An empty PATH: rlopt is started by its full path, gnuplot is not found.
  fs::create_directories(scratch / "bin");
  RunResult run =
      runCommand("/usr/bin/env",
                 {"PATH=" + (scratch / "bin").string(), RLOPT_BINARY, "report",
                  (scratch / "eval").string(), "-o", output},
                 scratch.path());
  EXPECT_EQ(run.exitCode, 2) << run.err;
  EXPECT_NE(run.err.find("gnuplot not found"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("scripts/bootstrap"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(output));
}

} // namespace

// Every trainer writes the same run directory, so a pass-ordering run is
// drawn like a Linalg one.
TEST_F(ReportCliTest, DrawsADiscreteTrainersRun) {
  std::string config = (scratch / "ppo.json").string();
  writeFile(config, R"({"algorithm": "ppo", "steps_per_iteration": 8,
      "minibatch_size": 8, "epochs": 1, "iterations": 2,
      "network": {"hidden": [8]}})");
  std::string trainRun = (scratch / "passes-run").string();
  RunResult trained = runRlopt({"passes", "train", "--config", config,
                                "--episode-length", "4", "--out", trainRun},
                               scratch.path());
  ASSERT_EQ(trained.exitCode, 0) << trained.err;
  RunResult run = runRlopt({"report", trainRun, "-o", output}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("0 evaluation(s), 1 training run(s)"),
            std::string::npos)
      << run.out;
  std::string html = readFile(output);
  EXPECT_NE(html.find("<svg"), std::string::npos);
}
