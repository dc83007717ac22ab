#include "rlopt/graph/GraphEdit.h"

#include <algorithm>
#include <cassert>
#include <cctype>

namespace rlopt::graph {

namespace {

bool opcodeHasSideEffect(Opcode opcode) {
  switch (opcode) {
  case Opcode::Rng:
  case Opcode::RngGetAndUpdateState:
  case Opcode::Infeed:
  case Opcode::Outfeed:
  case Opcode::Send:
  case Opcode::SendDone:
  case Opcode::Recv:
  case Opcode::RecvDone:
  case Opcode::CustomCall:
  case Opcode::AllReduce:
  case Opcode::AllReduceStart:
  case Opcode::AllReduceDone:
  case Opcode::AllGather:
  case Opcode::AllGatherStart:
  case Opcode::AllGatherDone:
  case Opcode::AllToAll:
  case Opcode::RaggedAllToAll:
  case Opcode::CollectiveBroadcast:
  case Opcode::CollectivePermute:
  case Opcode::CollectivePermuteStart:
  case Opcode::CollectivePermuteDone:
  case Opcode::CollectiveReduce:
  case Opcode::ReduceScatter:
  case Opcode::AsyncStart:
  case Opcode::AsyncUpdate:
  case Opcode::AsyncDone:
  case Opcode::CopyStart:
  case Opcode::CopyDone:
  case Opcode::AddDependency:
    return true;
  default:
    return false;
  }
}

// Iterative: call chains can be thousands of computations deep.
bool computationHasSideEffect(
    const Computation &start,
    std::unordered_set<const Computation *> &visiting) {
  if (!visiting.insert(&start).second)
    return false;
  std::vector<const Computation *> pending = {&start};
  while (!pending.empty()) {
    const Computation *computation = pending.back();
    pending.pop_back();
    for (const auto &instruction : computation->instructions()) {
      if (opcodeHasSideEffect(instruction->opcode()))
        return true;
      for (const Computation *called : instruction->calledComputations())
        if (called && visiting.insert(called).second)
          pending.push_back(called);
    }
  }
  return false;
}

// The numeric suffix of `name` after its last '.', or -1.
int64_t numericSuffix(std::string_view name) {
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size() ||
      name.size() - dot > 15)
    return -1;
  int64_t value = 0;
  for (size_t i = dot + 1; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])))
      return -1;
    value = value * 10 + (name[i] - '0');
  }
  return value;
}

} // namespace

bool hasSideEffect(const Instruction &instruction) {
  if (opcodeHasSideEffect(instruction.opcode()))
    return true;
  std::unordered_set<const Computation *> visiting;
  for (const Computation *called : instruction.calledComputations())
    if (called && computationHasSideEffect(*called, visiting))
      return true;
  return false;
}

Shape arrayShape(ElementType type, std::vector<int64_t> dims) {
  std::string layout;
  if (!dims.empty()) {
    layout = "{";
    for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
      layout += std::to_string(i);
      if (i > 0)
        layout += ',';
    }
    layout += '}';
  }
  return Shape::array(type, std::move(dims), std::move(layout));
}

UseMap::UseMap(const Computation &computation) : root(computation.root()) {
  for (const auto &instruction : computation.instructions()) {
    const auto &operands = instruction->operands();
    for (size_t i = 0; i < operands.size(); ++i) {
      // One entry per user, even when it uses the operand twice.
      if (std::find(operands.begin(), operands.begin() + i, operands[i]) !=
          operands.begin() + i)
        continue;
      map[operands[i]].push_back(instruction.get());
    }
  }
}

const std::vector<Instruction *> &
UseMap::users(const Instruction *instruction) const {
  static const std::vector<Instruction *> none;
  auto it = map.find(instruction);
  return it == map.end() ? none : it->second;
}

size_t UseMap::useCount(const Instruction *instruction) const {
  return users(instruction).size() + (instruction == root ? 1 : 0);
}

