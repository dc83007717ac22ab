// `rlopt eval` on a three-program suite: results.json and results.csv with a
// row per benchmark, the summary table, the random agent, and usage errors.
#include "CliRunTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

using namespace rlopt::tool::testing;

namespace {

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

std::vector<std::string> splitCsv(const std::string &line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ','))
    cells.push_back(cell);
  return cells;
}

class EvalCliTest : public ::testing::Test {
protected:
  void SetUp() override {
    writeFixtureSuite(
        suite,
        {{"matmul", "train"}, {"add", "validation"}, {"chain", "train"}});
  }

  /// With a one-repetition timing protocol, to keep the test fast.
  RunResult eval(std::vector<std::string> args) {
    std::string config = (scratch / "env.json").string();
    if (!fs::exists(config))
      writeFile(config, R"({"repetitions": 1, "max_rounds": 1})");
    args.insert(args.begin(), "eval");
    args.insert(args.end(),
                {"--db", (scratch / "m.sqlite").string(), "--config", config});
    return runRlopt(args, scratch.path());
  }

  /// results.json and results.csv of `dir` hold one correct row per suite
  /// benchmark.
  void expectResults(const fs::path &dir) {
    ASSERT_TRUE(fs::is_regular_file(dir / "results.json"));
    ASSERT_TRUE(fs::is_regular_file(dir / "results.csv"));
    auto json =
        nlohmann::json::parse(readFile(dir / "results.json"), nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << readFile(dir / "results.json");
    // The rows: an array, either the file itself or under a key.
    nlohmann::json rows = json;
    if (json.is_object())
      for (const char *key : {"results", "benchmarks", "rows"})
        if (json.contains(key))
          rows = json[key];
    ASSERT_TRUE(rows.is_array()) << json.dump(2);
    ASSERT_EQ(rows.size(), 3u) << json.dump(2);
    std::set<std::string> names;
    for (const nlohmann::json &row : rows) {
      SCOPED_TRACE(row.dump());
      for (const char *key :
           {"baseline_ms", "candidate_ms", "speedup", "correct"})
        ASSERT_TRUE(row.contains(key)) << key;
      names.insert(row.value("name", ""));
      EXPECT_EQ(row["correct"], true);
      EXPECT_GT(row["baseline_ms"].get<double>(), 0);
      EXPECT_GT(row["candidate_ms"].get<double>(), 0);
      EXPECT_GT(row["speedup"].get<double>(), 0);
      EXPECT_NEAR(row["speedup"].get<double>(),
                  row["baseline_ms"].get<double>() /
                      row["candidate_ms"].get<double>(),
                  1e-6 * row["speedup"].get<double>());
    }
    EXPECT_EQ(names, (std::set<std::string>{"matmul", "add", "chain"}));
    // Memory-bound rows are put against this machine's bandwidth.
    EXPECT_GT(json.value(
                  nlohmann::json::json_pointer("/bandwidth_gbps_1thread"), 0.0),
              0)
        << json.dump(2);
    for (const nlohmann::json &row : rows)
      if (row.value("class", "") == "add")
        EXPECT_GT(row.value("percent_bandwidth", 0.0), 0) << row.dump();

    std::vector<std::string> csv = splitLines(readFile(dir / "results.csv"));
    ASSERT_EQ(csv.size(), 4u) << "a header and three rows:\n"
                              << readFile(dir / "results.csv");
    std::vector<std::string> header = splitCsv(csv[0]);
    for (const char *key :
         {"name", "baseline_ms", "candidate_ms", "speedup", "correct"})
      EXPECT_NE(std::find(header.begin(), header.end(), key), header.end())
          << key << " missing in the CSV header " << csv[0];
  }

  ScratchDir scratch;
  fs::path suite = scratch / "suite";
};

/// The summary table has a line for all benchmarks.
bool hasAllLine(const std::string &out) {
  for (const std::string &line : splitLines(out)) {
    size_t start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, 3, "all") == 0 &&
        (line.size() == start + 3 || line[start + 3] == ' '))
      return true;
  }
  return false;
}

TEST_F(EvalCliTest, HeuristicWritesResultsAndASummary) {
  fs::path out = scratch / "heuristic";
  RunResult run = eval({"--suite", suite.string(), "--agent", "heuristic",
                        "--out", out.string()});
  ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
  expectResults(out);
  EXPECT_TRUE(hasAllLine(run.out)) << run.out;
  EXPECT_NE(run.out.find("results.json"), std::string::npos) << run.out;

  // --split keeps only that split's programs.
  fs::path train = scratch / "train";
  run = eval({"--suite", suite.string(), "--split", "train", "--agent", "naive",
              "--out", train.string()});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(splitLines(readFile(train / "results.csv")).size(), 3u)
      << readFile(train / "results.csv");
}

TEST_F(EvalCliTest, RandomAgentWorks) {
  fs::path out = scratch / "random";
  RunResult run = eval({"--suite", suite.string(), "--agent", "random:2",
                        "--out", out.string()});
  ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
  expectResults(out);
  EXPECT_TRUE(hasAllLine(run.out)) << run.out;
  auto json = nlohmann::json::parse(readFile(out / "results.json"));
  EXPECT_NE(json.dump().find("random:2"), std::string::npos)
      << "the agent is recorded";
}

