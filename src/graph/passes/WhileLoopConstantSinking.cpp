// WhileLoopConstantSinking: a loop-invariant tuple element (the body passes
// it through unchanged) whose initial value is a constant with known values
// is read as a copy of that constant inside the body and condition, so they
// no longer depend on the loop state for it; the element itself stays (the
// while-loop simplifier removes it once nothing reads it).
// WhileLoopFusibleSinking, in the same file: the same for initial values
// that are broadcasts of such constants or iotas, copied with their
// operand. Elided constants are not copied (their values are tied to their
// names); loops with shared bodies or conditions are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

enum class Sinkable { Constants, Fusible };

bool canSink(const Instruction *value, Sinkable what) {
  if (what == Sinkable::Constants)
    return isKnownConstant(value);
  if (value->opcode() == Opcode::Iota)
    return true;
  return value->opcode() == Opcode::Broadcast &&
         isKnownConstant(value->operand(0));
}

// A copy of `value` (and of a broadcast's constant operand) in `into`.
Instruction *copyInto(ModuleEditor &editor, Computation &into,
                      const Instruction *value) {
  std::vector<Instruction *> operands;
  if (value->opcode() == Opcode::Broadcast)
    operands.push_back(copyInto(editor, into, value->operand(0)));
  return editor.adopt(
      into,
      copyInstruction(*value, editor.names().fresh(opcodeName(value->opcode())),
                      operands));
}

bool sinkInto(ModuleEditor &editor, Computation &computation,
              const Instruction &loop, const Computation &body, Sinkable what) {
  if (computation.parameters().size() != 1)
    return false;
  const Instruction *parameter = computation.parameters()[0];
  const Instruction *bodyParameter = body.parameters()[0];
  const Instruction *init = loop.operand(0);
  Instruction *bodyRoot = body.root();
  UseMap uses(computation);
  bool changed = false;
  std::vector<Instruction *> reads;
  for (const auto &instruction : computation.instructions())
    if (instruction->opcode() == Opcode::GetTupleElement &&
        instruction->operand(0) == parameter)
      reads.push_back(instruction.get());
  for (Instruction *read : reads) {
    int64_t index = read->tupleIndex();
    const Instruction *passed = bodyRoot->operand(index);
    bool invariant = passed->opcode() == Opcode::GetTupleElement &&
                     passed->operand(0) == bodyParameter &&
                     passed->tupleIndex() == index;
    const Instruction *value = init->operand(index);
    if (!invariant || !canSink(value, what) ||
        !value->shape().compatible(read->shape()))
      continue;
    // Every use but the body root's pass-through reads the copy.
    Instruction *copy = nullptr;
    for (Instruction *user : uses.users(read)) {
      for (size_t i = 0; i < user->operandCount(); ++i) {
        if (user->operand(i) != read ||
            (user == bodyRoot && static_cast<int64_t>(i) == index))
          continue;
        if (!copy)
          copy = copyInto(editor, computation, value);
        user->setOperand(i, copy);
      }
    }
    if (computation.root() == read && &computation != &body) {
      if (!copy)
        copy = copyInto(editor, computation, value);
      computation.setRoot(copy);
    }
    if (copy) {
      editor.removeIfDead(read);
      changed = true;
    }
  }
  if (changed)
    editor.markChanged();
  return changed;
}

Result<bool> sinkLoopInvariants(Module &module, Sinkable what) {
  ModuleEditor editor(module);
  auto callers = callersOf(module);
  for (const auto &computation : module.computations()) {
    for (const auto &loop : computation->instructions()) {
      if (!ownsItsComputations(*loop, callers) ||
          loop->operand(0)->opcode() != Opcode::Tuple)
        continue;
      Computation *body = loop->calledComputation("body");
      Computation *condition = loop->calledComputation("condition");
      if (body->parameters().size() != 1 ||
          body->root()->opcode() != Opcode::Tuple ||
          body->root()->operandCount() != loop->operand(0)->operandCount())
        continue;
      sinkInto(editor, *body, *loop, *body, what);
      sinkInto(editor, *condition, *loop, *body, what);
    }
  }
  return editor.commit();
}

} // namespace

Result<bool> runWhileLoopConstantSinking(Module &module) {
  return sinkLoopInvariants(module, Sinkable::Constants);
}

Result<bool> runWhileLoopFusibleSinking(Module &module) {
  return sinkLoopInvariants(module, Sinkable::Fusible);
}

} // namespace rlopt::graph