std::vector<Computation *> reachableComputations(const Module &module) {
  std::vector<Computation *> order;
  std::unordered_set<const Computation *> seen;
  // Iterative post-order over the call graph.
  std::vector<std::pair<Computation *, size_t>> stack;
  auto visit = [&](Computation *start) {
    if (!start || !seen.insert(start).second)
      return;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      auto &[computation, next] = stack.back();
      std::vector<Computation *> callees;
      for (const auto &instruction : computation->instructions())
        for (Computation *called : instruction->calledComputations())
          callees.push_back(called);
      bool descended = false;
      while (next < callees.size()) {
        Computation *callee = callees[next++];
        if (callee && seen.insert(callee).second) {
          stack.push_back({callee, 0});
          descended = true;
          break;
        }
      }
      if (!descended) {
        order.push_back(stack.back().first);
        stack.pop_back();
      }
    }
  };
  visit(module.entry());
  return order;
}

CallerMap callersOf(const Module &module) {
  CallerMap callers;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      for (Computation *called : instruction->calledComputations())
        if (called)
          callers[called].push_back(instruction.get());
  return callers;
}

bool ownsItsComputations(const Instruction &loop, const CallerMap &callers) {
  const Computation *body = loop.calledComputation("body");
  const Computation *condition = loop.calledComputation("condition");
  auto onlyCaller = [&](const Computation *called) {
    auto found = callers.find(called);
    return found != callers.end() && found->second.size() == 1;
  };
  return loop.opcode() == Opcode::While && body && condition &&
         body != condition && onlyCaller(body) && onlyCaller(condition);
}

std::vector<Instruction *> topologicalOrder(const Computation &computation) {
  std::vector<Instruction *> order;
  order.reserve(computation.instructionCount());
  std::unordered_set<const Instruction *> seen;
  std::vector<std::pair<Instruction *, size_t>> stack;
  for (const auto &start : computation.instructions()) {
    if (!seen.insert(start.get()).second)
      continue;
    stack.push_back({start.get(), 0});
    while (!stack.empty()) {
      auto &[instruction, next] = stack.back();
      bool descended = false;
      while (next < instruction->operandCount()) {
        Instruction *operand = instruction->operand(next++);
        if (operand && seen.insert(operand).second) {
          stack.push_back({operand, 0});
          descended = true;
          break;
        }
      }
      if (!descended) {
        order.push_back(stack.back().first);
        stack.pop_back();
      }
    }
  }
  return order;
}

NameTable::NameTable(const Module &module) {
  int64_t largest = 0;
  for (const auto &computation : module.computations()) {
    computationNames.insert(computation->name());
    largest = std::max(largest, numericSuffix(computation->name()));
    for (const auto &instruction : computation->instructions()) {
      instructionNames.insert(instruction->name());
      largest = std::max(largest, numericSuffix(instruction->name()));
    }
  }
  next = largest + 1;
}

std::string NameTable::fresh(std::string_view base) {
  while (true) {
    std::string name = std::string(base) + "." + std::to_string(next++);
    if (instructionNames.insert(name).second)
      return name;
  }
}

std::string NameTable::freshComputation(std::string_view base) {
  while (true) {
    std::string name = std::string(base) + "." + std::to_string(next++);
    if (computationNames.insert(name).second)
      return name;
  }
}

std::unique_ptr<Instruction>
copyInstruction(const Instruction &instruction, std::string name,
                std::vector<Instruction *> operands) {
  auto copy = std::make_unique<Instruction>(
      std::move(name), instruction.opcode(), instruction.shape());
  copy->setOperands(std::move(operands));
  for (const Attribute &attribute : instruction.attributes()) {
    if (attribute.namesComputations() ||
        isComputationAttribute(attribute.key)) {
      copy->setCalledComputations(attribute.key, attribute.computations,
                                  attribute.braced);
      continue;
    }
    // The value was accepted when the original was built.
    Status status = copy->setAttribute(attribute.key, attribute.value);
    assert(status.ok());
    (void)status;
  }
  copy->setParameterNumber(instruction.parameterNumber());
  copy->setLiteral(instruction.literal());
  return copy;
}

ModuleEditor::ModuleEditor(Module &module)
    : target(module), nameTable(module) {}

