// `rlopt optimize` with a policy that `rlopt train` just produced: the JSON
// answer, the optimized IR (-o) and sampled search (--search); a policy path
// that is no policy is a usage error.
#include "CliRunTestUtil.h"

#include "rlopt/linalg/Schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

using namespace rlopt::tool::testing;

namespace {

nlohmann::json parseJson(const RunResult &run) {
  nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << "not JSON: " << run.out;
  return json;
}

std::string join(const std::vector<std::string> &args) {
  std::string text;
  for (const std::string &a : args)
    text += a + " ";
  return text;
}

/// One tiny training run for the whole suite of tests.
class OptimizeCliTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    shared = std::make_unique<ScratchDir>();
    fs::path suite = *shared / "suite";
    writeFixtureSuite(suite, {{"add", "train"}});
    std::string config = (*shared / "config.json").string();
    writeFile(config, tinyTrainConfig(1, 1, *shared / "cache.sqlite").dump(2));
    RunResult train =
        runRlopt({"train", "--config", config, "--suite", suite.string(),
                  "--out", (*shared / "run").string()},
                 shared->path());
    ASSERT_EQ(train.exitCode, 0) << train.err;
    policy = (*shared / "run" / "policy.pt").string();
    ASSERT_TRUE(fs::is_regular_file(policy));
  }
  static void TearDownTestSuite() { shared.reset(); }

  void SetUp() override {
    if (policy.empty())
      GTEST_SKIP() << "no trained policy (see the suite's setup failure)";
  }

  RunResult optimize(std::vector<std::string> args) {
    args.insert(args.begin(), "optimize");
    args.insert(args.end(), {"--db", (scratch / "m.sqlite").string()});
    return runRlopt(args, scratch.path());
  }

  static std::unique_ptr<ScratchDir> shared;
  static std::string policy;
  ScratchDir scratch;
};

std::unique_ptr<ScratchDir> OptimizeCliTest::shared;
std::string OptimizeCliTest::policy;

TEST_F(OptimizeCliTest, JsonOutputSearchAndOptimizedIr) {
  std::string input = fixturePath("matmul");
  RunResult run = optimize({input, "--policy", policy, "--json"});
  ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
  nlohmann::json greedy = parseJson(run);
  for (const char *key : {"speedup", "correct", "schedule"})
    ASSERT_TRUE(greedy.contains(key)) << key << " missing in " << run.out;
  EXPECT_EQ(greedy["correct"], true);
  ASSERT_TRUE(greedy["speedup"].is_number());
  EXPECT_GT(greedy["speedup"].get<double>(), 0);
  ASSERT_TRUE(greedy["schedule"].is_string());
  std::string schedule = greedy["schedule"].get<std::string>();
  auto parsed = rlopt::linalg::parseSchedule(schedule);
  EXPECT_TRUE(parsed.ok()) << schedule << ": " << parsed.error().message;

  // The greedy policy is deterministic: the same schedule again.
  RunResult again = optimize({input, "--policy", policy, "--json"});
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(parseJson(again)["schedule"], greedy["schedule"]);

  // -o writes the optimized IR: the schedule applied to the program, as
  // `rlopt apply` writes it, and valid MLIR. (`rlopt inspect` takes only
  // untransformed Linalg-on-tensors programs, so it rejects any IR with the
  // scf loops a schedule creates; it is not the check here.)
  std::string out = (scratch / "out.mlir").string();
  RunResult written = optimize({input, "--policy", policy, "-o", out});
  ASSERT_EQ(written.exitCode, 0) << written.err;
  ASSERT_TRUE(fs::is_regular_file(out));
  std::string ir = readFile(out);
  EXPECT_NE(ir.find("func.func @matmul"), std::string::npos) << ir;
  // The text output names the file and the measured speedup.
  EXPECT_NE(written.out.find(input), std::string::npos) << written.out;
  EXPECT_NE(written.out.find("speedup"), std::string::npos) << written.out;
  std::string applied = (scratch / "applied.mlir").string();
  RunResult apply = runRlopt(
      {"apply", input, "--schedule", schedule, "-o", applied}, scratch.path());
  ASSERT_EQ(apply.exitCode, 0) << apply.err;
  EXPECT_EQ(ir, readFile(applied));
  RunResult verify = runCommand("mlir-opt-19", {out}, scratch.path());
  EXPECT_EQ(verify.exitCode, 0) << "schedule '" << schedule << "':\n"
                                << verify.err;

  // --search 2 samples two more schedules and keeps the best correct one;
  // the greedy one (answered from the cache) is among the candidates.
  RunResult search =
      optimize({input, "--policy", policy, "--search", "2", "--json"});
  ASSERT_EQ(search.exitCode, 0) << search.err;
  nlohmann::json best = parseJson(search);
  EXPECT_EQ(best["sampled"], 2);
  EXPECT_EQ(best["correct"], true);
  EXPECT_GE(best["speedup"].get<double>(), greedy["speedup"].get<double>());
  EXPECT_TRUE(
      rlopt::linalg::parseSchedule(best["schedule"].get<std::string>()).ok())
      << best["schedule"];
}

