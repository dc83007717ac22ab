// `rlopt graph inspect`, `train` and `eval`: what a user sees, in text and
// JSON, and how bad input is reported.
#include "../tools/ToolTestUtil.h"
#include "GraphTestUtil.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

using rlopt::graph::testing::fixture;
using rlopt::tool::testing::runRlopt;
using rlopt::tool::testing::ScratchDir;

TEST(GraphCli, InspectPrintsStructureCountsAndCost) {
  ScratchDir scratch;
  auto run =
      runRlopt({"graph", "inspect", fixture("small.hlo")}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("module small_mlp, 2 computations, entry main"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("instructions: 6 in the entry, 9 in the module"),
            std::string::npos);
  // dot 2*32*16, reduce (32-8) adds; tanh 32 transcendentals.
  EXPECT_NE(run.out.find("flops: 1048\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("transcendentals: 32\n"), std::string::npos);
  EXPECT_NE(run.out.find("parameter"), std::string::npos);
}

TEST(GraphCli, InspectJson) {
  ScratchDir scratch;
  auto run = runRlopt({"graph", "inspect", fixture("small.hlo"), "--json"},
                      scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << run.out;
  EXPECT_EQ(json["module"], "small_mlp");
  EXPECT_EQ(json["entry"], "main");
  EXPECT_EQ(json["computations"].size(), 2u);
  EXPECT_EQ(json["instructions"]["module"], 9);
  EXPECT_EQ(json["flops"], 1048);
  EXPECT_EQ(json["transcendentals"], 32);
  EXPECT_EQ(json["opcodes"]["parameter"]["entry"], 2);
  EXPECT_EQ(json["opcodes"]["parameter"]["module"], 4);
  EXPECT_EQ(json["opcodes"]["add"]["entry"], 0);
}

TEST(GraphCli, BadInputIsOneLineAndExitCode2) {
  ScratchDir scratch;
  std::string malformed = fixture("malformed/unknown_opcode.hlo");
  auto bad = runRlopt({"graph", "inspect", malformed}, scratch.path());
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(bad.err,
            "rlopt: " + malformed + ":5:22: unknown opcode 'frobnicate'\n");
  EXPECT_TRUE(bad.out.empty());

  auto missing =
      runRlopt({"graph", "inspect", "no/such/file.hlo"}, scratch.path());
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(missing.err, "rlopt: no/such/file.hlo: cannot read file\n");

  EXPECT_EQ(runRlopt({"graph", "frobnicate"}, scratch.path()).exitCode, 2);
  EXPECT_EQ(runRlopt({"graph"}, scratch.path()).exitCode, 2);
  EXPECT_EQ(runRlopt({"graph", "inspect"}, scratch.path()).exitCode, 2);
  EXPECT_EQ(runRlopt({"graph", "inspect", fixture("small.hlo"), "--bogus"},
                     scratch.path())
                .exitCode,
            2);
}

TEST(GraphCli, ShapeThatContradictsItsOperandIsOneLineAndExitCode2) {
  ScratchDir scratch;
  std::string path = (scratch.path() / "reshape.hlo").string();
  std::ofstream(path) << "HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n"
                         "  ROOT r = f32[5] reshape(p)\n}\n";
  for (const char *command : {"inspect", "run"}) {
    auto run = runRlopt({"graph", command, path}, scratch.path());
    EXPECT_EQ(run.exitCode, 2) << command;
    EXPECT_EQ(run.err, "rlopt: " + path +
                           ":5:3: reshape of f32[4] to f32[5] changes the "
                           "element count (4 to 5)\n")
        << command;
    EXPECT_TRUE(run.out.empty()) << command;
  }
}

TEST(GraphCli, TrainReadsTheEnvOfItsConfigOnce) {
  ScratchDir scratch;
  std::string config = (scratch.path() / "ppo.json").string();
  std::ofstream(config) << R"({"algorithm": "ppo", "steps_per_iteration": 8,
      "minibatch_size": 8, "epochs": 1, "iterations": 1,
      "network": {"hidden": [8]},
      "env": {"episode_length": 3, "split": "test"}})";
  std::string run = (scratch.path() / "run").string();
  auto trained = runRlopt({"graph", "train", "--config", config, "--out", run},
                          scratch.path());
  ASSERT_EQ(trained.exitCode, 0) << trained.err;
  EXPECT_NE(trained.err.find("18 graphs (test split)"), std::string::npos)
      << trained.err;
  auto env = nlohmann::json::parse(
      rlopt::tool::testing::readFile(run + "/config.json"))["env"];
  EXPECT_EQ(env["episode_length"], 3);

  std::string envConfig = (scratch.path() / "env.json").string();
  std::ofstream(envConfig) << "{}";
  auto twice = runRlopt({"graph", "train", "--config", config, "--env-config",
                         envConfig, "--out", run + "2"},
                        scratch.path());
  EXPECT_EQ(twice.exitCode, 2);
  EXPECT_NE(twice.err.find("the environment is given twice"), std::string::npos)
      << twice.err;
}

TEST(GraphCli, PolicyIsEvaluatedInTheEnvItWasTrainedIn) {
  ScratchDir scratch;
  std::string config = (scratch.path() / "ppo.json").string();
  std::ofstream(config) << R"({"algorithm": "ppo", "steps_per_iteration": 16,
      "minibatch_size": 8, "epochs": 1, "iterations": 1,
      "network": {"hidden": [8]}})";
  std::string run = (scratch.path() / "run").string();
  auto trained = runRlopt({"graph", "train", "--config", config, "--split",
                           "test", "--observation", "OpCountCost",
                           "--episode-length", "4", "--out", run},
                          scratch.path());
  ASSERT_EQ(trained.exitCode, 0) << trained.err;

  // The observation with costs comes from the run's config.json.
  std::string graph = "hlo://torch_xla_neuron/gpt2_tp-1_n_layer-1";
  std::string agent = "policy:" + run + "/policy.pt";
  auto evaluated = runRlopt({"graph", "eval", "--agent", agent, graph, "--out",
                             (scratch.path() / "eval").string()},
                            scratch.path());
  ASSERT_EQ(evaluated.exitCode, 0) << evaluated.err;
  EXPECT_NE(evaluated.out.find(graph), std::string::npos) << evaluated.out;

  // An explicit option still wins, and a mismatch is one clear line.
  auto mismatched =
      runRlopt({"graph", "eval", "--agent", agent, graph, "--observation",
                "OpCount", "--out", (scratch.path() / "eval2").string()},
               scratch.path());
  EXPECT_EQ(mismatched.exitCode, 2);
  EXPECT_NE(mismatched.err.find("trained on "), std::string::npos)
      << mismatched.err;
  EXPECT_EQ(std::count(mismatched.err.begin(), mismatched.err.end(), '\n'), 1)
      << mismatched.err;
}

