#ifndef RLOPT_AGENT_LINALG_POLICYRUNNER_H
#define RLOPT_AGENT_LINALG_POLICYRUNNER_H

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"

namespace rlopt::agent {

/// The end of one policy episode: the schedule and its measurement.
struct PolicyEpisode {
  double speedup = 0;
  bool correct = false;
  std::string schedule, error;
  nlohmann::json measurement;
};

/// Runs one whole episode of `policy` on `program` in `server` (greedy, or
/// sampled from the policy's distribution).
Result<PolicyEpisode> runPolicyEpisode(EnvServer &server, LinalgPolicy &policy,
                                       const std::string &program, bool greedy,
                                       uint64_t seed);

/// The greedy episode plus `samples` sampled ones; the best correct one.
Result<PolicyEpisode> bestPolicySchedule(EnvServer &server,
                                         LinalgPolicy &policy,
                                         const std::string &program,
                                         int samples, uint64_t seed);

} // namespace rlopt::agent

#endif
