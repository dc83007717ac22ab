// The graph environment's step latency per pass on a real training graph
// (the torch-xla BERT step, 2,495 instructions), and the reference
// interpreter's time on the largest graphs it evaluates.
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/Interpreter.h"
#include "rlopt/graph/Parser.h"

#include <benchmark/benchmark.h>

using namespace rlopt;
using namespace rlopt::graph;

namespace {

const char *kBert = "hlo://torch_xla_neuron/baseline_bert_0";

/// One step with pass `index` from the start state; the fork that gives
/// every iteration the same start is not timed.
void stepPass(benchmark::State &state, int index) {
  GraphEnvConfig config;
  config.graphDir = RLOPT_DATA "/hlo";
  config.episodeLength = 1 << 30;
  auto env = GraphEnv::create(config);
  if (!env || !(*env)->tryReset({kBert}, 0)) {
    state.SkipWithError("cannot start the BERT graph");
    return;
  }
  bool changed = false;
  for (auto _ : state) {
    state.PauseTiming();
    auto trial = (*env)->fork();
    state.ResumeTiming();
    StepResult step = trial->step(Action{{index}});
    state.PauseTiming();
    changed = step.info.value("changed", false);
    trial.reset();
    state.ResumeTiming();
  }
  state.SetLabel(changed ? "changes the graph" : "no change");
}

void interpret(benchmark::State &state, const std::string &path) {
  auto module = parseModuleFile(path);
  if (!module) {
    state.SkipWithError(module.error().message.c_str());
    return;
  }
  auto arguments = randomArguments(*module, 0);
  if (!arguments) {
    state.SkipWithError(arguments.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    auto result = evaluate(*module, *arguments);
    if (!result) {
      state.SkipWithError(result.error().message.c_str());
      return;
    }
  }
  state.SetLabel(std::to_string(module->instructionCount()) + " instructions");
}

} // namespace

int main(int argc, char **argv) {
  const auto &passes = graphPasses();
  for (size_t i = 0; i < passes.size(); ++i)
    benchmark::RegisterBenchmark(
        ("BM_Step/" + passes[i].name).c_str(),
        [i](benchmark::State &state) { stepPass(state, static_cast<int>(i)); })
        ->Unit(benchmark::kMillisecond);
  for (const char *name :
       {"torch_xla_neuron/baseline_bert_0.hlo",
        "torch_xla_neuron/gpt2_tp-1.hlo",
        "torch_xla_neuron/bert-large-uncased-dp-tp-fwd-bwd.hlo"})
    benchmark::RegisterBenchmark(
        (std::string("BM_Interpret/") + name).c_str(),
        [name](benchmark::State &state) {
          interpret(state, std::string(RLOPT_DATA "/hlo/") + name);
        })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
