// The cost model's whole loop from the command line: `optimize --budget`
// without a model fills a cache, `costmodel train` learns from it,
// `costmodel eval` reports its ranking quality, and the search uses it;
// every wrong input is one line and exit 2.
#include "CliRunTestUtil.h"

#include "rlopt/linalg/Schedule.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rlopt::tool::testing;

namespace {

void expectOneLineUsageError(const RunResult &run, const std::string &what) {
  EXPECT_EQ(run.exitCode, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(what), std::string::npos) << run.err;
}

/// `optimize --budget N --json` succeeded with a correct schedule.
void expectCorrectSearch(const RunResult &search, int budget) {
  ASSERT_EQ(search.exitCode, 0) << search.err;
  auto json = nlohmann::json::parse(search.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << search.out;
  EXPECT_TRUE(json["correct"].get<bool>());
  EXPECT_EQ(json["budget"], budget);
  EXPECT_TRUE(
      rlopt::linalg::parseSchedule(json["schedule"].get<std::string>()).ok());
}

TEST(CostModelCli, SearchWithAPolicyMeasuresItsProposals) {
  ScratchDir scratch;
  std::string db = (scratch / "cache.sqlite").string();
  RunResult search = runRlopt(
      {"optimize", fixturePath("matmul"), "--budget", "3", "--cost-model",
       "none", "--policy",
       std::string(RLOPT_TEST_DATA) + "/../../data/policies/default.pt", "--db",
       db, "--json"},
      scratch.path());
  expectCorrectSearch(search, 3);
}

TEST(CostModelCli, SearchFillsTheCacheTheModelLearnsFromIt) {
  ScratchDir scratch;
  std::string db = (scratch / "cache.sqlite").string();
  std::string model = (scratch / "model.json").string();
  for (const char *fixture : {"matmul", "add"}) {
    RunResult search =
        runRlopt({"optimize", fixturePath(fixture), "--budget", "3",
                  "--cost-model", "none", "--db", db, "--json"},
                 scratch.path());
    expectCorrectSearch(search, 3);
  }

  RunResult train = runRlopt({"costmodel", "train", "--db", db, "--out", model,
                              "--rounds", "20", "--folds", "2"},
                             scratch.path());
  ASSERT_EQ(train.exitCode, 0) << train.err;
  EXPECT_NE(train.out.find("schedules of 2 programs"), std::string::npos)
      << train.out;
  EXPECT_NE(train.out.find("2-fold cross-validation"), std::string::npos)
      << train.out;
  ASSERT_TRUE(fs::exists(model));

  RunResult eval =
      runRlopt({"costmodel", "eval", "--db", db, "--model", model, "--json"},
               scratch.path());
  ASSERT_EQ(eval.exitCode, 0) << eval.err;
  auto quality = nlohmann::json::parse(eval.out, nullptr, false);
  ASSERT_FALSE(quality.is_discarded()) << eval.out;
  EXPECT_EQ(quality["programs"], 2);
  EXPECT_GE(quality["kendall_tau"].get<double>(), -1.0);
  EXPECT_GE(quality["top1_regret"].get<double>(),
            quality["top5_regret"].get<double>());

  RunResult guided =
      runRlopt({"optimize", fixturePath("matmul"), "--budget", "2",
                "--cost-model", model, "--db", db, "--json"},
               scratch.path());
  ASSERT_EQ(guided.exitCode, 0) << guided.err;
}

TEST(CostModelCli, EvalRunsSearchPerBenchmark) {
  ScratchDir scratch;
  writeFixtureSuite(scratch / "suite", {{"add", "test"}, {"matmul", "test"}});
  std::string out = (scratch / "out").string();
  RunResult eval =
      runRlopt({"eval", "--suite", (scratch / "suite").string(), "--agent",
                "search:2", "--cost-model", "none", "--db",
                (scratch / "cache.sqlite").string(), "--out", out},
               scratch.path());
  ASSERT_EQ(eval.exitCode, 0) << eval.err;
  auto results = nlohmann::json::parse(readFile(fs::path(out) / "results.json"),
                                       nullptr, false);
  ASSERT_FALSE(results.is_discarded());
  EXPECT_EQ(results["agent"], "search:2");
  ASSERT_EQ(results["results"].size(), 2u);
  for (const nlohmann::json &r : results["results"]) {
    EXPECT_TRUE(r["correct"].get<bool>()) << r.dump();
    // A 64^3 matmul gains far more than noise; a small add may not.
    EXPECT_GT(r["speedup"].get<double>(), r["name"] == "matmul" ? 2.0 : 0.0)
        << r.dump();
    EXPECT_TRUE(
        rlopt::linalg::parseSchedule(r["schedule"].get<std::string>()).ok());
  }
}

TEST(CostModelCli, WrongInputsAreOneLineUsageErrors) {
  ScratchDir scratch;
  std::string empty = (scratch / "empty.sqlite").string();
  std::string model = (scratch / "model.json").string();
  expectOneLineUsageError(
      runRlopt({"costmodel", "train", "--db", empty, "--out", model},
               scratch.path()),
      "no schedule of this machine");
  EXPECT_FALSE(fs::exists(model));
  expectOneLineUsageError(runRlopt({"costmodel", "train", "--db", empty,
                                    "--out", model, "--folds", "1"},
                                   scratch.path()),
                          "--folds");
  expectOneLineUsageError(runRlopt({"costmodel", "train", "--db", empty,
                                    "--out", model, "--objective", "guess"},
                                   scratch.path()),
                          "guess");
  expectOneLineUsageError(
      runRlopt({"costmodel", "train", "--out", model}, scratch.path()), "--db");
  std::string missing = (scratch / "missing.json").string();
  expectOneLineUsageError(
      runRlopt({"costmodel", "eval", "--db", empty, "--model", missing},
               scratch.path()),
      missing);
  expectOneLineUsageError(runRlopt({"optimize", fixturePath("add"), "--budget",
                                    "2", "--cost-model", missing},
                                   scratch.path()),
                          missing);
  expectOneLineUsageError(runRlopt({"optimize", fixturePath("add"), "--budget",
                                    "2", "--search", "3"},
                                   scratch.path()),
                          "--budget");
  expectOneLineUsageError(runRlopt({"optimize", fixturePath("add"), "--budget",
                                    "2", "--policy", "missing.pt"},
                                   scratch.path()),
                          "missing.pt");
  expectOneLineUsageError(
      runRlopt({"optimize", fixturePath("add"), "--cost-model", "none"},
               scratch.path()),
      "--cost-model needs --budget");
  expectOneLineUsageError(
      runRlopt({"eval", "--suite", scratch.path().string(), "--agent",
                "heuristic", "--out", (scratch / "out").string(),
                "--cost-model", "none"},
               scratch.path()),
      "--cost-model needs --agent search:N");
}

} // namespace