TEST_F(OptimizeCliTest, BadPolicyIsAUsageError) {
  std::string input = fixturePath("add");
  std::string garbage = (scratch / "garbage.pt").string();
  writeFile(garbage, "not a policy");
  std::string missing = (scratch / "missing.pt").string();
  for (const std::string &bad : {missing, garbage}) {
    std::vector<std::string> args = {input, "--policy", bad, "--json"};
    RunResult run = optimize(args);
    EXPECT_EQ(run.exitCode, 2) << join(args) << "\n" << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find(bad), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1)
        << "not one line: " << run.err;
  }
  // A policy trained for another environment layout (max_loops 6) runs
  // with the settings of the run config beside it; moved away from it, it
  // is refused with the file named.
  nlohmann::json config = tinyTrainConfig(1, 1, scratch / "cache.sqlite");
  config["env"]["max_loops"] = 6;
  writeFile(scratch / "loops6.json", config.dump(2));
  writeFixtureSuite(scratch / "suite", {{"add", "train"}});
  RunResult train = runRlopt(
      {"train", "--config", (scratch / "loops6.json").string(), "--suite",
       (scratch / "suite").string(), "--out", (scratch / "loops6").string()},
      scratch.path());
  ASSERT_EQ(train.exitCode, 0) << train.err;
  RunResult inRun =
      optimize({input, "--policy", (scratch / "loops6" / "policy.pt").string(),
                "--json"});
  EXPECT_EQ(inRun.exitCode, 0) << inRun.err;
  std::string loops6 = (scratch / "loops6.pt").string();
  fs::copy_file(scratch / "loops6" / "policy.pt", loops6);
  RunResult other = optimize({input, "--policy", loops6, "--json"});
  EXPECT_EQ(other.exitCode, 2) << other.err;
  EXPECT_EQ(other.out, "");
  EXPECT_NE(other.err.find(loops6), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("layout"), std::string::npos) << other.err;
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1)
      << "not one line: " << other.err;

  // No FILE, or two.
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"--policy", policy},
        {input, input, "--policy", policy}}) {
    RunResult run = optimize(args);
    EXPECT_EQ(run.exitCode, 2) << join(args) << "\n" << run.err;
  }
  // A program that does not exist is named.
  std::string nowhere = (scratch / "nowhere.mlir").string();
  RunResult run = optimize({nowhere, "--policy", policy});
  EXPECT_EQ(run.exitCode, 2) << run.err;
  EXPECT_NE(run.err.find(nowhere), std::string::npos) << run.err;
}

/// Without --policy the shipped policy (data/policies/default.pt) runs: it
/// loads against today's environment and gives a correct schedule.
TEST_F(OptimizeCliTest, ShippedPolicyIsTheDefault) {
  RunResult run = optimize({fixturePath("matmul"), "--json"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  nlohmann::json json = parseJson(run);
  EXPECT_EQ(json.value("correct", false), true) << run.out;
  EXPECT_GT(json.value("speedup", 0.0), 0) << run.out;
}

} // namespace
