#ifndef RLOPT_TOOLS_ENVOPTIONS_H
#define RLOPT_TOOLS_ENVOPTIONS_H

#include "Args.h"

#include "rlopt/core/Json.h"

#include <memory>
#include <optional>
#include <string>

namespace rlopt::tool {

/// Reads the env options the pass-ordering commands share into `config`: the
/// JSON config file named by option `fileOption` (none when empty), then
/// --reward and --episode-length (at most `maxEpisodeLength`) over it.
/// Returns a one-line message on error.
template <typename Config>
std::optional<std::string>
readEnvOptions(const Args &args, const std::string &fileOption, Config &config,
               long maxEpisodeLength = 100000) {
  if (!fileOption.empty() && args.has(fileOption)) {
    auto loaded = readJsonFile(args.get(fileOption));
    if (!loaded)
      return loaded.error().message;
    auto parsed = Config::fromJson(*loaded, args.get(fileOption));
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
    if (auto started = (*env)->tryReset(uri); !started)
      return started.error();
  return env;
}

} // namespace rlopt::tool

#endif
