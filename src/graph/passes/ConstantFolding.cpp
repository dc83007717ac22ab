// HloConstantFolding: an instruction whose operands are all constants with
// known values is replaced by a constant of its value, for elementwise ops
// (convert, compare, select and clamp included), reshape, copy, transpose,
// slice, reverse, concatenate, pad and reduce with a plain binary reducer.
// Like XLA it leaves broadcasts and iotas alone (folding them only makes
// constants bigger); it also skips results over kMaxElements, elided
// constants (values unknown), fp8/complex types, and values whose reference
// semantics are implementation-defined (out-of-range float->int converts,
// integer division by zero, oversized shifts).
#include "ConstantEvaluation.h"
#include "PassSupport.h"
#include "Passes.h"

#include <map>

namespace rlopt::graph {

namespace {

constexpr int64_t kMaxElements = 16384;

bool folds(const Instruction &instruction) {
  switch (instruction.opcode()) {
  case Opcode::Reshape:
  case Opcode::Copy:
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::Reverse:
  case Opcode::Concatenate:
  case Opcode::Pad:
  case Opcode::Reduce:
    return true;
  default:
    return isElementwise(instruction.opcode());
  }
}

} // namespace

Result<bool> runConstantFolding(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    std::map<const Instruction *, ConstantArray> values;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      if (instruction->opcode() == Opcode::Constant) {
        if (auto value = constantValue(*instruction))
          values.emplace(instruction, std::move(*value));
        continue;
      }
      if (!folds(*instruction) || instruction->operandCount() == 0 ||
          instruction->shape().elementCount() > kMaxElements)
        continue;
      std::vector<const ConstantArray *> operands;
      for (Instruction *operand : instruction->operands()) {
        auto it = values.find(operand);
        operands.push_back(it == values.end() ? nullptr : &it->second);
      }
      auto value = evaluateInstruction(*instruction, operands);
      if (!value)
        continue;
      Instruction *constant = editor.addConstant(
          *computation,
          arrayShape(instruction->shape().type(), instruction->shape().dims()),
          literalText(*value));
      editor.replace(instruction, constant);
      values.emplace(constant, *value);
      values.emplace(instruction, std::move(*value));
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
