// TupleSimplifier: get-tuple-element(tuple(a0, ..., an), i) -> ai, and
// tuple(get-tuple-element(x, 0), ..., get-tuple-element(x, n)) covering all
// of x's elements in order -> x.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

Instruction *simplify(Instruction &instruction, ModuleEditor &) {
  if (instruction.opcode() == Opcode::GetTupleElement) {
    Instruction *tuple = instruction.operand(0);
    int64_t index = instruction.tupleIndex();
    if (tuple->opcode() != Opcode::Tuple || index < 0 ||
        index >= static_cast<int64_t>(tuple->operandCount()))
      return nullptr;
    Instruction *element = tuple->operand(index);
    return element->shape().compatible(instruction.shape()) ? element : nullptr;
  }
  if (instruction.opcode() == Opcode::Tuple && instruction.operandCount() > 0) {
    Instruction *source = nullptr;
    for (size_t i = 0; i < instruction.operandCount(); ++i) {
      Instruction *element = instruction.operand(i);
      if (element->opcode() != Opcode::GetTupleElement ||
          element->tupleIndex() != static_cast<int64_t>(i))
        return nullptr;
      if (source && element->operand(0) != source)
        return nullptr;
      source = element->operand(0);
    }
    return source->shape().compatible(instruction.shape()) ? source : nullptr;
  }
  return nullptr;
}

} // namespace

Result<bool> runTupleSimplifier(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
