#ifndef RLOPT_AGENT_LINALG_POLICYRUNNER_H
#define RLOPT_AGENT_LINALG_POLICYRUNNER_H

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Schedule.h"

#include <memory>

namespace rlopt::agent {

/// The end of one policy episode: the schedule and its measurement.
struct PolicyEpisode {
  double speedup = 0;
  bool correct = false;
  std::string schedule, error;
  nlohmann::json measurement;
};

/// A policy with the environment process it acts in.
struct RunningPolicy {
  std::unique_ptr<EnvServer> server;
  std::unique_ptr<LinalgPolicy> policy;
  ~RunningPolicy();
  RunningPolicy() = default;
  RunningPolicy(RunningPolicy &&) = default;
  RunningPolicy &operator=(RunningPolicy &&) = default;
};

/// Starts a Linalg environment process with `env`, then loads the policy
/// at `path` for its action layout (the process forks before LibTorch
/// starts).
Result<RunningPolicy> startPolicy(const std::string &path,
                                  const linalg::EnvConfig &env);

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

/// Episodes a policy samples for search besides its greedy one.
constexpr int kSearchPolicySamples = 31;

/// The schedules of the policy's greedy episode and of `samples` sampled
/// ones, distinct, greedy first: a policy's proposals for search. Run in an
/// environment whose reward is "none", nothing is measured.
Result<std::vector<linalg::Schedule>>
proposePolicySchedules(EnvServer &server, LinalgPolicy &policy,
                       const std::string &program, int samples, uint64_t seed);

} // namespace rlopt::agent

#endif
