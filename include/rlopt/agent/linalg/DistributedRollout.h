#ifndef RLOPT_AGENT_LINALG_DISTRIBUTEDROLLOUT_H
#define RLOPT_AGENT_LINALG_DISTRIBUTEDROLLOUT_H

#include "rlopt/agent/Cluster.h"
#include "rlopt/agent/RankExchange.h"
#include "rlopt/agent/linalg/Rollout.h"

namespace rlopt::agent {

/// The learner's side of one batch: the episodes of `programs` (one each,
/// in order) are split into contiguous shares, one per rollout rank, and
/// sent with the policy's current weights; the ranks' trajectories come
/// back in rank order, so the batch is the same whatever the timing. A
/// rank that fails or sends nothing within `timeoutSeconds` is an Error
/// naming it.
Result<RolloutResult> rolloutOnRanks(Cluster &cluster, LinalgPolicy &policy,
                                     const std::vector<std::string> &programs,
                                     uint64_t seed, bool greedy,
                                     double timeoutSeconds);

/// A rollout rank's life: receive a share and the weights, roll it out on
/// `servers`, send the trajectories back; until the learner says stop.
/// Waiting longer than `timeoutSeconds` for the learner is an Error.
Status serveRollouts(Cluster &cluster, std::vector<EnvServer> &servers,
                     LinalgPolicy &policy, double timeoutSeconds);

} // namespace rlopt::agent

#endif
