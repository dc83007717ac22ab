#include "rlopt/graph/Module.h"

#include <unordered_map>

namespace rlopt::graph {

namespace {

// Null for a pointer outside the module rather than an exception.
template <typename T>
T *lookup(const std::unordered_map<const T *, T *> &map, const T *key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : it->second;
}

} // namespace

Computation *Module::addComputation(std::unique_ptr<Computation> computation) {
  computationList.push_back(std::move(computation));
  return computationList.back().get();
}

Computation *Module::findComputation(std::string_view name) const {
  for (const auto &computation : computationList)
    if (computation->name() == name)
      return computation.get();
  return nullptr;
}

size_t Module::instructionCount() const {
  size_t count = 0;
  for (const auto &computation : computationList)
    count += computation->instructionCount();
  return count;
}

Module Module::clone() const {
  Module copy(moduleName);
  copy.header = header;
  copy.textStyle = textStyle;
  std::unordered_map<const Computation *, Computation *> computationMap;
  std::unordered_map<const Instruction *, Instruction *> instructionMap;
  for (const auto &computation : computationList) {
    Computation *target =
        copy.addComputation(std::make_unique<Computation>(computation->name()));
    computationMap[computation.get()] = target;
    for (const auto &instruction : computation->instructions()) {
      auto twin = std::make_unique<Instruction>(
          instruction->name(), instruction->opcode(), instruction->shape());
      twin->operandList = instruction->operandList;
      twin->attributeList = instruction->attributeList;
      twin->typed = instruction->typed;
      twin->paramNumber = instruction->paramNumber;
      twin->constantValue = instruction->constantValue;
      instructionMap[instruction.get()] =
          target->addInstruction(std::move(twin));
    }
    if (computation->root())
      target->setRoot(lookup(instructionMap, computation->root()));
  }
  // Operands and called computations still point into this module.
  for (const auto &computation : copy.computationList) {
    for (const auto &instruction : computation->instructions()) {
      for (Instruction *&operand : instruction->operandList)
        operand = lookup(instructionMap, operand);
      for (Attribute &attribute : instruction->attributeList)
        for (Computation *&called : attribute.computations)
          called = lookup(computationMap, called);
    }
  }
  if (entryComputation)
    copy.entryComputation = lookup(computationMap, entryComputation);
  return copy;
}

} // namespace rlopt::graph
