// rlopt passes train: PPO, A2C, DQN or discrete SAC on the LLVM
// pass-ordering environment, over a split of the bundled suite.
#include "Args.h"
#include "Commands.h"
#include "DiscreteTrain.h"
#include "EnvOptions.h"

#include "rlopt/passes/PassesEnv.h"

namespace rlopt::tool {

int runPassesTrain(int argc, char **argv) {
  Args args({"agent", "config", "out", "suite", "split", "reward",
             "observation", "episode-length", "iterations", "seed"},
            {"resume"});
  if (auto error = args.parse(argc, argv, 3))
    return fail("passes train: " + *error);
  if (!args.has("out"))
    return fail("passes train: --out RUN is required");

  // Agent config: a file, else the defaults of --agent (PPO by default).
  auto agentConfig = readAgentConfig(args, "passes train");
  if (!agentConfig)
    return fail(agentConfig.error().message);

  passes::PassesEnvConfig envConfig;
  envConfig.episodeLength = 45;
  // --config names the agent config here; its "env", if any, is the env
  // config.
  auto agentEnv = envInAgentConfig(args);
  if (!agentEnv)
    return fail("passes train: " + agentEnv.error().message);
  if (auto error = readEnvOptions(args, "", envConfig, 10000, &*agentEnv))
    return fail("passes train: " + *error);
  if (args.has("observation"))
    envConfig.observation = args.get("observation");
  passes::BenchmarkSources sources = passesSources();
  auto env = passes::PassesEnv::create(envConfig, sources);
  if (!env)
    return fail(env.error().message);

  passes::BenchmarkLoader loader(sources);
  auto split = trainingSetting(args, *agentEnv, "split", "train");
  if (!split)
    return fail("passes train: " + split.error().message);
  auto suite = trainingSetting(args, *agentEnv, "suite", "rlopt-v0");
  if (!suite)
    return fail("passes train: " + suite.error().message);
  auto uris = loader.suitesSplit(*suite, *split);
  if (!uris)
    return fail(uris.error().message);

  nlohmann::json envJson = {{"observation", envConfig.observation},
                            {"reward", envConfig.reward},
                            {"episode_length", envConfig.episodeLength},
                            {"split", *split}};
  // Runs on the bundled suite keep the env settings they always had, so
  // they resume.
  if (*suite != "rlopt-v0")
    envJson["suite"] = *suite;
  // Exits 2 when the run directory cannot be created, as it always has.
  return trainDiscreteAgent(
      "passes train", args, *agentConfig, **env, *uris, envJson, ExitUsage,
      "passes train: " + agentConfig->algorithm() + " on " +
          std::to_string(uris->size()) + " programs (" + *suite + ", " +
          *split + " split), " + envConfig.reward + " reward, " +
          envConfig.observation + " observation");
}

} // namespace rlopt::tool
