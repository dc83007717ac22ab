#ifndef RLOPT_AGENT_RANDOMSEARCH_H
#define RLOPT_AGENT_RANDOMSEARCH_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"

#include <functional>

namespace rlopt::agent {

struct EpisodeOutcome {
  double reward = 0; ///< sum of the episode's rewards
  Info info;         ///< the final step's info
};

struct SearchResult {
  EpisodeOutcome best;
  std::vector<EpisodeOutcome> episodes;
};

/// Samples `episodes` whole episodes with uniformly random unmasked actions
/// and keeps the one with the highest return: the baseline a learned policy
/// must beat with the same number of measured evaluations.
Result<SearchResult>
randomSearch(Env &env, const BenchmarkRef &benchmark, int episodes,
             uint64_t seed,
             const std::function<void(int, const EpisodeOutcome &)> &onEpisode =
                 nullptr);

/// A uniformly random action among the unmasked values of every head.
Action sampleMaskedAction(const Observation &obs, uint64_t &state);

} // namespace rlopt::agent

#endif
