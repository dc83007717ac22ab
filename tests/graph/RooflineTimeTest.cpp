// The run time estimated on a roofline: bytes accessed by hand-written
// modules, compute- and memory-bound ops, calls timed like their bodies,
// and the graph env's RooflineTime rewards.
#include "GraphTestUtil.h"

#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/graph/GraphPass.h"

using namespace rlopt;
using namespace rlopt::graph;
using rlopt::graph::testing::bundledGraphs;
using rlopt::graph::testing::parseOk;

namespace {

/// 1 GFLOP/s and 1 GB/s: a flop and a byte each take a nanosecond.
constexpr Roofline kUnit{1, 1};

double secondsOf(const std::string &text, Roofline roofline = kUnit) {
  Module module = parseOk(text);
  auto seconds = estimateSeconds(module, roofline);
  EXPECT_TRUE(seconds.ok()) << seconds.error().message;
  return seconds ? *seconds : -1;
}

const Instruction *find(const Module &module, const std::string &name) {
  for (const auto &instruction : module.entry()->instructions())
    if (instruction->name() == name)
      return instruction.get();
  ADD_FAILURE() << name << " not found";
  return nullptr;
}

} // namespace

TEST(RooflineTime, BytesAreOperandsAndResult) {
  Module module = parseOk(R"(HloModule m
ENTRY e {
  a = f32[4,8]{1,0} parameter(0)
  b = bf16[4,8]{1,0} parameter(1)
  c = f32[4,8]{1,0} convert(b)
  s = f32[4,8]{1,0} add(a, c)
  ROOT t = (f32[4,8]{1,0}, bf16[4,8]{1,0}) tuple(s, b)
})");
  EXPECT_EQ(bytesAccessed(*find(module, "a")), 0) << "parameters move nothing";
  EXPECT_EQ(bytesAccessed(*find(module, "c")), 32 * 2 + 32 * 4);
  EXPECT_EQ(bytesAccessed(*find(module, "s")), 3 * 32 * 4);
  EXPECT_EQ(bytesAccessed(*find(module, "t")), 0) << "tuples move nothing";
}

TEST(RooflineTime, EachOpIsBoundByComputeOrByMemory) {
  // dot: 2 * 64^3 flops against 3 * 64^2 * 4 bytes, compute-bound; add:
  // 64^2 flops against 3 * 64^2 * 4 bytes, memory-bound.
  double dotFlops = 2.0 * 64 * 64 * 64, bytes = 3.0 * 64 * 64 * 4;
  const char *module = R"(HloModule m
ENTRY e {
  a = f32[64,64]{1,0} parameter(0)
  b = f32[64,64]{1,0} parameter(1)
  d = f32[64,64]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT s = f32[64,64]{1,0} add(d, b)
})";
  EXPECT_DOUBLE_EQ(secondsOf(module), dotFlops * 1e-9 + bytes * 1e-9);
  // Twice the bandwidth halves only the memory-bound part.
  double faster = secondsOf(module, Roofline{1, 2});
  EXPECT_DOUBLE_EQ(faster, dotFlops * 1e-9 + bytes * 0.5e-9);
}

TEST(RooflineTime, ACallTakesTheTimeOfItsBody) {
  double inlined = secondsOf(R"(HloModule m
ENTRY e {
  a = f32[256]{0} parameter(0)
  ROOT x = f32[256]{0} exponential(a)
})");
  double called = secondsOf(R"(HloModule m
body {
  p = f32[256]{0} parameter(0)
  ROOT x = f32[256]{0} exponential(p)
}
ENTRY e {
  a = f32[256]{0} parameter(0)
  ROOT c = f32[256]{0} call(a), to_apply=body
})");
  EXPECT_DOUBLE_EQ(called, inlined);
  // A transcendental costs kFlopsPerTranscendental flops: here compute wins.
  EXPECT_DOUBLE_EQ(inlined, 256 * kFlopsPerTranscendental * 1e-9);
}

TEST(RooflineTime, NeedsAPositiveRoofline) {
  Module module = parseOk("HloModule m\nENTRY e {\n  ROOT a = f32[2]{0} "
                          "parameter(0)\n}\n");
  auto seconds = estimateSeconds(module, Roofline{0, 10});
  ASSERT_FALSE(seconds.ok());
  EXPECT_NE(seconds.error().message.find("rlopt peak"), std::string::npos);
}

TEST(RooflineTime, GraphEnvRewardsTheEstimatedTime) {
  GraphEnvConfig config;
  config.graphDir = bundledGraphs().string();
  config.reward = "RooflineTime";
  auto refused = GraphEnv::create(config);
  ASSERT_FALSE(refused.ok()) << "no roofline given";
  EXPECT_NE(refused.error().message.find("peak_gflops"), std::string::npos);

  config.roofline = Roofline{100, 20};
  auto env = GraphEnv::create(config);
  ASSERT_TRUE(env.ok()) << env.error().message;
  const char *graph = "hlo://torch_xla_neuron/simple_linear_model";
  ASSERT_TRUE((*env)->tryReset({graph}, 0).ok());
  double start = (*env)->estimatedSeconds();
  ASSERT_GT(start, 0);
  // A fork rewards its steps as its parent does.
  std::unique_ptr<Env> fork = (*env)->fork();
  StepResult forked = fork->step(Action{{*findGraphPass("algsimp")}});
  StepResult step = (*env)->step(Action{{*findGraphPass("algsimp")}});
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  double now = step.info["estimated_s"].get<double>();
  EXPECT_DOUBLE_EQ(step.reward, -now / start);
  EXPECT_DOUBLE_EQ(now, (*env)->estimatedSeconds());
  EXPECT_DOUBLE_EQ(forked.reward, step.reward);

  // The config round-trips with its roofline; without one it has none.
  auto again = GraphEnvConfig::fromJson(config.toJson(), "config");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->roofline.gbps, 20);
  EXPECT_FALSE(GraphEnvConfig().toJson().contains("peak_gflops"));
}
