#include "GraphTestUtil.h"

#include "rlopt/graph/OpCount.h"

using namespace rlopt::graph;
using rlopt::graph::testing::bundledGraphs;
using rlopt::graph::testing::fixture;
using rlopt::graph::testing::parseOk;
using rlopt::graph::testing::readText;

TEST(OpCount, EntryAndModuleScopes) {
  // small.hlo: a 3-instruction reducer and a 6-instruction entry.
  Module module = parseOk(readText(fixture("small.hlo")));
  OpCounts entry = countEntryOps(module);
  EXPECT_EQ(entry.total, 6);
  EXPECT_EQ(entry.count(Opcode::Parameter), 2);
  EXPECT_EQ(entry.count(Opcode::Dot), 1);
  EXPECT_EQ(entry.count(Opcode::Tanh), 1);
  EXPECT_EQ(entry.count(Opcode::Constant), 1);
  EXPECT_EQ(entry.count(Opcode::Reduce), 1);
  EXPECT_EQ(entry.count(Opcode::Add), 0);

  OpCounts all = countModuleOps(module);
  EXPECT_EQ(all.total, 9);
  EXPECT_EQ(all.count(Opcode::Parameter), 4);
  EXPECT_EQ(all.count(Opcode::Add), 1);
  ASSERT_EQ(all.perOpcode.size(), kNumOpcodes);
}

TEST(OpCount, CountsSumToTheTotalOnRealGraphs) {
  Module module = parseOk(
      readText(bundledGraphs() / "torch_xla_neuron/linear_module_adam.hlo"));
  OpCounts all = countModuleOps(module);
  int64_t sum = 0;
  for (int64_t count : all.perOpcode)
    sum += count;
  EXPECT_EQ(sum, all.total);
  EXPECT_EQ(all.total, static_cast<int64_t>(module.instructionCount()));
  EXPECT_LT(countEntryOps(module).total, all.total);
}

TEST(OpCount, CalledComputationsCountOnceHoweverOftenCalled) {
  Module module = parseOk(R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[4]{0} parameter(0)
  z = f32[] constant(0)
  r1 = f32[] reduce(a, z), dimensions={0}, to_apply=add
  ROOT r2 = f32[] reduce(a, z), dimensions={0}, to_apply=add
}
)");
  EXPECT_EQ(countModuleOps(module).count(Opcode::Add), 1);
  EXPECT_EQ(countModuleOps(module).total, 7);
}
