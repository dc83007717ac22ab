// The IR-editing helpers the passes share: users, fresh names, replacement
// with removal of what dies, topological rebuild, computation cloning and
// inlining.
#include "PassTestUtil.h"

#include "rlopt/graph/GraphEdit.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const char *kSmall = R"(
HloModule m
neg {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] add(p, p)
  b = f32[4] multiply(a, p)
  c = f32[4] call(b), to_apply=neg
  ROOT r = f32[4] subtract(c, a)
})";

TEST(PassGraphEdit, UseMapCountsUsersOnceAndTheRoot) {
  Module module = parseOk(kSmall);
  const Computation &entry = *module.entry();
  UseMap uses(entry);
  const Instruction *p = entry.findInstruction("p");
  const Instruction *a = entry.findInstruction("a");
  ASSERT_EQ(uses.users(p).size(), 2u); // add (twice) and multiply
  EXPECT_EQ(uses.users(a).size(), 2u);
  EXPECT_EQ(uses.useCount(entry.root()), 1u);
}

TEST(PassGraphEdit, FreshNamesAreUnusedAndDeterministic) {
  Module module = parseOk(kSmall);
  NameTable first(module), second(module);
  std::string name = first.fresh("add");
  EXPECT_EQ(name, second.fresh("add"));
  EXPECT_FALSE(module.entry()->findInstruction(name));
  EXPECT_NE(first.fresh("add"), name);
}

TEST(PassGraphEdit, ReplacingRemovesWhatDiesAndKeepsOrder) {
  Module module = parseOk(kSmall);
  Module before = module.clone();
  ModuleEditor editor(module);
  Computation &entry = *module.entry();
  Instruction *b = entry.findInstruction("b");
  Instruction *p = entry.findInstruction("p");
  // multiply(a, p) -> negate(p) appended at the end, then put in order.
  Instruction *negated = editor.add(entry, Opcode::Negate, b->shape(),
                                    std::vector<Instruction *>{p});
  editor.replace(b, negated);
  ASSERT_TRUE(editor.commit());
  const Computation &rebuilt = *module.entry();
  EXPECT_EQ(rebuilt.findInstruction("b"), nullptr);
  EXPECT_NE(rebuilt.findInstruction("a"), nullptr); // the root still reads it
  std::vector<Instruction *> order = topologicalOrder(rebuilt);
  for (size_t i = 0; i < order.size(); ++i)
    EXPECT_EQ(order[i], rebuilt.instructions()[i].get());
  EXPECT_TRUE(verifyModule(module).ok());
}

TEST(PassGraphEdit, CommitWithoutEditsChangesNothing) {
  Module module = parseOk(kSmall);
  std::string printed = printModule(module);
  ModuleEditor editor(module);
  EXPECT_FALSE(editor.commit());
  EXPECT_EQ(printModule(module), printed);
}

TEST(PassGraphEdit, DeadSideEffectsStayUnlessReplaced) {
  Module module = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  effect = f32[4] custom-call(p), custom_call_target="Log"
  ROOT n = f32[4] negate(p)
})");
  ModuleEditor editor(module);
  editor.removeIfDead(module.entry()->findInstruction("effect"));
  EXPECT_FALSE(editor.commit());
  EXPECT_NE(module.entry()->findInstruction("effect"), nullptr);
}

TEST(PassGraphEdit, InliningBindsParametersAndRenamesClashes) {
  Module module = parseOk(kSmall);
  ModuleEditor editor(module);
  Computation &entry = *module.entry();
  Instruction *call = entry.findInstruction("c");
  Computation *callee = call->calledComputation("to_apply");
  auto root = inlineComputation(editor, entry, *callee, call->operands());
  ASSERT_TRUE(root.ok()) << root.error().message;
  EXPECT_EQ((*root)->opcode(), Opcode::Negate);
  EXPECT_EQ((*root)->operand(0)->name(), "b");
  editor.replace(call, *root);
  editor.removeComputation(callee);
  ASSERT_TRUE(editor.commit());
  EXPECT_EQ(module.computations().size(), 1u);
  EXPECT_TRUE(verifyModule(module).ok());
}

TEST(PassGraphEdit, ClonesKeepInstructionNames) {
  Module module = parseOk(kSmall);
  ModuleEditor editor(module);
  const Computation *callee = module.findComputation("neg");
  Computation *clone = cloneComputation(editor, *callee);
  EXPECT_NE(clone->name(), callee->name());
  EXPECT_NE(clone->findInstruction("n"), nullptr);
  EXPECT_TRUE(editor.commit());
  EXPECT_EQ(module.computations().size(), 3u);
}

} // namespace
