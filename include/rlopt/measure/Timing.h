#ifndef RLOPT_MEASURE_TIMING_H
#define RLOPT_MEASURE_TIMING_H

#include <functional>
#include <vector>

namespace rlopt::measure {

/// The timing protocol. Every knob has its default here and in the README.
struct TimingConfig {
  int warmup = 1;          ///< untimed runs of each side before timing
  int repetitions = 7;     ///< timed samples of each side per round
  int maxRounds = 3;       ///< extra rounds while the spread is too high
  double maxSpread = 0.05; ///< relative IQR that triggers a new round
  double minSampleMs =
      2.0;                 ///< calls are batched until a sample lasts this long
  double budgetMs = 20000; ///< stop adding rounds past this total time
  /// Untimed calls of a side right before each of its samples. A thread
  /// pool sleeps while the other sides run; a steady stream of calls, which
  /// a sample stands for, finds it awake.
  int warmCallsPerSample = 0;
};

/// Median and relative spread ((p75 - p25) / median) of one side.
struct SampleStats {
  double medianMs = 0;
  double spread = 0;
  std::vector<double> samplesMs; ///< per-call times, one per sample
};

SampleStats summarize(std::vector<double> samplesMs);

struct InterleavedTiming {
  SampleStats baseline, candidate;
  int rounds = 0;
  int callsPerSample = 1;
  double speedup() const {
    return candidate.medianMs > 0 ? baseline.medianMs / candidate.medianMs : 0;
  }
};

/// Times `baseline` and `candidate` alternately (b, c, b, c, ...) so both see
/// the same machine state; the speedup is a ratio from one run.
InterleavedTiming timeInterleaved(const std::function<void()> &baseline,
                                  const std::function<void()> &candidate,
                                  const TimingConfig &config);

/// Any number of sides, timed in turn (s0, s1, ..., s0, s1, ...); stops
/// when every side's spread is below the limit.
struct MultiTiming {
  std::vector<SampleStats> sides;
  int rounds = 0;
  int callsPerSample = 1;
};
MultiTiming
timeInterleavedSides(const std::vector<std::function<void()>> &sides,
                     const TimingConfig &config);

} // namespace rlopt::measure

#endif
