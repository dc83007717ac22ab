// Latencies of the Linalg environment's building blocks (Google Benchmark).
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Executor.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Lowering.h"
#include "rlopt/linalg/Measurement.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace rlopt;
using namespace rlopt::linalg;

static const std::string kMatmul =
    std::string(RLOPT_DATA) + "/examples/matmul_256.mlir";
static const char *kSchedule = "op1: tile(128,64,128) tile(4,16,1) vectorize";

static Program load(mlir::MLIRContext &context) {
  auto program = loadProgram(context, kMatmul);
  if (!program) {
    fprintf(stderr, "%s\n", program.error().message.c_str());
    std::exit(1);
  }
  return program.takeValue();
}

/// One environment step: a tile action applied and the features updated.
static void BM_EnvStep(benchmark::State &state) {
  EnvConfig config;
  LinalgEnv env(config);
  Observation obs = env.reset({kMatmul}, 0);
  Action tile;
  tile.values.assign(obs.masks.size(), 0); // head 0 = 0: tile
  tile.values[env.tileHead(0)] = 5;        // 16
  tile.values[env.tileHead(1)] = 6;        // 32
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<Env> branch = env.fork();
    state.ResumeTiming();
    StepResult r = branch->step(tile);
    benchmark::DoNotOptimize(r.obs.features.data());
  }
}
BENCHMARK(BM_EnvStep)->Unit(benchmark::kMicrosecond);

/// The transform interpreter applying a 3-step schedule in-process.
static void BM_ApplySchedule(benchmark::State &state) {
  auto context = createContext();
  Program program = load(*context);
  Schedule schedule = *parseSchedule(kSchedule);
  for (auto _ : state) {
    auto applied = applySchedule(program, schedule);
    benchmark::DoNotOptimize(applied.ok());
  }
}
BENCHMARK(BM_ApplySchedule)->Unit(benchmark::kMillisecond);

/// Lowering of the scheduled program to LLVM and JIT compilation at -O3.
static void BM_LowerAndJit(benchmark::State &state) {
  auto context = createContext();
  Program program = load(*context);
  Schedule schedule = *parseSchedule(kSchedule);
  Signature sig = signatureOf(program.entry());
  for (auto _ : state) {
    auto applied = applySchedule(program, schedule);
    auto lowered = lowerToLLVM(**applied);
    auto kernel = JitKernel::compile(**applied, sig);
    benchmark::DoNotOptimize(kernel.ok() && lowered.ok());
  }
}
BENCHMARK(BM_LowerAndJit)->Unit(benchmark::kMillisecond);

/// A full measured evaluation of a 256^3 f32 matmul candidate: worker,
/// lowering and JIT of both sides, output check, interleaved timing.
static void BM_MeasureMatmul256(benchmark::State &state) {
  auto context = createContext();
  Program program = load(*context);
  Schedule schedule = *parseSchedule(kSchedule);
  MeasureOptions options;
  for (auto _ : state) {
    auto m = measureSchedule(program, schedule, options, nullptr);
    if (!m || !m->correct)
      state.SkipWithError("measurement failed");
  }
}
BENCHMARK(BM_MeasureMatmul256)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