TEST_F(EvalCliTest, BadInvocationsAreUsageErrors) {
  fs::path testless = scratch / "testless";
  writeFixtureSuite(testless, {{"add", "train"}, {"mul", "validation"}});
  fs::path out = scratch / "out";
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  std::vector<Case> cases = {
      {{"--suite", suite.string(), "--agent", "foo", "--out", out.string()},
       "foo"},
      {{"--suite", suite.string(), "--agent", "random:0", "--out",
        out.string()},
       "random"},
      {{"--agent", "heuristic", "--out", out.string()}, "--suite"},
      {{"--suite", suite.string(), "--out", out.string()}, "--agent"},
      {{"--suite", suite.string(), "--agent", "heuristic"}, "--out"},
      {{"--suite", testless.string(), "--split", "test", "--agent", "heuristic",
        "--out", out.string()},
       "test"},
      {{"--suite", suite.string(), "--split", "dev", "--agent", "heuristic",
        "--out", out.string()},
       "dev"},
      {{"--suite", (scratch / "nosuite").string(), "--agent", "heuristic",
        "--out", out.string()},
       "nosuite"},
  };
  for (const Case &c : cases) {
    RunResult run = eval(c.args);
    std::string command = "eval";
    for (const std::string &a : c.args)
      command += " " + a;
    EXPECT_EQ(run.exitCode, 2) << command << "\n" << run.err;
    EXPECT_NE(run.err.find(c.mention), std::string::npos)
        << command << ": '" << run.err << "' does not mention '" << c.mention
        << "'";
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1)
        << command << ": not one line: " << run.err;
  }
  EXPECT_FALSE(fs::exists(out)) << "a failed eval writes no results";
}

/// A policy is evaluated with the action settings it was trained with (here
/// enumerated interchange), read from the run config beside it.
TEST_F(EvalCliTest, PolicyRunsWithTheActionsItWasTrainedWith) {
  nlohmann::json config = tinyTrainConfig(1, 1, scratch / "train.sqlite");
  config["env"]["interchange"] = "enumerated";
  writeFile(scratch / "enumerated.json", config.dump(2));
  fs::path run = scratch / "run";
  RunResult train =
      runRlopt({"train", "--config", (scratch / "enumerated.json").string(),
                "--suite", suite.string(), "--out", run.string()},
               scratch.path());
  ASSERT_EQ(train.exitCode, 0) << train.err;

  std::string agent = "policy:" + (run / "policy.pt").string();
  fs::path out = scratch / "policy";
  RunResult evaluated =
      runRlopt({"eval", "--suite", suite.string(), "--agent", agent, "--out",
                out.string(), "--db", (scratch / "m.sqlite").string()},
               scratch.path());
  ASSERT_EQ(evaluated.exitCode, 0) << evaluated.err << evaluated.out;
  expectResults(out);

  // An explicit env config is taken as given: pointer interchange does not
  // fit the policy's heads, a usage error before anything is measured.
  fs::path mismatched = scratch / "mismatched";
  RunResult explicitConfig = eval({"--suite", suite.string(), "--agent", agent,
                                   "--out", mismatched.string()});
  EXPECT_EQ(explicitConfig.exitCode, 2) << explicitConfig.out;
  EXPECT_NE(explicitConfig.err.find("layout"), std::string::npos)
      << explicitConfig.err;
  EXPECT_EQ(
      std::count(explicitConfig.err.begin(), explicitConfig.err.end(), '\n'), 1)
      << explicitConfig.err;
  EXPECT_FALSE(fs::exists(mismatched)) << "a failed eval writes no results";
}

/// The LibTorch baseline runs on the same inputs, is checked against the
/// naive outputs and is timed in the same rounds; classes it does not cover
/// are reported, not guessed.
TEST_F(EvalCliTest, TorchBaselineIsCheckedAndTimed) {
  fs::path out = scratch / "torch";
  RunResult run = eval({"--suite", suite.string(), "--agent", "heuristic",
                        "--baselines", "torch", "--out", out.string()});
  ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
  auto json = nlohmann::json::parse(readFile(out / "results.json"));
  EXPECT_NE(json.value("torch_configuration", "").find("libblas.so.3"),
            std::string::npos);
  std::map<std::string, nlohmann::json> torchByName;
  for (const auto &row : json["results"]) {
    ASSERT_EQ(row["externals"].size(), 1u) << row.dump();
    torchByName[row["name"]] = row["externals"][0];
  }
  for (const char *covered : {"matmul", "add"}) {
    const nlohmann::json &torch = torchByName[covered];
    EXPECT_EQ(torch["name"], "torch");
    EXPECT_TRUE(torch["correct"].get<bool>()) << torch.dump();
    EXPECT_GT(torch["ms"].get<double>(), 0) << torch.dump();
    EXPECT_GT(torch["candidate_vs_external"].get<double>(), 0) << torch.dump();
  }
  EXPECT_NE(
      torchByName["chain"]["error"].get<std::string>().find("does not cover"),
      std::string::npos)
      << torchByName["chain"].dump();

  RunResult bad =
      eval({"--suite", suite.string(), "--agent", "naive", "--baselines",
            "tensorflow", "--out", (scratch / "bad").string()});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("unknown baseline 'tensorflow'"), std::string::npos)
      << bad.err;
}

} // namespace
