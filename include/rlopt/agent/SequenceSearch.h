#ifndef RLOPT_AGENT_SEQUENCESEARCH_H
#define RLOPT_AGENT_SEQUENCESEARCH_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"

#include <functional>
#include <vector>

namespace rlopt::agent {

/// The best action sequence a search found, counted from reset. For
/// pass-ordering environments any prefix of an episode is a valid result,
/// so the best prefix is kept, not only whole episodes.
struct SequenceResult {
  std::vector<Action> actions;
  double reward = 0;  ///< summed reward of `actions`
  long steps = 0;     ///< environment steps the search took
  long episodes = 0;  ///< episodes (random) or greedy rounds
  double seconds = 0; ///< wall time of the search
};

/// Stops a search at whichever limit is reached first; 0 = no limit.
struct SearchBudget {
  long maxEpisodes = 0;
  double maxSeconds = 0;
};

/// Called after each episode or round with the best result so far.
using SearchProgress = std::function<void(const SequenceResult &)>;

/// Random search (CompilerGym's baseline): uniformly random unmasked
/// actions for whole episodes until the budget is spent.
Result<SequenceResult>
randomSequenceSearch(Env &env, const BenchmarkRef &benchmark,
                     const SearchBudget &budget, uint64_t seed,
                     const SearchProgress &progress = nullptr);

/// Greedy search: at every step, tries each unmasked action on a fork and
/// takes the one with the highest reward; stops when none is positive or
/// the episode ends. Needs a single-head action space.
Result<SequenceResult> greedySearch(Env &env, const BenchmarkRef &benchmark,
                                    int maxSteps,
                                    const SearchProgress &progress = nullptr);

/// Replays `actions` from reset; returns the summed reward, or the first
/// step error.
Result<double> replayActions(Env &env, const BenchmarkRef &benchmark,
                             const std::vector<Action> &actions);

} // namespace rlopt::agent

#endif
