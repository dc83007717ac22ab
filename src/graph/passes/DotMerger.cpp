// DotMerger: dots that share an operand (the same instruction on the same
// side), with equal dimension numbers and types, whose other operands each
// have a single free dimension and agree elsewhere, and that do not depend
// on one another, become one dot on the concatenation of the other operands
// plus a slice per original dot. Adds instructions (concatenate, slices);
// fewer, larger dots are what XLA wants.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <map>

namespace rlopt::graph {

namespace {

// The single dimension of `operand` that is neither batch nor contracting.
int64_t singleFreeDim(const Instruction *operand,
                      const std::vector<int64_t> &batch,
                      const std::vector<int64_t> &contracting) {
  int64_t found = -1;
  for (int64_t d = 0; d < operand->shape().rank(); ++d) {
    if (std::count(batch.begin(), batch.end(), d) ||
        std::count(contracting.begin(), contracting.end(), d))
      continue;
    if (found >= 0)
      return -1;
    found = d;
  }
  return found;
}

// Whether `target` is among the transitive operands of `from`.
bool dependsOn(const Instruction *from, const Instruction *target) {
  std::unordered_set<const Instruction *> seen;
  std::vector<const Instruction *> work(from->operands().begin(),
                                        from->operands().end());
  while (!work.empty()) {
    const Instruction *next = work.back();
    work.pop_back();
    if (next == target)
      return true;
    if (!seen.insert(next).second)
      continue;
    work.insert(work.end(), next->operands().begin(), next->operands().end());
  }
  return false;
}

std::string groupKey(const Instruction &dot, int shared, int64_t freeDim) {
  const Instruction *other = dot.operand(1 - shared);
  // Everything except the other operand's free dimension must agree.
  std::vector<int64_t> dims = other->shape().dims();
  dims[freeDim] = -1;
  std::string key = std::to_string(shared) + '|' + std::to_string(freeDim) +
                    '|' + std::string(elementTypeName(dot.shape().type())) +
                    '|' + std::string(elementTypeName(other->shape().type())) +
                    '|' + formatIntList(dims);
  for (const Attribute &attribute : dot.attributes())
    if (attribute.key != "metadata")
      key += '|' + attribute.key + '=' + attribute.value;
  return key;
}

void mergeGroup(ModuleEditor &editor, Computation &computation,
                const std::vector<Instruction *> &dots, int shared,
                int64_t freeDim) {
  const Instruction &first = *dots.front();
  const DotDims &dims = first.dotDims();
  std::vector<Instruction *> others;
  int64_t total = 0;
  for (Instruction *dot : dots) {
    others.push_back(dot->operand(1 - shared));
    total += dot->operand(1 - shared)->shape().dim(freeDim);
  }
  std::vector<int64_t> concatDims = others.front()->shape().dims();
  concatDims[freeDim] = total;
  Instruction *concat =
      editor.add(computation, Opcode::Concatenate,
                 arrayShape(others.front()->shape().type(), concatDims), others,
                 {{"dimensions", formatIntList({freeDim})}});
  // The other operand's free dimension lands here in the output.
  int64_t batch = static_cast<int64_t>(dims.lhsBatch.size());
  int64_t outputDim = shared == 0 ? first.shape().rank() - 1 : batch;
  std::vector<int64_t> outDims = first.shape().dims();
  outDims[outputDim] = total;
  std::vector<Instruction *> operands = {first.operand(0), first.operand(1)};
  operands[1 - shared] = concat;
  auto merged = copyInstruction(first, editor.names().fresh("dot"), operands);
  merged->setShape(arrayShape(first.shape().type(), outDims));
  Instruction *dot = editor.adopt(computation, std::move(merged));
  int64_t offset = 0;
  for (Instruction *original : dots) {
    std::vector<SliceDim> slice;
    for (int64_t d = 0; d < original->shape().rank(); ++d)
      slice.push_back({0, original->shape().dim(d), 1});
    int64_t size = original->shape().dim(outputDim);
    slice[outputDim] = {offset, offset + size, 1};
    offset += size;
    editor.replace(original, addSlice(editor, computation, dot, slice));
  }
}

struct Group {
  int shared = 0;
  int64_t freeDim = 0;
  std::vector<Instruction *> dots;
};

} // namespace

Result<bool> runDotMerger(Module &module) {
  ModuleEditor editor(module);
  for (const auto &computation : module.computations()) {
    std::map<std::pair<Instruction *, std::string>, size_t> index;
    std::vector<Group> groups;
    for (Instruction *instruction : topologicalOrder(*computation)) {
      if (instruction->opcode() != Opcode::Dot ||
          !isStaticArray(instruction->shape()) ||
          instruction->operand(0) == instruction->operand(1))
        continue;
      const DotDims &dims = instruction->dotDims();
      for (int shared = 0; shared < 2; ++shared) {
        const Instruction *other = instruction->operand(1 - shared);
        int64_t freeDim =
            shared == 0
                ? singleFreeDim(other, dims.rhsBatch, dims.rhsContracting)
                : singleFreeDim(other, dims.lhsBatch, dims.lhsContracting);
        if (freeDim < 0)
          continue;
        auto [it, inserted] =
            index.try_emplace({instruction->operand(shared),
                               groupKey(*instruction, shared, freeDim)},
                              groups.size());
        if (inserted)
          groups.push_back({shared, freeDim, {}});
        groups[it->second].dots.push_back(instruction);
      }
    }
    std::unordered_set<const Instruction *> merged;
    for (const Group &group : groups) {
      std::vector<Instruction *> chosen;
      for (Instruction *dot : group.dots) {
        if (merged.count(dot))
          continue;
        bool independent = true;
        for (Instruction *other : chosen)
          if (dependsOn(dot, other) || dependsOn(other, dot))
            independent = false;
        if (independent)
          chosen.push_back(dot);
      }
      if (chosen.size() < 2)
        continue;
      mergeGroup(editor, *computation, chosen, group.shared, group.freeDim);
      merged.insert(chosen.begin(), chosen.end());
    }
  }
  return editor.commit();
}

} // namespace rlopt::graph
