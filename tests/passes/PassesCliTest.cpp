// `rlopt passes` from the command line: what a user types and reads.
#include "../tools/ToolTestUtil.h"

#include <nlohmann/json.hpp>

#include <fstream>

using namespace rlopt::tool::testing;

namespace {
const std::string kData = RLOPT_TEST_DATA "/passes";
} // namespace

TEST(PassesCli, ListShowsActionsExclusionsAndBenchmarks) {
  ScratchDir scratch;
  RunResult run = runRlopt({"passes", "list", "--json"}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_GE(json["actions"].size(), 110u);
  EXPECT_FALSE(json["excluded"].empty());
  EXPECT_GE(json["benchmarks"].size(), 20u);
  EXPECT_EQ(json["actions"][0]["name"], "always-inline");
}

TEST(PassesCli, RunAppliesPassesWritesIrAndValidates) {
  ScratchDir scratch;
  std::string out = (scratch / "out.ll").string();
  RunResult run = runRlopt({"passes", "run", kData + "/sum.c", "--passes",
                            "mem2reg,instcombine,simplifycfg", "-o", out,
                            "--validate", "--json"},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_LT(json["ic"].get<double>(), json["ic0"].get<double>());
  EXPECT_TRUE(json["validation"]["ok"].get<bool>());
  std::string ir = readFile(out);
  EXPECT_NE(ir.find("define"), std::string::npos);
  // The written IR loads back as a benchmark file.
  RunResult again = runRlopt({"passes", "run", out, "--json"}, scratch.path());
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["ic0"], json["ic"]);
}

TEST(PassesCli, BadInputsGetOneLineErrorsAndNoOutputFile) {
  ScratchDir scratch;
  std::string out = (scratch / "out.ll").string();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"passes", "run", kData + "/sum.c", "--passes", "mem2reg,no-such-pass",
        "-o", out},
       "unknown pass 'no-such-pass'"},
      {{"passes", "run", kData + "/broken.c", "-o", out}, "does not compile"},
      {{"passes", "run", kData + "/garbage.bc", "-o", out}, "garbage.bc"},
      {{"passes", "run", "benchmark://rlopt-v0/nope", "-o", out},
       "unknown benchmark"},
      {{"passes", "run", "generator://csmith-v0/x", "-o", out},
       "expected a decimal seed"},
      {{"passes", "eval", "--suite", "rlopt-v0", "--agent", "random:0", "--out",
        (scratch / "res").string()},
       "random:N needs N in 1..1000000 episodes (random-time:SECONDS"},
      {{"passes", "eval", "--suite", "rlopt-v0", "--split", "valid", "--agent",
        "greedy", "--out", (scratch / "res").string()},
       "split 'valid'"},
      {{"passes", "run", kData + "/sum.c", "--reward", "Speed"},
       "reward 'Speed'"},
      {{"passes", "frobnicate"}, "unknown command 'frobnicate'"},
  };
  for (const Case &c : cases) {
    RunResult run = runRlopt(c.args, scratch.path());
    EXPECT_EQ(run.exitCode, 2) << c.args[2] << ": " << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos)
        << "expected '" << c.message << "' in: " << run.err;
    EXPECT_EQ(run.err.find("terminate"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(out)) << c.args[2];
    EXPECT_FALSE(fs::exists(scratch / "res")) << c.args[2];
  }
}

TEST(PassesCli, EvalWritesResultsWithBothMetrics) {
  ScratchDir scratch;
  std::string dir = (scratch / "res").string();
  RunResult run = runRlopt({"passes", "eval", "benchmark://rlopt-v0/crc32",
                            kData + "/sum.c", "--agent", "greedy",
                            "--episode-length", "8", "--out", dir},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("geomean (IC0-IC)/(IC0-IC_Oz)"), std::string::npos);
  auto json = nlohmann::json::parse(readFile(dir + "/passes-eval.json"));
  ASSERT_EQ(json["results"].size(), 2u);
  for (const auto &result : json["results"]) {
    EXPECT_TRUE(result["validated"].get<bool>()) << result.dump();
    EXPECT_LE(result["passes"].size(), 8u);
    double ic0 = result["ic0"], icOz = result["ic_oz"], ic = result["ic"];
    EXPECT_NEAR(result["leaderboard"].get<double>(), (ic0 - ic) / (ic0 - icOz),
                1e-9);
    EXPECT_NEAR(result["oz_ratio"].get<double>(), icOz / ic, 1e-9);
  }
  EXPECT_NE(readFile(dir + "/passes-eval.csv").find("leaderboard"),
            std::string::npos);
}

