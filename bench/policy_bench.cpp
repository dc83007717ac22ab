// Policy inference latency: one act() call chooses one action head set for
// one op state, so an op of k steps costs k calls.
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <benchmark/benchmark.h>

using namespace rlopt;

static void BM_PolicyAct(benchmark::State &state) {
  linalg::EnvConfig config;
  linalg::ActionLayout layout = linalg::LinalgEnv(config).actionLayout();
  agent::PolicyConfig policyConfig; // the paper's sizes: LSTM 512, 3 x 512
  agent::LinalgPolicy policy(layout, policyConfig);
  int64_t batch = state.range(0);
  torch::Tensor obs = torch::rand({batch, layout.observationSize()});
  int64_t maskWidth = 0;
  for (int64_t size : policy.headSizes())
    maskWidth += size;
  torch::Tensor masks = torch::ones({batch, maskWidth}, torch::kUInt8);
  for (auto _ : state) {
    auto out = policy.act(obs, masks, /*greedy=*/false);
    benchmark::DoNotOptimize(out.actions.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_PolicyAct)->Arg(1)->Arg(2)->Arg(64)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
