// Shared helpers for the linalg tests: one MLIRContext per test binary and
// fixture loading from tests/data.
#ifndef RLOPT_TESTS_LINALG_LINALGTESTUTIL_H
#define RLOPT_TESTS_LINALG_LINALGTESTUTIL_H

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Transformation.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

#include <unistd.h>

namespace rlopt::linalg::testing {

/// One context for the whole binary: creating one loads every dialect, and
/// it has multithreading disabled, so the measurement worker may fork.
inline mlir::MLIRContext &sharedContext() {
  static std::unique_ptr<mlir::MLIRContext> context = createContext();
  return *context;
}

inline std::string fixturePath(const std::string &name) {
  return std::string(RLOPT_TEST_DATA) + "/" + name + ".mlir";
}

/// Loads tests/data/<name>.mlir; a fixture that does not load is a test
/// failure (reported by the caller's ASSERT on the result).
inline Result<Program> loadFixture(const std::string &name,
                                   const LoadOptions &options = {}) {
  return loadProgram(sharedContext(), fixturePath(name), options);
}

/// One warm-up and one timed round: the tests check what a measurement
/// says, not how fast anything runs.
inline MeasureOptions quickMeasureOptions(int threads = 1) {
  MeasureOptions options;
  options.threads = threads;
  options.timing.warmup = 1;
  options.timing.repetitions = 1;
  options.timing.maxRounds = 1;
  options.timing.minSampleMs = 0.1;
  options.limits.timeoutSeconds = 60;
  return options;
}

inline std::string printed(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

inline int countOccurrences(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + what.size()))
    ++n;
  return n;
}

/// Why `schedule` does not apply to fixture `name` ("" if it does), and the
/// state of op `opIndex` after it.
struct ScheduleOutcome {
  std::string refusal;
  std::vector<int64_t> ranges;
  std::vector<bool> isReduction;
};

inline ScheduleOutcome applyToFixture(const std::string &name,
                                      const std::string &schedule,
                                      unsigned opIndex,
                                      TransformLimits limits = {}) {
  auto program = loadFixture(name);
  EXPECT_TRUE(program.ok()) << program.error().message;
  ScheduleState state(program->ops, limits);
  auto parsed = parseSchedule(schedule);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  Status status = applySchedule(state, *parsed);
  const OpState &op = state.ops[opIndex];
  return {status ? "" : status.error().message, op.ranges, op.isReduction};
}

/// The transform-dialect script of `schedule` on fixture `name`; a schedule
/// that does not apply is a test failure.
inline std::string transformScriptFor(const std::string &name,
                                      const std::string &schedule) {
  auto program = loadFixture(name);
  EXPECT_TRUE(program.ok()) << program.error().message;
  ScheduleState state(program->ops);
  auto parsed = parseSchedule(schedule);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  Status status = applySchedule(state, *parsed);
  EXPECT_TRUE(status.ok()) << status.error().message;
  return state.transformScript();
}

/// A fixture and a schedule for it, as parameterized tests take them.
using FixtureSchedule = std::pair<const char *, const char *>;

/// The schedule measures on the fixture, correct, at 1 and 2 threads.
inline void expectMeasuresCorrectOnOneAndTwoThreads(const FixtureSchedule &c) {
  auto program = loadFixture(c.first);
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto parsed = parseSchedule(c.second);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  for (int threads : {1, 2}) {
    auto measured =
        measureSchedule(*program, *parsed, quickMeasureOptions(threads));
    ASSERT_TRUE(measured.ok()) << measured.error().message;
    EXPECT_TRUE(measured->correct) << "max abs error " << measured->maxAbsError
                                   << " with " << threads << " threads";
  }
}

/// A CPU with `registers` vector registers of `lanes` floats and a 1 MiB L2.
inline measure::CpuTarget cpu(int lanes, int registers) {
  measure::CpuTarget target;
  target.f32Lanes = lanes;
  target.vectorRegisters = registers;
  target.l2Bytes = 1 << 20;
  return target;
}

/// The heuristic's schedule of fixture `name` for `target`, with the
/// opt-in transformations `extras`.
inline std::string heuristicText(const std::string &name,
                                 const measure::CpuTarget &target,
                                 std::vector<std::string> extras) {
  auto program = loadFixture(name);
  EXPECT_TRUE(program.ok()) << program.error().message;
  HeuristicOptions options;
  options.target = target;
  options.extraTransformations = std::move(extras);
  return heuristicSchedule(*program, options).str();
}

/// An environment config that offers the opt-in transformation `extra`,
/// measures quickly, and keeps a measurement cache of its own, removed
/// when the config goes.
struct ExtraEnvConfig {
  explicit ExtraEnvConfig(const std::string &extra) {
    config.extraTransformations = {extra};
    config.measure = quickMeasureOptions(1);
    config.cachePath =
        (std::filesystem::temp_directory_path() /
         ("rlopt-" + extra + "-test-" + std::to_string(getpid()) + ".sqlite"))
            .string();
  }
  ~ExtraEnvConfig() {
    for (const char *suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(config.cachePath + suffix);
  }
  /// The tile heads' index of `size`.
  int64_t sizeIndex(int64_t size) const {
    const std::vector<int64_t> &sizes = config.tileSizes;
    return std::find(sizes.begin(), sizes.end(), size) - sizes.begin();
  }
  /// The action that applies transformation `type` to the env's current
  /// op, with tile head i set to `sizes[i]` (the others choose size 0).
  Action action(const LinalgEnv &env, const std::string &type,
                const std::vector<int64_t> &sizes = {}) const {
    Action action{std::vector<int64_t>(env.numHeads(), 0)};
    action.values[0] = env.typeIndex(type);
    for (size_t level = 0; level < sizes.size(); ++level)
      action.values[env.tileHead(level)] = sizeIndex(sizes[level]);
    return action;
  }
  EnvConfig config;
};

} // namespace rlopt::linalg::testing

#endif