TEST(PassesCli, PolicyIsEvaluatedWithTheObservationItWasTrainedOn) {
  ScratchDir scratch;
  std::string config = (scratch / "ppo.json").string();
  std::ofstream(config) << R"({"algorithm": "ppo", "steps_per_iteration": 8,
      "minibatch_size": 8, "epochs": 1, "iterations": 1,
      "network": {"hidden": [8]}})";
  std::string run = (scratch / "run").string();
  RunResult trained =
      runRlopt({"passes", "train", "--config", config, "--observation",
                "InstCount", "--episode-length", "4", "--out", run},
               scratch.path());
  ASSERT_EQ(trained.exitCode, 0) << trained.err;

  // passes eval has no --observation: the run's config.json supplies it.
  RunResult evaluated = runRlopt(
      {"passes", "eval", "benchmark://rlopt-v0/crc32", "--agent",
       "policy:" + run + "/policy.pt", "--out", (scratch / "res").string()},
      scratch.path());
  ASSERT_EQ(evaluated.exitCode, 0) << evaluated.err;
  auto json = nlohmann::json::parse(
      readFile((scratch / "res" / "passes-eval.json").string()));
  ASSERT_EQ(json["results"].size(), 1u);
  EXPECT_LE(json["results"][0]["passes"].size(), 4u)
      << "the episode length is the run's too";

  // Runs of earlier versions kept the env settings in env.json.
  auto runConfig = nlohmann::json::parse(readFile(run + "/config.json"));
  ASSERT_TRUE(runConfig.contains("env"));
  EXPECT_EQ(runConfig["env"]["observation"], "InstCount");
  std::ofstream(run + "/env.json") << runConfig["env"].dump();
  runConfig.erase("env");
  std::ofstream(run + "/config.json") << runConfig.dump();
  RunResult earlier = runRlopt({"passes", "eval", "benchmark://rlopt-v0/crc32",
                                "--agent", "policy:" + run + "/policy.pt",
                                "--out", (scratch / "res2").string()},
                               scratch.path());
  EXPECT_EQ(earlier.exitCode, 0) << earlier.err;
}

TEST(PassesCli, ARunsConfigTrainsAgainInTheEnvItRecorded) {
  ScratchDir scratch;
  std::string config = (scratch / "dqn.json").string();
  std::ofstream(config) << R"({"algorithm": "dqn", "steps_per_iteration": 8,
      "iterations": 1, "network": {"hidden": [8]},
      "env": {"reward": "IrInstructionCountNorm", "observation": "InstCount",
              "episode_length": 4, "split": "test"}})";
  std::string run = (scratch / "run").string();
  RunResult trained = runRlopt(
      {"passes", "train", "--config", config, "--out", run}, scratch.path());
  ASSERT_EQ(trained.exitCode, 0) << trained.err;
  EXPECT_NE(trained.err.find("9 programs (rlopt-v0, test split), "
                             "IrInstructionCountNorm reward, InstCount"),
            std::string::npos)
      << trained.err;
  auto env = nlohmann::json::parse(readFile(run + "/config.json"))["env"];
  EXPECT_EQ(env["reward"], "IrInstructionCountNorm");
  EXPECT_EQ(env["episode_length"], 4);

  // The run's own config.json repeats it; options still win over it.
  RunResult again =
      runRlopt({"passes", "train", "--config", run + "/config.json", "--split",
                "train", "--out", (scratch / "run2").string()},
               scratch.path());
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_NE(again.err.find("23 programs (rlopt-v0, train split), "
                           "IrInstructionCountNorm reward, InstCount"),
            std::string::npos)
      << again.err;

  std::ofstream(config) << R"({"algorithm": "dqn", "env": {"rewrd": "x"}})";
  RunResult misspelt = runRlopt({"passes", "train", "--config", config, "--out",
                                 (scratch / "run3").string()},
                                scratch.path());
  EXPECT_EQ(misspelt.exitCode, 2);
  EXPECT_NE(misspelt.err.find("env: unknown key 'rewrd'"), std::string::npos)
      << misspelt.err;
  EXPECT_FALSE(fs::exists(scratch / "run3"));

  std::ofstream(config) << R"({"algorithm": "dqn", "env": {"split": 5}})";
  RunResult mistyped = runRlopt({"passes", "train", "--config", config, "--out",
                                 (scratch / "run4").string()},
                                scratch.path());
  EXPECT_EQ(mistyped.exitCode, 2);
  EXPECT_NE(mistyped.err.find("env: split: expected a string"),
            std::string::npos)
      << mistyped.err;
  EXPECT_FALSE(fs::exists(scratch / "run4"));
}