Instruction *ModuleEditor::add(Computation &computation, Opcode opcode,
                               Shape shape,
                               std::vector<Instruction *> operands) {
  auto instruction = std::make_unique<Instruction>(
      nameTable.fresh(opcodeName(opcode)), opcode, std::move(shape));
  instruction->setOperands(std::move(operands));
  Instruction *result = computation.addInstruction(std::move(instruction));
  candidates.push_back(result);
  added.insert(result);
  return result;
}

Instruction *ModuleEditor::add(
    Computation &computation, Opcode opcode, Shape shape,
    std::vector<Instruction *> operands,
    const std::vector<std::pair<std::string, std::string>> &attributes) {
  Instruction *result =
      add(computation, opcode, std::move(shape), std::move(operands));
  for (const auto &[key, value] : attributes) {
    Status status = result->setAttribute(key, value);
    assert(status.ok() && "a pass built a malformed attribute");
    (void)status;
  }
  return result;
}

Instruction *ModuleEditor::addConstant(Computation &computation,
                                       const Shape &shape,
                                       const std::string &literalText) {
  Instruction *constant = add(computation, Opcode::Constant, shape);
  auto literal = parseLiteral(literalText, shape);
  assert(literal.ok() && "a pass built a malformed literal");
  if (literal)
    constant->setLiteral(literal.takeValue());
  return constant;
}

Instruction *ModuleEditor::adopt(Computation &computation,
                                 std::unique_ptr<Instruction> copy) {
  nameTable.reserve(copy->name());
  Instruction *result = computation.addInstruction(std::move(copy));
  candidates.push_back(result);
  added.insert(result);
  return result;
}

Computation *
ModuleEditor::addComputation(std::unique_ptr<Computation> computation) {
  changedInPlace = true;
  return target.addComputation(std::move(computation));
}

void ModuleEditor::replace(Instruction *from, Instruction *to) {
  to = resolve(to);
  if (from == to)
    return;
  replacements[from] = to;
  candidates.push_back(from);
}

Instruction *ModuleEditor::resolve(Instruction *instruction) const {
  while (true) {
    auto it = replacements.find(instruction);
    if (it == replacements.end())
      return instruction;
    instruction = it->second;
  }
}

void ModuleEditor::resolveOperands(Instruction &instruction) const {
  if (replacements.empty())
    return;
  for (size_t i = 0; i < instruction.operandCount(); ++i) {
    Instruction *resolved = resolve(instruction.operand(i));
    if (resolved != instruction.operand(i))
      instruction.setOperand(i, resolved);
  }
}

void ModuleEditor::removeIfDead(Instruction *instruction) {
  candidates.push_back(instruction);
}

void ModuleEditor::removeComputation(Computation *computation) {
  droppedComputations.insert(computation);
}

bool ModuleEditor::changed() const {
  return changedInPlace || !replacements.empty() ||
         !droppedComputations.empty() || !added.empty();
}

namespace {

// Removes dead candidates, then the operands they alone kept alive, from
// one computation; the result lists what to leave out of the rebuild.
// Replaced instructions go even when they have side effects: the pass
// that replaced them vouches that nothing is lost (an inlined call's effects
// now happen in the caller).
void collectDead(
    const Computation &computation,
    const std::vector<Instruction *> &candidates,
    const std::unordered_map<Instruction *, Instruction *> &replaced,
    std::unordered_set<const Instruction *> &dead) {
  std::unordered_map<const Instruction *, int64_t> uses;
  for (const auto &instruction : computation.instructions())
    for (Instruction *operand : instruction->operands())
      ++uses[operand];
  if (computation.root())
    ++uses[computation.root()];
  std::vector<Instruction *> work(candidates.rbegin(), candidates.rend());
  while (!work.empty()) {
    Instruction *instruction = work.back();
    work.pop_back();
    if (dead.count(instruction) || uses[instruction] > 0 ||
        instruction->opcode() == Opcode::Parameter ||
        (!replaced.count(instruction) && hasSideEffect(*instruction)))
      continue;
    dead.insert(instruction);
    for (Instruction *operand : instruction->operands()) {
      --uses[operand];
      work.push_back(operand);
    }
  }
}

} // namespace

