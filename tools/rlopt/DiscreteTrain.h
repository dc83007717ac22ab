#ifndef RLOPT_TOOLS_DISCRETETRAIN_H
#define RLOPT_TOOLS_DISCRETETRAIN_H

#include "Args.h"

#include "rlopt/agent/discrete/Trainer.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// What `rlopt passes train` and `rlopt graph train` share: the agent config
// and the training run itself.

namespace rlopt::tool {

/// The agent config: the file of --config, else the defaults of --agent,
/// with --agent, --iterations and --seed over it. A bad option value's
/// message starts with `command`.
Result<agent::discrete::AgentConfig>
readAgentConfig(const Args &args, const std::string &command);

/// Trains on `uris` in the run directory --out (continued with --resume) and
/// returns the exit code. The env settings `envJson` go into RUN/config.json
/// as "env"; a resumed run must have the same ones. `envWriteFailure` is the
/// exit code when the run directory cannot be created. Prints `headline`,
/// then trains until done or until SIGINT or SIGTERM stops it with a
/// checkpoint.
int trainDiscreteAgent(const std::string &command, const Args &args,
                       const agent::discrete::AgentConfig &config, Env &env,
                       const std::vector<std::string> &uris,
                       const nlohmann::json &envJson, int envWriteFailure,
                       const std::string &headline);

} // namespace rlopt::tool

#endif
