// Building and editing modules through the IR API.
#include "GraphTestUtil.h"

#include "rlopt/graph/Printer.h"
#include "rlopt/graph/Verifier.h"

using namespace rlopt::graph;
using rlopt::graph::testing::parseOk;

TEST(Module, BuiltByHandPrintsAndVerifies) {
  Module module("built");
  Computation *entry =
      module.addComputation(std::make_unique<Computation>("main"));
  module.setEntry(entry);
  auto param = std::make_unique<Instruction>(
      "x", Opcode::Parameter, Shape::array(ElementType::F32, {4}, "{0}"));
  param->setParameterNumber(0);
  Instruction *x = entry->addInstruction(std::move(param));
  Instruction *neg = entry->addInstruction(std::make_unique<Instruction>(
      "neg", Opcode::Negate, Shape::array(ElementType::F32, {4}, "{0}")));
  EXPECT_FALSE(verifyModule(module).ok());
  neg->setOperands({x});
  entry->setRoot(neg);
  ASSERT_TRUE(verifyModule(module).ok())
      << verifyModule(module).error().message;
  EXPECT_EQ(printModule(module, TextStyle{false, false, false}),
            "HloModule built\n\nENTRY main {\n  x = f32[4]{0} parameter(0)\n"
            "  ROOT neg = f32[4]{0} negate(x)\n}\n");
}

TEST(Module, VerifyNamesComputationAndInstruction) {
  Module module = parseOk("HloModule m\nENTRY main {\n  a = f32[2]{0} "
                          "parameter(0)\n  ROOT b = f32[2]{0} negate(a)\n}\n");
  Instruction *b = module.entry()->root();
  b->setOperands({});
  EXPECT_EQ(
      verifyModule(module).error().message,
      "computation 'main', instruction 'b': negate takes 1 operand, got 0");
}

TEST(Module, SetAttributeReinterpretsAndRejectsBadValues) {
  Module module =
      parseOk("HloModule m\nENTRY main {\n  a = f32[2,3]{1,0} "
              "parameter(0)\n  ROOT t = f32[3,2]{1,0} transpose(a), "
              "dimensions={1,0}\n}\n");
  Instruction *t = module.entry()->root();
  ASSERT_TRUE(t->setAttribute("dimensions", "{0,1}").ok());
  EXPECT_EQ(t->dimensions(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(t->findAttribute("dimensions")->value, "{0,1}");

  auto bad = t->setAttribute("dimensions", "{zero}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "dimensions: expected integers in '{zero}'");
  EXPECT_EQ(t->dimensions(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(t->findAttribute("dimensions")->value, "{0,1}");

  ASSERT_TRUE(t->setAttribute("sharding", "{replicated}").ok());
  EXPECT_EQ(printInstruction(*t, module.style()),
            "t = f32[3,2]{1,0} transpose(a), dimensions={0,1}, "
            "sharding={replicated}");
  EXPECT_TRUE(t->removeAttribute("dimensions"));
  EXPECT_TRUE(t->dimensions().empty());
  EXPECT_FALSE(t->setAttribute("to_apply", "add").ok());
}

TEST(Module, RenamingAComputationRenamesItsCallers) {
  Module module = parseOk(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[4]{0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add
}
)");
  module.findComputation("add")->setName("sum_f32");
  EXPECT_NE(printModule(module).find("to_apply=sum_f32"), std::string::npos);
}