bool ModuleEditor::commit(bool dropUnreachableComputations) {
  // Resolve replacements everywhere, roots included.
  std::unordered_map<const Computation *, std::vector<Instruction *>>
      candidatesOf;
  for (Instruction *candidate : candidates)
    if (candidate->parent())
      candidatesOf[candidate->parent()].push_back(candidate);
  std::unordered_set<const Instruction *> dead;
  for (const auto &computation : target.computations()) {
    for (const auto &instruction : computation->instructions())
      resolveOperands(*instruction);
    if (computation->root())
      computation->setRoot(resolve(computation->root()));
    auto it = candidatesOf.find(computation.get());
    if (it != candidatesOf.end())
      collectDead(*computation, it->second, replacements, dead);
  }

  // The computations to keep, callees before callers, following only the
  // calls of surviving instructions.
  std::vector<Computation *> order;
  std::unordered_set<const Computation *> placed;
  // Iterative post-order: call chains can be thousands deep.
  auto place = [&](Computation *start) {
    auto enter =
        [&](Computation *computation,
            std::vector<std::pair<Computation *, std::vector<Computation *>>>
                &stack) {
          if (!computation || droppedComputations.count(computation) ||
              !placed.insert(computation).second)
            return;
          std::vector<Computation *> callees;
          for (const auto &instruction : computation->instructions())
            if (!dead.count(instruction.get()))
              for (Computation *called : instruction->calledComputations())
                callees.push_back(called);
          // Reversed, so popping from the back visits them in written order.
          std::reverse(callees.begin(), callees.end());
          stack.emplace_back(computation, std::move(callees));
        };
    std::vector<std::pair<Computation *, std::vector<Computation *>>> stack;
    enter(start, stack);
    while (!stack.empty()) {
      auto &callees = stack.back().second;
      if (callees.empty()) {
        order.push_back(stack.back().first);
        stack.pop_back();
        continue;
      }
      Computation *callee = callees.back();
      callees.pop_back();
      enter(callee, stack);
    }
  };
  if (dropUnreachableComputations)
    place(target.entry());
  else
    for (const auto &computation : target.computations())
      place(computation.get());

  // New instructions that all died again change nothing.
  bool addedSurvives = false, originalDies = false;
  for (const Instruction *instruction : added)
    addedSurvives |= !dead.count(instruction);
  for (const Instruction *instruction : dead)
    originalDies |= !added.count(instruction);
  bool didChange = changedInPlace || !replacements.empty() || addedSurvives ||
                   originalDies || order.size() != target.computations().size();
  // Instructions added and dropped again must still go.
  if (!didChange && added.empty())
    return false;

  Module rebuilt(target.name());
  rebuilt.headerAttributes() = target.headerAttributes();
  rebuilt.setStyle(target.style());
  std::unordered_map<const Computation *, Computation *> computationMap;
  for (Computation *computation : order)
    computationMap[computation] = nullptr;
  // Create the computations first so called computations can be mapped.
  for (Computation *computation : order)
    computationMap[computation] = rebuilt.addComputation(
        std::make_unique<Computation>(computation->name()));
  for (Computation *computation : order) {
    Computation *into = computationMap[computation];
    std::unordered_map<const Instruction *, Instruction *> instructionMap;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      if (dead.count(instruction))
        continue;
      std::vector<Instruction *> operands;
      operands.reserve(instruction->operandCount());
      for (Instruction *operand : instruction->operands())
        operands.push_back(instructionMap.at(operand));
      auto copy = copyInstruction(*instruction, instruction->name(),
                                  std::move(operands));
      instructionMap[instruction] = into->addInstruction(std::move(copy));
    }
    for (const auto &instruction : into->instructions())
      for (const Attribute &attribute : instruction->attributes())
        if (!attribute.computations.empty()) {
          std::vector<Computation *> mapped;
          for (Computation *called : attribute.computations) {
            auto it = computationMap.find(called);
            mapped.push_back(it == computationMap.end() ? nullptr : it->second);
          }
          instruction->setCalledComputations(attribute.key, mapped,
                                             attribute.braced);
        }
    if (computation->root())
      into->setRoot(instructionMap.at(computation->root()));
  }
  if (target.entry())
    rebuilt.setEntry(computationMap.at(target.entry()));

  target = std::move(rebuilt);
  replacements.clear();
  candidates.clear();
  droppedComputations.clear();
  changedInPlace = false;
  added.clear();
  return didChange;
}

