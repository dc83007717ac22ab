// SliceSinker: elementwise ops of the same kind applied to matching slices
// of the same arrays (operand j of every op slices array a_j, all operands
// of one op with the same range), whose ranges together cover the arrays
// exactly once, become one op on the whole arrays followed by one slice per
// original op. Groups that leave part of the arrays uncovered are left
// alone (the op would compute more than before).
#include "PassSupport.h"
#include "Passes.h"

#include <map>

namespace rlopt::graph {

namespace {

bool overlaps(const std::vector<SliceDim> &a, const std::vector<SliceDim> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].limit <= b[i].start || b[i].limit <= a[i].start)
      return false;
  return true;
}

// The key of an op whose operands all slice same-shaped arrays with one
// range; empty if it does not qualify.
std::string groupKey(const Instruction &instruction) {
  if (!isElementwise(instruction.opcode()) ||
      !isStaticArray(instruction.shape()) || instruction.operandCount() == 0)
    return "";
  const Instruction *first = instruction.operand(0);
  if (first->opcode() != Opcode::Slice)
    return "";
  std::string key(opcodeName(instruction.opcode()));
  key += ' ' + std::string(elementTypeName(instruction.shape().type()));
  for (const Instruction *operand : instruction.operands()) {
    if (operand->opcode() != Opcode::Slice ||
        formatSlice(operand->slice()) != formatSlice(first->slice()) ||
        operand->operand(0)->shape().dims() !=
            first->operand(0)->shape().dims())
      return "";
    for (const SliceDim &dim : operand->slice())
      if (dim.stride != 1)
        return "";
    key += ' ' + operand->operand(0)->name();
  }
  for (const Attribute &attribute : instruction.attributes())
    if (attribute.key != "metadata")
      key += ' ' + attribute.key + '=' + attribute.value;
  return key;
}

} // namespace

Result<bool> runSliceSinker(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    std::map<std::string, size_t> index;
    std::vector<std::vector<Instruction *>> groups;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      std::string key = groupKey(*instruction);
      if (key.empty())
        continue;
      auto [it, inserted] = index.try_emplace(key, groups.size());
      if (inserted)
        groups.emplace_back();
      groups[it->second].push_back(instruction);
    }
    for (const auto &group : groups) {
      if (group.size() < 2)
        continue;
      const Instruction *sample = group.front()->operand(0);
      const Shape &source = sample->operand(0)->shape();
      int64_t covered = 0;
      bool disjoint = true;
      for (size_t a = 0; a < group.size(); ++a) {
        covered += group[a]->shape().elementCount();
        for (size_t b = 0; b < a; ++b)
          disjoint &= !overlaps(group[a]->operand(0)->slice(),
                                group[b]->operand(0)->slice());
      }
      if (!disjoint || covered != source.elementCount())
        continue;
      std::vector<Instruction *> sources;
      for (Instruction *operand : group.front()->operands())
        sources.push_back(operand->operand(0));
      auto whole = copyInstruction(
          *group.front(),
          editor.names().fresh(opcodeName(group.front()->opcode())), sources);
      whole->setShape(arrayShape(group.front()->shape().type(), source.dims()));
      Instruction *full = editor.adopt(*computation, std::move(whole));
      for (Instruction *member : group)
        editor.replace(member, addSlice(editor, *computation, full,
                                        member->operand(0)->slice()));
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
