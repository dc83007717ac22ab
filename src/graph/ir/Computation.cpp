#include "rlopt/graph/Computation.h"

#include <algorithm>

namespace rlopt::graph {

Instruction *
Computation::addInstruction(std::unique_ptr<Instruction> instruction) {
  instruction->owner = this;
  instructionList.push_back(std::move(instruction));
  return instructionList.back().get();
}

Instruction *Computation::findInstruction(std::string_view name) const {
  for (const auto &instruction : instructionList)
    if (instruction->name() == name)
      return instruction.get();
  return nullptr;
}

std::vector<Instruction *> Computation::parameters() const {
  std::vector<Instruction *> params;
  for (const auto &instruction : instructionList)
    if (instruction->opcode() == Opcode::Parameter)
      params.push_back(instruction.get());
  std::stable_sort(params.begin(), params.end(),
                   [](const Instruction *a, const Instruction *b) {
                     return a->parameterNumber() < b->parameterNumber();
                   });
  return params;
}

} // namespace rlopt::graph
