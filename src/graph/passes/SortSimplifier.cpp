// SortSimplifier: operands of a multi-operand sort whose sorted outputs
// nobody reads and that the comparator ignores are dropped, with a
// comparator that no longer takes them; a sort left with one operand
// returns it as an array. Sorts used other than through get-tuple-element
// are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// A copy of `comparator` keeping the parameter pairs of `kept` operands,
// renumbered in order; null if a dropped parameter is used.
std::unique_ptr<Computation> narrowComparator(ModuleEditor &editor,
                                              const Computation &comparator,
                                              const std::vector<bool> &kept) {
  UseMap uses(comparator);
  std::vector<int64_t> newNumber(kept.size() * 2, -1);
  int64_t next = 0;
  for (size_t i = 0; i < kept.size(); ++i)
    if (kept[i]) {
      newNumber[2 * i] = next++;
      newNumber[2 * i + 1] = next++;
    }
  auto narrow = std::make_unique<Computation>(
      editor.names().freshComputation(comparator.name()));
  std::unordered_map<const Instruction *, Instruction *> map;
  for (Instruction *instruction : topologicalOrder(comparator)) {
    if (instruction->opcode() == Opcode::Parameter) {
      int64_t number = instruction->parameterNumber();
      if (number < 0 || number >= static_cast<int64_t>(newNumber.size()))
        return nullptr;
      if (newNumber[number] < 0) {
        if (uses.useCount(instruction) > 0)
          return nullptr;
        continue;
      }
      auto copy = copyInstruction(*instruction, instruction->name(), {});
      copy->setParameterNumber(newNumber[number]);
      map[instruction] = narrow->addInstruction(std::move(copy));
      continue;
    }
    std::vector<Instruction *> operands;
    for (Instruction *operand : instruction->operands())
      operands.push_back(map.at(operand));
    map[instruction] = narrow->addInstruction(
        copyInstruction(*instruction, instruction->name(), operands));
  }
  narrow->setRoot(map.at(comparator.root()));
  return narrow;
}

bool simplifySort(ModuleEditor &editor, Instruction &sort, const UseMap &uses) {
  size_t count = sort.operandCount();
  Computation *comparator = sort.calledComputation("to_apply");
  if (count < 2 || !sort.shape().isTuple() || !comparator ||
      sort.parent()->root() == &sort ||
      comparator->parameters().size() != 2 * count)
    return false;
  std::vector<bool> kept(count, false);
  for (Instruction *user : uses.users(&sort)) {
    if (user->opcode() != Opcode::GetTupleElement)
      return false;
    kept[user->tupleIndex()] = true;
  }
  UseMap comparatorUses(*comparator);
  for (Instruction *parameter : comparator->parameters())
    if (comparatorUses.useCount(parameter) > 0)
      kept[parameter->parameterNumber() / 2] = true;
  std::vector<int64_t> newIndex(count, -1);
  std::vector<Instruction *> operands;
  std::vector<Shape> shapes;
  for (size_t i = 0; i < count; ++i)
    if (kept[i]) {
      newIndex[i] = static_cast<int64_t>(operands.size());
      operands.push_back(sort.operand(i));
      shapes.push_back(sort.operand(i)->shape());
    }
  if (operands.size() == count || operands.empty())
    return false;
  auto narrow = narrowComparator(editor, *comparator, kept);
  if (!narrow)
    return false;
  Computation *newComparator = editor.addComputation(std::move(narrow));
  auto copy = copyInstruction(sort, editor.names().fresh("sort"), operands);
  copy->setShape(operands.size() == 1 ? operands.front()->shape()
                                      : Shape::tuple(shapes));
  copy->setCalledComputations("to_apply", {newComparator});
  Instruction *narrowSort = editor.adopt(*sort.parent(), std::move(copy));
  for (Instruction *user : uses.users(&sort)) {
    if (operands.size() == 1) {
      editor.replace(user, narrowSort);
      continue;
    }
    user->setOperand(0, narrowSort);
    Status status = user->setAttribute(
        "index", std::to_string(newIndex[user->tupleIndex()]));
    (void)status;
  }
  editor.removeIfDead(&sort);
  return true;
}

} // namespace

Result<bool> runSortSimplifier(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    UseMap uses(*computation);
    for (Instruction *instruction : topologicalOrder(*computation))
      if (instruction->opcode() == Opcode::Sort)
        simplifySort(editor, *instruction, uses);
  }
  return editor.commit();
}

} // namespace rlopt::graph
