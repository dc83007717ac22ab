//===- Timing.cpp - Interleaved baseline/candidate timing -----------------===//
//
// Baseline and candidate are timed alternately in the same process so that
// frequency scaling, cache state and neighbours' load hit both sides alike;
// the speedup is the ratio of the two medians from one run.
//
//===----------------------------------------------------------------------===//

#include "rlopt/measure/Timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace rlopt::measure {

namespace {

using Clock = std::chrono::steady_clock;

double elapsedMs(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Percentile `p` in [0, 1] of sorted values, interpolating linearly between
/// the closest ranks (numpy's default).
double percentile(const std::vector<double> &sorted, double p) {
  if (sorted.empty())
    return 0;
  double position = p * static_cast<double>(sorted.size() - 1);
  size_t lower = static_cast<size_t>(std::floor(position));
  size_t upper = std::min(lower + 1, sorted.size() - 1);
  double fraction = position - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

/// Per-call time in ms of `calls` back-to-back calls of `fn`.
double timeSample(const std::function<void()> &fn, int calls) {
  auto start = Clock::now();
  for (int i = 0; i < calls; ++i)
    fn();
  return elapsedMs(start) / calls;
}

/// A sample of the slower side may last at most this long, however fast the
/// faster side is.
constexpr double maxSlowSampleMs = 1000;
/// Clock resolution guard for functions that appear to take no time.
constexpr double minCallMs = 1e-6;

} // namespace

SampleStats summarize(std::vector<double> samplesMs) {
  SampleStats stats;
  if (!samplesMs.empty()) {
    std::vector<double> sorted = samplesMs;
    std::sort(sorted.begin(), sorted.end());
    stats.medianMs = percentile(sorted, 0.5);
    double iqr = percentile(sorted, 0.75) - percentile(sorted, 0.25);
    stats.spread = stats.medianMs > 0 ? iqr / stats.medianMs : 0;
  }
  stats.samplesMs = std::move(samplesMs);
  return stats;
}

MultiTiming
timeInterleavedSides(const std::vector<std::function<void()>> &sides,
                     const TimingConfig &config) {
  auto start = Clock::now();
  MultiTiming result;
  if (sides.empty())
    return result;

  // Warm-up, timed only to size the samples. Without warm-up runs, one run of
  // each side still calibrates (and so warms up). The fastest run is the best
  // estimate: the first is often cold.
  std::vector<double> estimates(sides.size(),
                                std::numeric_limits<double>::infinity());
  for (int i = 0, e = std::max(1, config.warmup); i < e; ++i)
    for (size_t s = 0; s < sides.size(); ++s)
      estimates[s] = std::min(estimates[s], timeSample(sides[s], 1));

  // One batch size for all sides keeps them comparable: the fastest side's
  // sample lasts at least minSampleMs, and the slowest side's at most
  // maxSlowSampleMs.
  double faster = std::max(
      minCallMs, *std::min_element(estimates.begin(), estimates.end()));
  double slower = std::max(
      minCallMs, *std::max_element(estimates.begin(), estimates.end()));
  double calls = std::ceil(config.minSampleMs / faster);
  calls = std::min(calls, std::floor(maxSlowSampleMs / slower));
  calls = std::min(calls, static_cast<double>(std::numeric_limits<int>::max()));
  result.callsPerSample = std::max(1, static_cast<int>(calls));

  std::vector<std::vector<double>> samples(sides.size());
  int repetitions = std::max(1, config.repetitions);
  int maxRounds = std::max(1, config.maxRounds);
  while (true) {
    for (int i = 0; i < repetitions; ++i)
      for (size_t s = 0; s < sides.size(); ++s) {
        for (int w = 0; w < config.warmCallsPerSample; ++w)
          sides[s]();
        samples[s].push_back(timeSample(sides[s], result.callsPerSample));
      }
    ++result.rounds;
    result.sides.clear();
    bool quiet = true;
    for (const std::vector<double> &side : samples) {
      result.sides.push_back(summarize(side));
      quiet &= result.sides.back().spread <= config.maxSpread;
    }
    if (quiet || result.rounds >= maxRounds ||
        elapsedMs(start) >= config.budgetMs)
      break;
  }
  return result;
}

InterleavedTiming timeInterleaved(const std::function<void()> &baseline,
                                  const std::function<void()> &candidate,
                                  const TimingConfig &config) {
  MultiTiming timing = timeInterleavedSides({baseline, candidate}, config);
  InterleavedTiming result;
  result.baseline = timing.sides[0];
  result.candidate = timing.sides[1];
  result.rounds = timing.rounds;
  result.callsPerSample = timing.callsPerSample;
  return result;
}

} // namespace rlopt::measure
