#ifndef RLOPT_TOOLS_ENVOPTIONS_H
#define RLOPT_TOOLS_ENVOPTIONS_H

#include "Args.h"

#include "rlopt/core/Json.h"
#include "rlopt/eval/AgentSpec.h"
#include "rlopt/passes/Benchmark.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace rlopt::tool {

/// Where the pass-ordering programs are: the bundled suite and the
/// installed datasets.
inline passes::BenchmarkSources passesSources() {
  passes::BenchmarkSources sources;
  sources.dataDir = RLOPT_DATA_DIR;
  return sources;
}

/// The env settings file that applies when option `fileOption` is not
/// given: the `env.json` a training run wrote beside the policy of
/// `--agent policy:RUN/policy.pt`, if there is one, so a policy is evaluated
/// in the env it was trained in. Empty when none applies.
inline std::string envSettingsFile(const Args &args,
                                   const std::string &fileOption) {
  if (fileOption.empty())
    return "";
  if (args.has(fileOption))
    return args.get(fileOption);
  std::string policy = eval::policyPathOf(args.get("agent"));
  if (policy.empty())
    return "";
  std::filesystem::path runEnv =
      std::filesystem::path(policy).parent_path() / "env.json";
  std::error_code ec;
  return std::filesystem::is_regular_file(runEnv, ec) ? runEnv.string() : "";
}

/// Reads the env options the pass-ordering commands share into `config`: the
/// JSON config file named by option `fileOption` (none when empty; see
/// envSettingsFile), then --reward and --episode-length (at most
/// `maxEpisodeLength`) over it. Returns a one-line message on error.
template <typename Config>
std::optional<std::string>
readEnvOptions(const Args &args, const std::string &fileOption, Config &config,
               long maxEpisodeLength = 100000) {
  if (std::string file = envSettingsFile(args, fileOption); !file.empty()) {
    auto loaded = readJsonFile(file);
    if (!loaded)
      return loaded.error().message;
    // A run's env.json also records the programs it trained on.
    if (!args.has(fileOption) && loaded->is_object()) {
      loaded->erase("suite");
      loaded->erase("split");
    }
    auto parsed = Config::fromJson(*loaded, file);
    if (!parsed)
      return parsed.error().message;
    config = *parsed;
  }
  if (args.has("reward"))
    config.reward = args.get("reward");
  std::string error;
  config.episodeLength = static_cast<int>(args.getInt(
      "episode-length", config.episodeLength, 1, maxEpisodeLength, error));
  if (!error.empty())
    return error;
  return std::nullopt;
}

/// `env` with an episode started on `uri`, for the `run` commands; else why
/// it could not be created or reset.
template <typename EnvT>
Result<std::unique_ptr<EnvT>> startEpisode(Result<std::unique_ptr<EnvT>> env,
                                           const std::string &uri) {
  if (env)
    if (auto started = (*env)->tryReset({uri}, 0); !started)
      return started.error();
  return env;
}

} // namespace rlopt::tool

#endif
