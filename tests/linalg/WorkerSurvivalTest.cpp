// A hang or a memory blow-up in the measured program ends only the worker:
// measureSchedule reports an error, the test process lives on, and the next
// measurement works.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

/// The address space this process already maps (the forked worker starts
/// with the same), from /proc/self/status.
uint64_t currentAddressSpace() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0)
      return std::stoull(line.substr(7)) * 1024; // in kB
  return 0;
}

/// A small measurement that must succeed after a failed one.
void expectSmallMeasurementWorks(
    const MeasureOptions &options = quickMeasureOptions()) {
  auto small = loadFixture("matmul");
  ASSERT_TRUE(small.ok()) << small.error().message;
  auto schedule = parseSchedule("op1: tile(16,16,16) vectorize");
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  auto result = measureSchedule(*small, *schedule, options);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result->correct);
  EXPECT_GT(result->speedup, 0);
}

TEST(WorkerSurvivalTest, TimeoutIsAnErrorAndTheNextMeasurementWorks) {
  // The naive 1024^3 matmul runs for seconds; the worker gets 0.3 s.
  auto program = loadFixture("big_matmul");
  ASSERT_TRUE(program.ok()) << program.error().message;
  MeasureOptions options = quickMeasureOptions();
  options.limits.timeoutSeconds = 0.3;
  auto result = measureSchedule(*program, Schedule{}, options);
  ASSERT_FALSE(result.ok()) << "a 1024^3 naive matmul finished in 0.3 s?";
  EXPECT_NE(result.error().message.find("timed out"), std::string::npos)
      << result.error().message;
  expectSmallMeasurementWorks();
}

TEST(WorkerSurvivalTest, MemoryLimitIsAnErrorAndTheNextMeasurementWorks) {
  // Two 64 MiB inputs, a copy of each per side and the outputs: 512 MiB of
  // buffers, past a limit of 300 MiB more than this process maps already
  // (the worker is a fork of it). A small program fits in that limit.
  uint64_t base = currentAddressSpace();
  ASSERT_GT(base, 0u);
  MeasureOptions options = quickMeasureOptions();
  options.limits.memoryBytes = base + (300ull << 20);
  expectSmallMeasurementWorks(options);

  auto program = loadFixture("big_add");
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto result = measureSchedule(*program, Schedule{}, options);
  ASSERT_FALSE(result.ok()) << "512 MiB of buffers fit in 300 MiB?";
  RecordProperty("error", result.error().message);
  EXPECT_FALSE(result.error().message.empty());
  EXPECT_NE(result.error().message.find("worker"), std::string::npos)
      << result.error().message;
  expectSmallMeasurementWorks();
}

TEST(WorkerSurvivalTest, BigProgramRunsWithTheDefaultLimits) {
  // The same program measures fine without the tight limit, so the error
  // above comes from the limit, not from the program.
  auto program = loadFixture("big_add");
  ASSERT_TRUE(program.ok()) << program.error().message;
  MeasureOptions options = quickMeasureOptions();
  options.timing.warmup = 0;
  auto schedule = parseSchedule("op0: parallelize(1024,0)");
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  auto result = measureSchedule(*program, *schedule, options);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result->correct);
}

// A tensor that does not fit under the worker's memory limit is reported as
// memory, not as a crash.
TEST(WorkerSurvivalTest, MemoryLimitErrorNamesMemory) {
  uint64_t base = currentAddressSpace();
  ASSERT_GT(base, 0u);
  MeasureOptions options = quickMeasureOptions();
  options.limits.memoryBytes = base + (300ull << 20);
  auto program = loadFixture("big_add");
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto result = measureSchedule(*program, Schedule{}, options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("memory"), std::string::npos)
      << result.error().message;
}

} // namespace
