// WhileLoopInvariantCodeMotion: body instructions that depend only on
// loop-invariant tuple elements (passed through unchanged) and constants
// are computed once before the loop; the values the rest of the body needs
// ride along as new invariant tuple elements. Like XLA it does not hoist
// side-effecting instructions, and does not hoist reshapes, broadcasts,
// transposes, slices, reverses, constants or iotas on their own (only as
// part of a chain ending in a worthwhile op). Loops with shared bodies or
// conditions, used other than through get-tuple-element, or whose state is
// not a tuple, are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

bool worthHoistingAlone(Opcode opcode) {
  switch (opcode) {
  case Opcode::Bitcast:
  case Opcode::Broadcast:
  case Opcode::Constant:
  case Opcode::Iota:
  case Opcode::Reshape:
  case Opcode::Reverse:
  case Opcode::Slice:
  case Opcode::Transpose:
  case Opcode::Tuple:
  case Opcode::GetTupleElement:
  case Opcode::Parameter:
    return false;
  default:
    return true;
  }
}

bool hoistLoop(ModuleEditor &editor, Instruction &loop,
               const UseMap &callerUses) {
  Computation &caller = *loop.parent();
  Computation *body = loop.calledComputation("body");
  Computation *condition = loop.calledComputation("condition");
  if (!loop.shape().isTuple() || caller.root() == &loop ||
      body->parameters().size() != 1 || condition->parameters().size() != 1 ||
      body->root()->opcode() != Opcode::Tuple)
    return false;
  for (Instruction *user : callerUses.users(&loop))
    if (user->opcode() != Opcode::GetTupleElement)
      return false;
  Instruction *parameter = body->parameters()[0];
  Instruction *root = body->root();
  size_t count = loop.shape().tupleShapes().size();
  if (root->operandCount() != count)
    return false;
  UseMap bodyUses(*body);
  for (Instruction *user : bodyUses.users(parameter))
    if (user->opcode() != Opcode::GetTupleElement)
      return false;

  // Invariant: reads of passed-through elements, known constants, and pure
  // instructions of invariant operands.
  std::vector<Instruction *> order = topologicalOrder(*body);
  std::unordered_set<const Instruction *> invariant;
  for (Instruction *instruction : order) {
    if (instruction->opcode() == Opcode::GetTupleElement &&
        instruction->operand(0) == parameter) {
      const Instruction *passed = root->operand(instruction->tupleIndex());
      if (passed->opcode() == Opcode::GetTupleElement &&
          passed->operand(0) == parameter &&
          passed->tupleIndex() == instruction->tupleIndex())
        invariant.insert(instruction);
      continue;
    }
    if (instruction->opcode() == Opcode::Constant) {
      if (isKnownConstant(instruction))
        invariant.insert(instruction);
      continue;
    }
    if (instruction->opcode() == Opcode::Parameter || instruction == root ||
        instruction->operandCount() == 0 || hasSideEffect(*instruction) ||
        instruction->opcode() == Opcode::RngBitGenerator)
      continue;
    bool allInvariant = true;
    for (Instruction *operand : instruction->operands())
      allInvariant &= invariant.count(operand) > 0;
    if (allInvariant)
      invariant.insert(instruction);
  }

  // Hoist worthwhile invariant instructions and the invariant chains they
  // need (reads of the loop state are replaced, not copied).
  std::unordered_set<const Instruction *> hoisted;
  std::vector<const Instruction *> work;
  for (Instruction *instruction : order)
    if (invariant.count(instruction) &&
        worthHoistingAlone(instruction->opcode()))
      work.push_back(instruction);
  while (!work.empty()) {
    const Instruction *next = work.back();
    work.pop_back();
    if (next->opcode() == Opcode::GetTupleElement ||
        !hoisted.insert(next).second)
      continue;
    for (const Instruction *operand : next->operands())
      work.push_back(operand);
  }
  // What the remaining body reads of the hoisted values becomes state.
  std::vector<Instruction *> boundary;
  for (Instruction *instruction : order) {
    if (!hoisted.count(instruction) ||
        instruction->opcode() == Opcode::Constant)
      continue;
    bool neededInside = instruction == root;
    for (Instruction *user : bodyUses.users(instruction))
      neededInside |= !hoisted.count(user);
    if (neededInside)
      boundary.push_back(instruction);
  }
  if (boundary.empty())
    return false;

  // Copies before the loop.
  Instruction *init = loop.operand(0);
  auto initialElement = [&](int64_t index) -> Instruction * {
    if (init->opcode() == Opcode::Tuple)
      return init->operand(index);
    return editor.add(caller, Opcode::GetTupleElement,
                      loop.shape().tupleShape(index), {init},
                      {{"index", std::to_string(index)}});
  };
  std::unordered_map<const Instruction *, Instruction *> outside;
  for (Instruction *instruction : order) {
    if (instruction->opcode() == Opcode::GetTupleElement &&
        instruction->operand(0) == parameter && invariant.count(instruction)) {
      outside[instruction] = initialElement(instruction->tupleIndex());
      continue;
    }
    if (!hoisted.count(instruction))
      continue;
    std::vector<Instruction *> operands;
    for (Instruction *operand : instruction->operands())
      operands.push_back(outside.at(operand));
    outside[instruction] = editor.adopt(
        caller,
        copyInstruction(*instruction,
                        editor.names().fresh(opcodeName(instruction->opcode())),
                        operands));
  }

  // The state grows by the boundary values.
  std::vector<Shape> shapes = loop.shape().tupleShapes();
  std::vector<Instruction *> initial;
  for (size_t i = 0; i < count; ++i)
    initial.push_back(initialElement(static_cast<int64_t>(i)));
  for (Instruction *value : boundary) {
    shapes.push_back(value->shape());
    initial.push_back(outside.at(value));
  }
  Shape state = Shape::tuple(shapes);
  editor.removeIfDead(init);
  loop.setOperands({editor.add(caller, Opcode::Tuple, state, initial)});
  loop.setShape(state);
  parameter->setShape(state);
  condition->parameters()[0]->setShape(state);
  std::vector<Instruction *> results = root->operands();
  for (size_t k = 0; k < boundary.size(); ++k) {
    Instruction *read =
        editor.add(*body, Opcode::GetTupleElement, boundary[k]->shape(),
                   {parameter}, {{"index", std::to_string(count + k)}});
    editor.replace(boundary[k], read);
    results.push_back(read);
  }
  root->setOperands(results);
  root->setShape(state);
  editor.markChanged();
  return true;
}

} // namespace

Result<bool> runWhileLoopInvariantCodeMotion(Module &module) {
  ModuleEditor editor(module);
  auto callers = callersOf(module);
  for (const auto &computation : module.computations()) {
    UseMap uses(*computation);
    for (Instruction *loop : topologicalOrder(*computation)) {
      if (ownsItsComputations(*loop, callers))
        hoistLoop(editor, *loop, uses);
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
