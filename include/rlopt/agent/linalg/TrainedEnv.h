#ifndef RLOPT_AGENT_LINALG_TRAINEDENV_H
#define RLOPT_AGENT_LINALG_TRAINEDENV_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/EnvConfig.h"

#include <string>

namespace rlopt::agent {

/// The run config a training run saved beside its policy: NAME-config.json
/// for NAME.pt, else RUN/config.json for RUN/policy.pt and
/// RUN/checkpoint.pt. Empty when there is none.
std::string runConfigBeside(const std::string &policyPath);

/// `base` with the action settings the policy at `policyPath` was trained
/// with (tile sizes, loop and feature limits, steps per op, interchange mode,
/// transform limits), read from the run config beside it; timing, threads
/// and cache stay as in `base`. `base` unchanged when there is no run config.
Result<linalg::EnvConfig> withTrainedActions(const std::string &policyPath,
                                             linalg::EnvConfig base);

} // namespace rlopt::agent

#endif