TEST(GraphCli, RunValidatesTheResultOnTheInterpreter) {
  ScratchDir scratch;
  auto run = runRlopt({"graph", "run", fixture("small.hlo"), "--passes",
                       "algsimp,dce", "--default-pipeline", "--validate",
                       "--argument-sets", "2", "--json"},
                      scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto validation = nlohmann::json::parse(run.out)["validation"];
  EXPECT_TRUE(validation["ok"].get<bool>()) << validation.dump();
  EXPECT_EQ(validation["argument_sets"], 2);
  EXPECT_EQ(validation["compared_elements"], 16);
  EXPECT_EQ(validation["checked"],
            "2 argument sets, 16 finite output elements");

  auto text = runRlopt({"graph", "run", fixture("small.hlo"), "--validate"},
                       scratch.path());
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("validation: ok; compared 3 argument sets"),
            std::string::npos)
      << text.out;
  auto bad = runRlopt({"graph", "run", fixture("small.hlo"), "--validate",
                       "--argument-sets", "0"},
                      scratch.path());
  EXPECT_EQ(bad.exitCode, 2);
}

// The roofline reward from a config that names the roofline: each step
// reports the estimated time its reward is scaled from.
TEST(GraphCli, RooflineRewardReportsTheEstimatedTime) {
  ScratchDir scratch;
  std::string config = (scratch.path() / "roofline.json").string();
  std::ofstream(config)
      << R"({"reward": "RooflineTime", "peak_gflops": 100, "bandwidth_gbps": 20})";
  auto run =
      runRlopt({"graph", "run", "hlo://torch_xla_neuron/simple_linear_model",
                "--passes", "dce,algsimp", "--env-config", config, "--json"},
               scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["steps"].size(), 2u) << run.out;
  for (const auto &step : json["steps"]) {
    ASSERT_TRUE(step.contains("estimated_s")) << step.dump();
    EXPECT_GT(step["estimated_s"].get<double>(), 0);
    EXPECT_LT(step["reward"].get<double>(), 0)
        << "-(time now) / (time at start)";
  }

  // A config without a roofline gets this machine's; a bad one is refused.
  std::ofstream(config) << R"({"reward": "RooflineTime", "peak_gflops": -1,
      "bandwidth_gbps": 20})";
  auto bad =
      runRlopt({"graph", "run", "hlo://torch_xla_neuron/simple_linear_model",
                "--passes", "dce", "--env-config", config},
               scratch.path());
  EXPECT_EQ(bad.exitCode, 2) << bad.err;
  EXPECT_NE(bad.err.find("peak_gflops"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

// Evaluated on a roofline, each graph reports the estimated times of I, D
// and R, and greedy search never ends slower than the start.
TEST(GraphCli, EvalOnARooflineReportsEstimatedTimes) {
  ScratchDir scratch;
  std::string config = (scratch.path() / "roofline.json").string();
  std::ofstream(config)
      << R"({"reward": "RooflineTime", "peak_gflops": 100, "bandwidth_gbps": 20})";
  auto run = runRlopt({"graph", "eval", "--agent", "greedy",
                       "hlo://torch_xla_neuron/simple_linear_model",
                       "--env-config", config, "--json"},
                      scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["results"].size(), 1u) << run.out;
  const auto &result = json["results"][0];
  ASSERT_TRUE(result.contains("time_D")) << result.dump();
  double start = result["time_I"], pipeline = result["time_D"],
         agent = result["time_R"];
  EXPECT_GT(start, 0);
  EXPECT_GT(pipeline, 0);
  EXPECT_LE(agent, start);
  EXPECT_DOUBLE_EQ(result["speedup_over_D"].get<double>(), pipeline / agent);
  EXPECT_DOUBLE_EQ(json["summary"]["geomean_speedup_over_D"].get<double>(),
                   pipeline / agent);

  auto text = runRlopt({"graph", "eval", "--agent", "default",
                        "hlo://torch_xla_neuron/simple_linear_model",
                        "--env-config", config},
                       scratch.path());
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("geomean estimated speedup over D, "
                          "time(D)/time(R): 1.000"),
            std::string::npos)
      << text.out;
}
