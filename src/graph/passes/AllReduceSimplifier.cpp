// AllReduceSimplifier, the case that needs no replica count: an
// all-reduce, all-gather, reduce-scatter or all-to-all whose replica groups
// all have one member exchanges nothing, so it is replaced by its operand
// (a tuple of its operands when it has several). Collectives over larger or
// unspecified groups are kept: with two replicas an all-reduce is a sum,
// even though the reference interpreter, running one device, treats every
// collective as the identity.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// True for `{{0},{1},...}`: every group has exactly one replica.
bool singletonGroups(const Instruction &instruction) {
  const Attribute *groups = instruction.findAttribute("replica_groups");
  if (!groups)
    return false;
  const std::string &text = groups->value;
  if (text.size() < 4 || text.front() != '{' || text.back() != '}')
    return false;
  std::string inner = text.substr(1, text.size() - 2);
  size_t groupsSeen = 0;
  for (size_t pos = 0; pos < inner.size();) {
    if (inner[pos] == ',' || inner[pos] == ' ') {
      ++pos;
      continue;
    }
    if (inner[pos] != '{')
      return false;
    size_t close = inner.find('}', pos);
    if (close == std::string::npos)
      return false;
    std::string members = inner.substr(pos + 1, close - pos - 1);
    if (members.empty() || members.find(',') != std::string::npos)
      return false;
    ++groupsSeen;
    pos = close + 1;
  }
  return groupsSeen > 0;
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  switch (instruction.opcode()) {
  case Opcode::AllReduce:
  case Opcode::AllGather:
  case Opcode::ReduceScatter:
  case Opcode::AllToAll:
    break;
  default:
    return nullptr;
  }
  if (!singletonGroups(instruction) || instruction.operandCount() == 0)
    return nullptr;
  if (instruction.operandCount() == 1) {
    Instruction *operand = instruction.operand(0);
    return operand->shape().compatible(instruction.shape()) ? operand : nullptr;
  }
  if (!instruction.shape().isTuple() ||
      instruction.shape().tupleShapes().size() != instruction.operandCount())
    return nullptr;
  std::vector<Shape> shapes;
  for (size_t i = 0; i < instruction.operandCount(); ++i) {
    if (!instruction.operand(i)->shape().compatible(
            instruction.shape().tupleShape(i)))
      return nullptr;
    shapes.push_back(instruction.operand(i)->shape());
  }
  return editor.add(*instruction.parent(), Opcode::Tuple, Shape::tuple(shapes),
                    instruction.operands());
}

} // namespace

Result<bool> runAllReduceSimplifier(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
