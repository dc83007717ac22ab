#ifndef RLOPT_AGENT_RANKEXCHANGE_H
#define RLOPT_AGENT_RANKEXCHANGE_H

#include "rlopt/agent/Cluster.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <vector>

namespace rlopt::agent {

/// What a distributed trainer's learner and rollout ranks say to each
/// other, in MessagePack: the learner hands every rollout rank its share of
/// a batch (weights travel inside as a binary value) and gathers the
/// answers; a rank answers each share until it is told to stop.

/// Sends shares[r - 1] to rank r and returns the answers in rank order, so
/// a batch is the same whatever the ranks' timing. An answer holding
/// "error", or a rank silent for `timeoutSeconds`, is an Error naming it.
Result<std::vector<nlohmann::json>>
shareWork(Cluster &cluster, const std::vector<nlohmann::json> &shares,
          double timeoutSeconds);

/// Tells every rollout rank that the run is over.
void stopRolloutRanks(Cluster &cluster);

/// A rollout rank's life: answers each share the learner sends, until it
/// says stop. An Error from `answer` goes back to the learner as the
/// answer's "error"; a learner silent for twice `timeoutSeconds` (after
/// the first share, which may come late) is an Error.
using ShareHandler =
    std::function<Result<nlohmann::json>(const nlohmann::json &share)>;
Status serveShares(Cluster &cluster, const ShareHandler &answer,
                   double timeoutSeconds);

} // namespace rlopt::agent

#endif
