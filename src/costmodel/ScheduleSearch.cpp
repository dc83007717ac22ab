#include "rlopt/costmodel/ScheduleSearch.h"

#include "rlopt/linalg/ScheduleFeatures.h"
#include "rlopt/linalg/ScheduleMutation.h"

#include <algorithm>
#include <optional>
#include <random>
#include <set>

namespace rlopt::costmodel {

namespace {

/// The distinct schedules found so far with their scores.
class Pool {
public:
  Pool(const linalg::Program &program, const SearchOptions &options)
      : program(program), options(options), rng(options.seed) {}

  /// Scores and adds the schedules not seen before.
  Status add(const std::vector<linalg::Schedule> &schedules) {
    std::vector<linalg::Schedule> fresh;
    std::vector<std::vector<float>> rows;
    for (const linalg::Schedule &schedule : schedules) {
      if (!seen.insert(schedule.str()).second)
        continue;
      auto features = linalg::scheduleFeatures(program, schedule);
      if (!features)
        continue;
      fresh.push_back(schedule);
      rows.push_back(std::move(*features));
    }
    std::vector<double> scores(fresh.size());
    if (options.model) {
      auto predicted = options.model->predict(rows);
      if (!predicted)
        return predicted.error();
      scores = *predicted;
    } else {
      std::uniform_real_distribution<double> uniform(0, 1);
      for (double &score : scores)
        score = uniform(rng);
    }
    for (size_t i = 0; i < fresh.size(); ++i)
      candidates.push_back({std::move(fresh[i]), scores[i]});
    return Status::success();
  }

  /// Candidates by score, best first.
  std::vector<Candidate> ranked() const {
    std::vector<Candidate> sorted = candidates;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Candidate &a, const Candidate &b) {
                       return a.score > b.score;
                     });
    return sorted;
  }

  std::mt19937_64 &random() { return rng; }

private:
  const linalg::Program &program;
  const SearchOptions &options;
  std::mt19937_64 rng;
  std::set<std::string> seen;
  std::vector<Candidate> candidates;
};

/// The fastest of several noisy samples is, on average, a lucky one: a
/// winner other than the heuristic's schedule is measured once more, and
/// kept only if this fresh sample still beats the heuristic's. Both samples
/// compared are then unbiased, where the winner's first was chosen for
/// being high.
void confirmWinner(const linalg::Program &program, const Candidate &heuristic,
                   const linalg::Measurement &heuristicMeasurement,
                   const linalg::MeasureOptions &measure, measure::Cache *cache,
                   SearchResult &result) {
  linalg::MeasureOptions fresh = measure;
  fresh.freshSample = true;
  auto again = linalg::measureSchedule(program, result.schedule, fresh, cache);
  ++result.measured;
  if (again && again->correct &&
      again->speedup >= heuristicMeasurement.speedup) {
    result.measurement = *again;
    return;
  }
  if (!again || !again->correct)
    ++result.failed;
  result.schedule = heuristic.schedule;
  result.measurement = heuristicMeasurement;
  result.keptHeuristic = true;
}

} // namespace

Result<std::vector<Candidate>> proposeCandidates(const linalg::Program &program,
                                                 const SearchOptions &options) {
  Pool pool(program, options);
  std::vector<linalg::Schedule> seeds =
      linalg::heuristicVariants(program, options.heuristic);
  if (Status added = pool.add(seeds); !added)
    return added.error();
  if (Status added = pool.add(options.proposals); !added)
    return added.error();
  for (int generation = 0; generation < options.generations; ++generation) {
    std::vector<Candidate> ranked = pool.ranked();
    size_t parents =
        std::min(ranked.size(), static_cast<size_t>(options.parents));
    if (parents == 0)
      break;
    std::vector<linalg::Schedule> children;
    for (int i = 0; i < options.population; ++i) {
      const linalg::Schedule &parent =
          ranked[std::uniform_int_distribution<size_t>(0, parents -
                                                              1)(pool.random())]
              .schedule;
      // One or two changes: single steps leave some neighbours unreachable
      // (a tile that only pays off with another loop order).
      auto child = linalg::mutateSchedule(program, parent, pool.random());
      if (child && std::bernoulli_distribution(0.5)(pool.random()))
        if (auto again = linalg::mutateSchedule(program, *child, pool.random()))
          child = again;
      if (child)
        children.push_back(std::move(*child));
    }
    if (Status added = pool.add(children); !added)
      return added.error();
  }

  std::vector<Candidate> ranked = pool.ranked();
  std::string heuristic = seeds.empty() ? "" : seeds.front().str();
  std::string greedy =
      options.proposals.empty() ? "" : options.proposals.front().str();
  std::stable_partition(ranked.begin(), ranked.end(), [&](const Candidate &c) {
    return c.schedule.str() == heuristic;
  });
  bool heuristicFirst =
      !ranked.empty() && ranked.front().schedule.str() == heuristic;
  auto afterHeuristic = ranked.begin() + (heuristicFirst ? 1 : 0);
  std::stable_partition(afterHeuristic, ranked.end(), [&](const Candidate &c) {
    return c.schedule.str() == greedy;
  });
  return ranked;
}

Result<SearchResult> searchSchedule(const linalg::Program &program,
                                    const SearchOptions &options,
                                    const linalg::MeasureOptions &measure,
                                    measure::Cache *cache) {
  auto candidates = proposeCandidates(program, options);
  if (!candidates)
    return candidates.error();
  SearchResult result;
  std::string lastError = "no candidate schedule";
  bool found = false;
  std::optional<linalg::Measurement> heuristic;
  // One measurement is kept back to confirm a winner other than the
  // heuristic's schedule (see below).
  int exploring = options.budget > 1 ? options.budget - 1 : options.budget;
  // Schedules that lower to code measured in this search already (the
  // cache answers them) do not use up the budget.
  std::set<std::string> lowered;
  for (size_t i = 0; i < candidates->size(); ++i) {
    const Candidate &candidate = (*candidates)[i];
    if (result.measured >= exploring)
      break;
    auto m =
        linalg::measureSchedule(program, candidate.schedule, measure, cache);
    if (m && !lowered.insert(m->programHash).second)
      continue;
    ++result.measured;
    if (!m || !m->correct) {
      ++result.failed;
      lastError = m ? "wrong result (outputs differ from the baseline's)"
                    : m.error().message;
      continue;
    }
    if (i == 0)
      heuristic = *m;
    if (!found || m->speedup > result.measurement.speedup) {
      found = true;
      result.schedule = candidate.schedule;
      result.measurement = *m;
    }
  }
  if (!found)
    return makeError(lastError);
  const Candidate &first = candidates->front();
  if (heuristic && result.schedule.str() != first.schedule.str() &&
      result.measured < options.budget)
    confirmWinner(program, first, *heuristic, measure, cache, result);
  return result;
}

} // namespace rlopt::costmodel
