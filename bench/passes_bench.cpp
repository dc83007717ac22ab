// Latencies of the LLVM pass-ordering environment, to set against
// CompilerGym's published figures: reset, fork, step and observations on a
// small and a large bundled program.
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassesEnv.h"

#include <benchmark/benchmark.h>

#include <random>

using namespace rlopt;
using namespace rlopt::passes;

namespace {

/// A small and a large bundled program.
const char *programUri(int64_t which) {
  return which == 0 ? "benchmark://rlopt-v0/crc32"
                    : "benchmark://rlopt-v0/large_lisp";
}

std::unique_ptr<PassesEnv> startedEnv(benchmark::State &state) {
  BenchmarkSources sources;
  sources.dataDir = RLOPT_DATA;
  PassesEnvConfig config;
  config.episodeLength = 1 << 30;
  auto env = PassesEnv::create(config, sources);
  if (!env) {
    state.SkipWithError(env.error().message.c_str());
    return nullptr;
  }
  auto started = (*env)->tryReset({programUri(state.range(0))}, 0);
  if (!started) {
    state.SkipWithError(started.error().message.c_str());
    return nullptr;
  }
  state.SetLabel(programUri(state.range(0)));
  state.counters["instructions"] =
      static_cast<double>(*(*env)->metric("IrInstructionCount"));
  return env.takeValue();
}

void BM_Reset(benchmark::State &state) {
  auto env = startedEnv(state);
  if (!env)
    return;
  for (auto _ : state)
    benchmark::DoNotOptimize(env->tryReset({programUri(state.range(0))}, 0));
}

void BM_Fork(benchmark::State &state) {
  auto env = startedEnv(state);
  if (!env)
    return;
  for (auto _ : state)
    benchmark::DoNotOptimize(env->fork());
}

/// One step with a uniformly random pass, on a fresh fork of the start
/// state each time (the fork is not timed).
void BM_StepRandomPass(benchmark::State &state) {
  auto env = startedEnv(state);
  if (!env)
    return;
  std::mt19937 rng(0);
  std::uniform_int_distribution<int64_t> pass(0, passActions().size() - 1);
  for (auto _ : state) {
    state.PauseTiming();
    auto trial = env->fork();
    Action action{{pass(rng)}};
    state.ResumeTiming();
    benchmark::DoNotOptimize(trial->step(action));
    state.PauseTiming();
    trial.reset();
    state.ResumeTiming();
  }
}

void observe(benchmark::State &state, const char *space) {
  auto env = startedEnv(state);
  if (!env)
    return;
  for (auto _ : state)
    benchmark::DoNotOptimize(env->observe(space));
}

void BM_ObserveIr(benchmark::State &state) { observe(state, "Ir"); }
void BM_ObserveInstCount(benchmark::State &state) {
  observe(state, "InstCount");
}
void BM_ObserveAutophase(benchmark::State &state) {
  observe(state, "Autophase");
}
void BM_ObserveObjectTextSize(benchmark::State &state) {
  observe(state, "ObjectTextSizeBytes");
}

} // namespace

BENCHMARK(BM_Reset)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fork)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StepRandomPass)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObserveIr)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObserveInstCount)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObserveAutophase)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObserveObjectTextSize)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
