// HLO text parsing and printing on the largest bundled graphs: the BERT
// training step from torch-xla (2,495 instructions, 770 KB) and the largest
// JAX dump (NuX loss, 9,468 instructions, 2.1 MB). Cost analysis and op
// counts, which the graph environment recomputes after every pass, too.
#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/OpCount.h"
#include "rlopt/graph/Parser.h"
#include "rlopt/graph/Printer.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

using namespace rlopt;

namespace {

const char *const kGraphs[] = {
    RLOPT_DATA "/hlo/torch_xla_neuron/baseline_bert_0.hlo",
    RLOPT_DATA "/hlo/jax/NuX/"
               "1648647409115717.module_0337.jit_loss.9581.before_"
               "optimizations.txt",
};

std::string readGraph(int64_t index) {
  std::ifstream in(kGraphs[index], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void setLabel(benchmark::State &state, const graph::Module &module,
              size_t bytes) {
  state.SetLabel(module.name() + ", " +
                 std::to_string(module.instructionCount()) + " instructions");
  if (bytes > 0)
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
  state.counters["instructions"] = benchmark::Counter(
      double(module.instructionCount()) * double(state.iterations()),
      benchmark::Counter::kIsRate);
}

void BM_Parse(benchmark::State &state) {
  std::string text = readGraph(state.range(0));
  auto module = graph::parseModule(text, kGraphs[state.range(0)]);
  if (!module) {
    state.SkipWithError(module.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    auto parsed = graph::parseModule(text);
    benchmark::DoNotOptimize(parsed.ok());
  }
  setLabel(state, *module, text.size());
}

void BM_Print(benchmark::State &state) {
  std::string text = readGraph(state.range(0));
  auto module = graph::parseModule(text, kGraphs[state.range(0)]);
  if (!module) {
    state.SkipWithError(module.error().message.c_str());
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string printed = graph::printModule(*module);
    bytes = printed.size();
    benchmark::DoNotOptimize(printed.data());
  }
  setLabel(state, *module, bytes);
}

void BM_CostAndOpCounts(benchmark::State &state) {
  auto module = graph::parseModule(readGraph(state.range(0)));
  if (!module) {
    state.SkipWithError(module.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    auto cost = graph::analyzeCost(*module);
    graph::OpCounts counts = graph::countModuleOps(*module);
    benchmark::DoNotOptimize(cost.ok());
    benchmark::DoNotOptimize(counts.total);
  }
  setLabel(state, *module, 0);
}

} // namespace

BENCHMARK(BM_Parse)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Print)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CostAndOpCounts)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
