#ifndef RLOPT_COSTMODEL_SCHEDULESEARCH_H
#define RLOPT_COSTMODEL_SCHEDULESEARCH_H

#include "rlopt/costmodel/CostModel.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Measurement.h"

#include <string>
#include <vector>

namespace rlopt::costmodel {

struct SearchOptions {
  int budget = 8;       ///< schedules measured
  int generations = 4;  ///< rounds of mutation
  int population = 128; ///< mutants drawn per round
  int parents = 16;     ///< best-scored schedules mutated each round
  uint64_t seed = 0;
  linalg::HeuristicOptions heuristic;
  /// Scores candidates; null: candidates are measured in random order (how
  /// a first cost model's training data is gathered).
  const CostModel *model = nullptr;
  /// A policy's schedules, its greedy one first (proposePolicySchedules):
  /// they join the population and are mutated like the heuristic's, and the
  /// greedy one is measured right after the heuristic's.
  std::vector<linalg::Schedule> proposals;
};

struct Candidate {
  linalg::Schedule schedule;
  double score = 0;
};

/// Evolutionary search without measuring, as Ansor's: the heuristic's
/// schedules for nearby machines seed a population; each round mutates the
/// best-scored and keeps every distinct schedule that applies. Returns
/// every candidate found, best-scored first, except that the host's
/// heuristic schedule always comes first, and the policy's greedy schedule
/// (the first proposal) second: search never measures worse than either.
Result<std::vector<Candidate>> proposeCandidates(const linalg::Program &program,
                                                 const SearchOptions &options);

struct SearchResult {
  linalg::Schedule schedule; ///< the fastest correct one measured
  linalg::Measurement measurement;
  int measured = 0; ///< candidates measured
  int failed = 0;   ///< of them, wrong or not measurable
  /// The best other schedule did not beat the heuristic's when measured
  /// again, so the heuristic's was kept.
  bool keptHeuristic = false;
};

/// proposeCandidates, then measures them in order until `budget` - 1
/// distinct programs were measured (schedules that lower to the same code
/// count once) and keeps the fastest correct. The last measurement confirms
/// a winner other than the heuristic's schedule: it is measured again,
/// without the cache, and kept only if it still beats the heuristic's.
Result<SearchResult> searchSchedule(const linalg::Program &program,
                                    const SearchOptions &options,
                                    const linalg::MeasureOptions &measure,
                                    measure::Cache *cache);

} // namespace rlopt::costmodel

#endif
