// HloCSE: within each computation, an instruction identical to an earlier
// one (opcode, shape with layout, operands after merging, attributes except
// metadata, literal values, structurally equal called computations) is
// replaced by it; operands of commutative ops match in either order.
// Never merged: parameters, side-effecting instructions (rng, custom-calls,
// collectives, infeed/outfeed, ...), rng-bit-generator, and elided
// constants, whose values are unknown.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace rlopt::graph {

namespace {

// Gives structurally equal computations the same number.
class ComputationFingerprints {
public:
  explicit ComputationFingerprints(const Module &module) {
    std::vector<Computation *> order;
    std::unordered_set<const Computation *> seen;
    // Callees before callers: reachable ones first, then the rest.
    for (Computation *computation : reachableComputations(module)) {
      order.push_back(computation);
      seen.insert(computation);
    }
    for (const auto &computation : module.computations())
      if (!seen.count(computation.get()))
        order.push_back(computation.get());
    for (Computation *computation : order)
      number(computation);
  }

  int64_t number(const Computation *computation) {
    auto it = numbers.find(computation);
    if (it != numbers.end())
      return it->second;
    std::string text;
    std::unordered_map<const Instruction *, int64_t> index;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      index[instruction] = static_cast<int64_t>(index.size());
      text += describe(*instruction, index, *this);
      if (instruction == computation->root())
        text += " ROOT";
      text += '\n';
    }
    auto [entry, inserted] =
        byText.emplace(std::move(text), static_cast<int64_t>(byText.size()));
    numbers[computation] = entry->second;
    return entry->second;
  }

  // Everything that makes an instruction what it is, operands by `index`.
  static std::string
  describe(const Instruction &instruction,
           const std::unordered_map<const Instruction *, int64_t> &index,
           ComputationFingerprints &fingerprints) {
    std::string text(opcodeName(instruction.opcode()));
    text += ' ';
    text += instruction.shape().toString();
    std::vector<int64_t> operands;
    for (Instruction *operand : instruction.operands())
      operands.push_back(index.at(operand));
    if (isCommutative(instruction.opcode()))
      std::sort(operands.begin(), operands.end());
    text += " (";
    for (int64_t operand : operands)
      text += std::to_string(operand) + ',';
    text += ')';
    if (instruction.opcode() == Opcode::Parameter)
      text += " p" + std::to_string(instruction.parameterNumber());
    if (instruction.opcode() == Opcode::Constant)
      text += " c" + literalKey(instruction.literal());
    for (const Attribute &attribute : instruction.attributes()) {
      if (attribute.key == "metadata")
        continue;
      text += ' ' + attribute.key + '=';
      if (attribute.computations.empty()) {
        text += attribute.value;
        continue;
      }
      for (const Computation *called : attribute.computations)
        text += '#' + std::to_string(called ? fingerprints.number(called) : -1);
    }
    return text;
  }

  // Equal values give equal keys however the literal was written.
  static std::string literalKey(const Literal &literal) {
    std::string key = literal.hasValues ? "" : literal.text;
    for (int64_t value : literal.integers)
      key += std::to_string(value) + ',';
    key += ';';
    for (double value : literal.floats) {
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      key += std::to_string(bits) + ',';
    }
    return key;
  }

private:
  std::unordered_map<const Computation *, int64_t> numbers;
  std::map<std::string, int64_t> byText;
};

bool mergeable(const Instruction &instruction) {
  switch (instruction.opcode()) {
  case Opcode::Parameter:
  case Opcode::RngBitGenerator:
    return false;
  case Opcode::Constant:
    return instruction.literal().hasValues && !instruction.literal().elided;
  default:
    return !hasSideEffect(instruction);
  }
}

} // namespace

Result<bool> runCse(Module &module) {
  ModuleEditor editor(module);
  ComputationFingerprints fingerprints(module);
  for (const auto &computation : module.computations()) {
    std::unordered_map<const Instruction *, int64_t> index;
    std::unordered_map<std::string, Instruction *> seen;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      editor.resolveOperands(*instruction);
      index[instruction] = static_cast<int64_t>(index.size());
      if (!mergeable(*instruction))
        continue;
      std::string key =
          ComputationFingerprints::describe(*instruction, index, fingerprints);
      auto [it, inserted] = seen.emplace(std::move(key), instruction);
      if (!inserted)
        editor.replace(instruction, it->second);
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