bool rewriteEachInstruction(Module &module, const RewriteRule &rule) {
  ModuleEditor editor(module);
  std::vector<Computation *> computations;
  for (const auto &computation : module.computations())
    computations.push_back(computation.get());
  for (Computation *computation : computations) {
    std::vector<Instruction *> order = topologicalOrder(*computation);
    size_t existing = computation->instructionCount();
    // New instructions are appended; visit them too, within a budget that
    // stops rules that would keep rewriting their own output.
    size_t budget = 4 * existing + 1000;
    size_t visited = 0;
    auto visit = [&](Instruction *instruction) {
      editor.resolveOperands(*instruction);
      if (Instruction *replacement = rule(*instruction, editor))
        editor.replace(instruction, replacement);
    };
    for (Instruction *instruction : order)
      visit(instruction);
    for (size_t i = existing;
         i < computation->instructionCount() && visited < budget;
         ++i, ++visited) {
      Instruction *instruction = computation->instructions()[i].get();
      if (editor.resolve(instruction) == instruction)
        visit(instruction);
    }
  }
  return editor.commit();
}

Computation *cloneComputation(ModuleEditor &editor,
                              const Computation &computation) {
  auto clone = std::make_unique<Computation>(
      editor.names().freshComputation(computation.name() + ".clone"));
  std::unordered_map<const Instruction *, Instruction *> map;
  for (Instruction *instruction : topologicalOrder(computation)) {
    std::vector<Instruction *> operands;
    for (Instruction *operand : instruction->operands())
      operands.push_back(map.at(operand));
    map[instruction] = clone->addInstruction(
        copyInstruction(*instruction, instruction->name(), operands));
  }
  clone->setRoot(map.at(computation.root()));
  return editor.addComputation(std::move(clone));
}

Result<Instruction *>
inlineComputation(ModuleEditor &editor, Computation &caller,
                  const Computation &callee,
                  const std::vector<Instruction *> &arguments) {
  std::unordered_set<std::string> callerNames;
  for (const auto &instruction : caller.instructions())
    callerNames.insert(instruction->name());
  return inlineComputation(editor, caller, callee, arguments, callerNames);
}

Result<Instruction *>
inlineComputation(ModuleEditor &editor, Computation &caller,
                  const Computation &callee,
                  const std::vector<Instruction *> &arguments,
                  std::unordered_set<std::string> &callerNames) {
  std::vector<Instruction *> order = topologicalOrder(callee);
  for (Instruction *instruction : order)
    if (instruction->opcode() == Opcode::Constant &&
        instruction->literal().elided && callerNames.count(instruction->name()))
      return makeError("cannot inline '" + callee.name() +
                       "': elided constant '" + instruction->name() +
                       "' would need a new name");
  std::unordered_map<const Instruction *, Instruction *> map;
  for (Instruction *instruction : order) {
    if (instruction->opcode() == Opcode::Parameter) {
      int64_t number = instruction->parameterNumber();
      if (number < 0 || number >= static_cast<int64_t>(arguments.size()))
        return makeError("cannot inline '" + callee.name() + "': parameter " +
                         std::to_string(number) + " has no argument");
      map[instruction] = arguments[number];
      continue;
    }
    std::vector<Instruction *> operands;
    for (Instruction *operand : instruction->operands())
      operands.push_back(map.at(operand));
    std::string name = instruction->name();
    if (callerNames.count(name))
      name = editor.names().fresh(opcodeName(instruction->opcode()));
    callerNames.insert(name);
    map[instruction] = editor.adopt(
        caller, copyInstruction(*instruction, name, std::move(operands)));
  }
  return map.at(callee.root());
}

} // namespace rlopt::graph
