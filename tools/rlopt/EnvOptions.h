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

/// The env settings a training run recorded for the policy of
/// `--agent policy:RUN/policy.pt` (RUN/config.json's "env", or RUN/env.json
/// as runs of earlier versions wrote it), so a policy is evaluated in the
/// env it was trained in; null when the agent is no such policy. The
/// programs it trained on are left out. `where` names the file read.
inline Result<nlohmann::json> trainedEnvSettings(const Args &args,
                                                 std::string &where) {
  std::string policy = eval::policyPathOf(args.get("agent"));
  if (policy.empty())
    return nlohmann::json();
  std::filesystem::path run = std::filesystem::path(policy).parent_path();
  nlohmann::json settings;
  std::error_code ec;
  if (std::filesystem::is_regular_file(run / "config.json", ec)) {
    where = (run / "config.json").string();
    auto config = readJsonFile(where);
    if (!config)
      return config.error();
    if (config->is_object() && config->contains("env"))
      settings = (*config)["env"];
  }
  if (settings.is_null() &&
      std::filesystem::is_regular_file(run / "env.json", ec)) {
    where = (run / "env.json").string();
    auto loaded = readJsonFile(where);
    if (!loaded)
      return loaded.error();
    settings = *loaded;
  }
  if (settings.is_object()) {
    settings.erase("suite");
    settings.erase("split");
  }
  return settings;
}

/// The "env" object of the agent config that `--config` names in the train
/// commands (a run's config.json holds one, so a run can be repeated from
/// it), read once: `settings` is null when there is none.
struct AgentConfigEnv {
  nlohmann::json settings;
  std::string where; ///< names it in messages
};

inline Result<AgentConfigEnv> envInAgentConfig(const Args &args) {
  AgentConfigEnv env;
  if (!args.has("config"))
    return env;
  auto config = readJsonFile(args.get("config"));
  if (!config)
    return config.error();
  if (config->is_object() && config->contains("env")) {
    env.settings = (*config)["env"];
    env.where = args.get("config") + ": env";
  }
  return env;
}

/// `key` ("suite", "split") from the command line, else from the agent
/// config's env, else `fallback`.
inline Result<std::string> trainingSetting(const Args &args,
                                           const AgentConfigEnv &env,
                                           const std::string &key,
                                           const std::string &fallback) {
  if (args.has(key))
    return args.get(key);
  if (!env.settings.is_object() || !env.settings.contains(key))
    return fallback;
  if (!env.settings[key].is_string())
    return makeError(env.where + ": " + key + ": expected a string");
  return env.settings[key].get<std::string>();
}

/// Reads the env options the pass-ordering commands share into `config`: the
/// env of the agent config (`agentEnv`, the train commands), or the JSON
/// config file named by option `fileOption`, or else the settings the policy
/// was trained with (trainedEnvSettings); then --reward and --episode-length
/// (at most `maxEpisodeLength`) over it. Returns a one-line message on error.
template <typename Config>
std::optional<std::string>
readEnvOptions(const Args &args, const std::string &fileOption, Config &config,
               long maxEpisodeLength = 100000,
               const AgentConfigEnv *agentEnv = nullptr) {
  nlohmann::json settings;
  std::string where;
  if (agentEnv && !agentEnv->settings.is_null()) {
    if (!fileOption.empty() && args.has(fileOption))
      return "the environment is given twice: --" + fileOption + " " +
             args.get(fileOption) + ", and \"env\" in --config " +
             args.get("config") + "; keep one";
    settings = agentEnv->settings;
    where = agentEnv->where;
    if (settings.is_object()) {
      // The programs are chosen by trainingSetting.
      settings.erase("suite");
      settings.erase("split");
    }
  } else if (!fileOption.empty() && args.has(fileOption)) {
    where = args.get(fileOption);
    auto loaded = readJsonFile(where);
    if (!loaded)
      return loaded.error().message;
    settings = *loaded;
  } else if (!fileOption.empty()) {
    auto trained = trainedEnvSettings(args, where);
    if (!trained)
      return trained.error().message;
    settings = *trained;
  }
  if (!settings.is_null()) {
    auto parsed = Config::fromJson(settings, where);
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