TEST(PassesCli, DatasetInstallThenEvaluateItsSuite) {
  ScratchDir scratch;
  std::string datasets = "RLOPT_DATASETS=" + (scratch / "datasets").string();
  auto rlopt = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {datasets, RLOPT_BINARY});
    return runCommand("env", args, scratch.path());
  };
  RunResult install = rlopt({"passes", "dataset", "install", kData + "/specs",
                             "--name", "mini", "--quiet"});
  ASSERT_EQ(install.exitCode, 0) << install.err;
  EXPECT_NE(install.out.find("installed 2 programs"), std::string::npos);
  RunResult list = rlopt({"passes", "dataset", "list", "--json"});
  ASSERT_EQ(list.exitCode, 0) << list.err;
  EXPECT_EQ(nlohmann::json::parse(list.out)["mini"].size(), 2u);

  RunResult eval =
      rlopt({"passes", "eval", "--suite", "mini", "--split", "test", "--agent",
             "greedy", "--out", (scratch / "eval").string(), "--json"});
  ASSERT_EQ(eval.exitCode, 0) << eval.err;
  auto results = nlohmann::json::parse(eval.out)["results"];
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["uri"], "benchmark://mini/wordstat");
  EXPECT_TRUE(results[0]["validated"].get<bool>()) << results.dump();
  EXPECT_NE(results[0]["checked"].get<std::string>().find("output"),
            std::string::npos);

  RunResult again = rlopt({"passes", "dataset", "install", kData + "/specs",
                           "--name", "mini", "--quiet"});
  EXPECT_EQ(again.exitCode, 2);
  EXPECT_NE(again.err.find("--replace"), std::string::npos) << again.err;
  RunResult unknown = rlopt({"passes", "eval", "--suite", "nope", "--agent",
                             "Oz", "--out", (scratch / "e2").string()});
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("unknown suite 'nope'"), std::string::npos)
      << unknown.err;
}

TEST(PassesCli, EvalSaysWhatValidationCheckedWithoutRunningWhenAsked) {
  ScratchDir scratch;
  RunResult eval = runRlopt({"passes", "eval", kData + "/needs_args.c",
                             "--agent", "random:3", "--validation", "replay",
                             "--out", (scratch / "e").string(), "--json"},
                            scratch.path());
  ASSERT_EQ(eval.exitCode, 0) << eval.err;
  auto result = nlohmann::json::parse(eval.out)["results"][0];
  EXPECT_TRUE(result["validated"].get<bool>());
  EXPECT_EQ(result["checked"], "replay (IR and reward)");
  RunResult bad =
      runRlopt({"passes", "eval", kData + "/needs_args.c", "--agent", "Oz",
                "--validation", "sometimes", "--out", (scratch / "f").string()},
               scratch.path());
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("expected replay, run or auto"), std::string::npos);
}

TEST(PassesCli, TheShippedPolicyBeatsOzOnHeldOutPrograms) {
  // kmp and fft are in the test split: the policy never trained on them.
  ScratchDir scratch;
  const std::string policy =
      RLOPT_TEST_DATA "/../../data/policies/passes-ppo/policy.pt";
  for (const std::string agent : {"policy:" + policy, "guided:8:" + policy}) {
    RunResult eval = runRlopt({"passes", "eval", "benchmark://rlopt-v0/kmp",
                               "benchmark://rlopt-v0/fft", "--agent", agent,
                               "--out", (scratch / "e").string(), "--json"},
                              scratch.path());
    ASSERT_EQ(eval.exitCode, 0) << eval.err;
    auto json = nlohmann::json::parse(eval.out);
    EXPECT_EQ(json["summary"]["succeeded"], 2) << json.dump();
    EXPECT_GT(json["summary"]["geomean_leaderboard"].get<double>(), 1.0)
        << agent << ": " << json["summary"].dump();
  }
}
