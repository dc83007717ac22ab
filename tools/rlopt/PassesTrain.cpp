// rlopt passes train: PPO, A2C, DQN or discrete SAC on the LLVM
// pass-ordering environment, over a split of the bundled suite.
#include "Args.h"

#include "rlopt/agent/discrete/Trainer.h"
#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/passes/PassesEnv.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>

namespace rlopt::tool {

namespace {

std::atomic<bool> stopRequested{false};
void requestStop(int) { stopRequested = true; }

/// The environment settings a run was trained with live beside its agent
/// config; a resumed run must use the same ones.
Status writeOrCheckEnvConfig(const std::string &runDir,
                             const nlohmann::json &envJson, bool resume) {
  std::string path = runDir + "/env.json";
  if (resume && std::filesystem::exists(path)) {
    auto saved = readJsonFile(path);
    if (!saved)
      return saved.error();
    if (*saved != envJson)
      return makeError(path + ": the run was trained with " + saved->dump() +
                       ", not " + envJson.dump());
    return Status::success();
  }
  std::error_code ec;
  std::filesystem::create_directories(runDir, ec);
  if (ec)
    return makeError(runDir + ": cannot create: " + ec.message());
  return writeFileAtomically(path, envJson.dump(2) + "\n");
}

} // namespace

int runPassesTrain(int argc, char **argv) {
  Args args({"agent", "config", "out", "split", "reward", "observation",
             "episode-length", "iterations", "seed"},
            {"resume"});
  if (auto error = args.parse(argc, argv, 3))
    return fail("passes train: " + *error);
  if (!args.has("out"))
    return fail("passes train: --out RUN is required");
  std::string runDir = args.get("out");

  // Agent config: a file, else the defaults of --agent (PPO by default).
  nlohmann::json agentJson = nlohmann::json::object();
  if (args.has("config")) {
    auto loaded = readJsonFile(args.get("config"));
    if (!loaded)
      return fail(loaded.error().message);
    agentJson = *loaded;
  }
  if (args.has("agent"))
    agentJson["algorithm"] = args.get("agent");
  std::string error;
  if (args.has("iterations"))
    agentJson["iterations"] = args.getInt("iterations", 0, 1, 1 << 30, error);
  if (args.has("seed"))
    agentJson["seed"] = args.getInt("seed", 0, 0, 1l << 40, error);
  if (!error.empty())
    return fail("passes train: " + error);
  auto agentConfig = agent::discrete::AgentConfig::fromJson(
      agentJson, args.has("config") ? args.get("config") : "--agent");
  if (!agentConfig)
    return fail(agentConfig.error().message);

  passes::PassesEnvConfig envConfig;
  envConfig.episodeLength = 45;
  if (args.has("reward"))
    envConfig.reward = args.get("reward");
  if (args.has("observation"))
    envConfig.observation = args.get("observation");
  envConfig.episodeLength = static_cast<int>(
      args.getInt("episode-length", envConfig.episodeLength, 1, 10000, error));
  if (!error.empty())
    return fail("passes train: " + error);
  passes::BenchmarkSources sources;
  sources.dataDir = RLOPT_DATA_DIR;
  auto env = passes::PassesEnv::create(envConfig, sources);
  if (!env)
    return fail(env.error().message);

  passes::BenchmarkLoader loader(sources, nullptr);
  std::string split = args.get("split", "train");
  auto uris = loader.bundledSplit(split);
  if (!uris)
    return fail(uris.error().message);
  std::vector<BenchmarkRef> benchmarks;
  for (const auto &uri : *uris)
    benchmarks.push_back({uri});

  nlohmann::json envJson = {{"observation", envConfig.observation},
                            {"reward", envConfig.reward},
                            {"episode_length", envConfig.episodeLength},
                            {"split", split}};
  if (Status ok = writeOrCheckEnvConfig(runDir, envJson, args.has("resume"));
      !ok)
    return fail(ok.error().message);

  std::signal(SIGINT, requestStop);
  std::signal(SIGTERM, requestStop);
  agent::discrete::TrainOptions options;
  options.resume = args.has("resume");
  options.stopRequested = &stopRequested;
  options.showProgress = true;
  std::fprintf(stderr,
               "passes train: %s on %zu programs (%s split), %s reward, "
               "%s observation\n",
               agentConfig->algorithm().c_str(), benchmarks.size(),
               split.c_str(), envConfig.reward.c_str(),
               envConfig.observation.c_str());
  Status trained =
      agent::discrete::train(*agentConfig, **env, benchmarks, runDir, options);
  if (!trained)
    return fail(trained.error().message, ExitFailure);
  std::fprintf(stderr, "passes train: %s; policy in %s/policy.pt\n",
               stopRequested ? "stopped; checkpoint saved (--resume continues)"
                             : "done",
               runDir.c_str());
  return ExitOk;
}

} // namespace rlopt::tool
