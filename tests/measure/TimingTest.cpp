#include "rlopt/measure/Timing.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

using namespace rlopt::measure;

namespace {

void spinFor(std::chrono::microseconds duration) {
  auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// Times two sides of 100 us each, appending 'b' to `trace` for each call
/// of the baseline and 'c' for each call of the candidate.
InterleavedTiming tracedTiming(const TimingConfig &config, std::string &trace) {
  return timeInterleaved(
      [&] {
        trace += 'b';
        spinFor(std::chrono::microseconds(100));
      },
      [&] {
        trace += 'c';
        spinFor(std::chrono::microseconds(100));
      },
      config);
}

TEST(TimingTest, SummarizeOddCount) {
  // Sorted: 1 2 3 4 5 -> p25 = 2, median = 3, p75 = 4.
  SampleStats stats = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(stats.medianMs, 3);
  EXPECT_DOUBLE_EQ(stats.spread, (4.0 - 2.0) / 3.0);
  // The samples keep their chronological order.
  EXPECT_EQ(stats.samplesMs, (std::vector<double>{5, 1, 4, 2, 3}));
}

TEST(TimingTest, SummarizeInterpolatesPercentiles) {
  // Sorted: 1 2 4 8; positions 0.75, 1.5, 2.25.
  SampleStats stats = summarize({8, 1, 4, 2});
  EXPECT_DOUBLE_EQ(stats.medianMs, 3);
  double p25 = 1 + 0.75 * (2 - 1);
  double p75 = 4 + 0.25 * (8 - 4);
  EXPECT_DOUBLE_EQ(stats.spread, (p75 - p25) / 3);
}

TEST(TimingTest, SummarizeConstantAndEmpty) {
  SampleStats constant = summarize({2.5, 2.5, 2.5});
  EXPECT_DOUBLE_EQ(constant.medianMs, 2.5);
  EXPECT_DOUBLE_EQ(constant.spread, 0);

  SampleStats single = summarize({7});
  EXPECT_DOUBLE_EQ(single.medianMs, 7);
  EXPECT_DOUBLE_EQ(single.spread, 0);

  SampleStats empty = summarize({});
  EXPECT_DOUBLE_EQ(empty.medianMs, 0);
  EXPECT_DOUBLE_EQ(empty.spread, 0);
  EXPECT_TRUE(empty.samplesMs.empty());
}

TEST(TimingTest, SidesAlternateSampleBySample) {
  std::string trace;
  TimingConfig config;
  config.warmup = 2;
  config.repetitions = 3;
  config.maxRounds = 2;
  config.maxSpread = -1; // Never quiet enough: run every round.
  config.minSampleMs = 0.5;
  InterleavedTiming timing = tracedTiming(config, trace);

  ASSERT_EQ(timing.rounds, 2);
  ASSERT_GE(timing.callsPerSample, 1);
  std::string expected = "bcbc"; // Warm-up.
  std::string baselineSample(timing.callsPerSample, 'b');
  std::string candidateSample(timing.callsPerSample, 'c');
  for (int i = 0; i < config.repetitions * timing.rounds; ++i)
    expected += baselineSample + candidateSample;
  EXPECT_EQ(trace, expected);
  EXPECT_EQ(timing.baseline.samplesMs.size(), 6u);
  EXPECT_EQ(timing.candidate.samplesMs.size(), 6u);
}

TEST(TimingTest, WarmCallsPrecedeEachSampleUntimed) {
  std::string trace;
  TimingConfig config;
  config.warmup = 1;
  config.repetitions = 2;
  config.maxRounds = 1;
  config.minSampleMs = 0.5;
  config.warmCallsPerSample = 1;
  InterleavedTiming timing = tracedTiming(config, trace);

  ASSERT_GE(timing.callsPerSample, 1);
  std::string expected = "bc"; // Warm-up.
  std::string baselineSample(timing.callsPerSample + 1, 'b');
  std::string candidateSample(timing.callsPerSample + 1, 'c');
  for (int i = 0; i < config.repetitions; ++i)
    expected += baselineSample + candidateSample;
  EXPECT_EQ(trace, expected);
  EXPECT_EQ(timing.baseline.samplesMs.size(), 2u);
}

TEST(TimingTest, QuietResultStopsAfterOneRound) {
  TimingConfig config;
  config.maxRounds = 5;
  config.maxSpread = 1e9;
  config.minSampleMs = 0.01;
  int baselineCalls = 0, candidateCalls = 0;
  InterleavedTiming timing = timeInterleaved([&] { ++baselineCalls; },
                                             [&] { ++candidateCalls; }, config);
  EXPECT_EQ(timing.rounds, 1);
  EXPECT_EQ(baselineCalls, candidateCalls);
  EXPECT_EQ(timing.baseline.samplesMs.size(),
            static_cast<size_t>(config.repetitions));
}

TEST(TimingTest, BudgetStopsAddingRounds) {
  TimingConfig config;
  config.maxRounds = 50;
  config.maxSpread = -1;
  config.budgetMs = 0;
  config.minSampleMs = 0.01;
  InterleavedTiming timing = timeInterleaved([] {}, [] {}, config);
  EXPECT_EQ(timing.rounds, 1);
}

TEST(TimingTest, LessWorkIsASpeedup) {
  TimingConfig config;
  config.repetitions = 5;
  config.maxRounds = 2;
  config.budgetMs = 5000;
  InterleavedTiming timing =
      timeInterleaved([] { spinFor(std::chrono::microseconds(2000)); },
                      [] { spinFor(std::chrono::microseconds(200)); }, config);
  EXPECT_GT(timing.speedup(), 3)
      << "baseline " << timing.baseline.medianMs << " ms, candidate "
      << timing.candidate.medianMs << " ms";
  EXPECT_GE(timing.baseline.medianMs, 2.0);
  EXPECT_GE(timing.candidate.medianMs, 0.2);
}

} // namespace
