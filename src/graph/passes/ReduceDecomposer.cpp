// ReduceDecomposer's graph-level counterpart. XLA's pass splits reductions
// that change the layout into a reduce with the expected layout plus copies
// (for a variadic reduce: get-tuple-elements, copies and a tuple). Layouts
// here are only text, so what carries over is the split of a variadic
// reduce into its independent parts: when the reducer computes some outputs
// only from their own accumulators and elements, each such group of outputs
// becomes a reduce of its own with the group's part of the reducer, and
// get-tuple-elements of the old reduce read the new ones directly. Reducers
// that couple every output (argmax: the index follows the value) are left
// alone, as are layouts.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace rlopt::graph {

namespace {

using Group = std::vector<size_t>;

/// The instructions `roots` read, themselves included.
std::unordered_set<const Instruction *>
reachedFrom(const std::vector<const Instruction *> &roots) {
  std::unordered_set<const Instruction *> seen;
  std::vector<const Instruction *> work = roots;
  while (!work.empty()) {
    const Instruction *instruction = work.back();
    work.pop_back();
    if (!seen.insert(instruction).second)
      continue;
    for (const Instruction *operand : instruction->operands())
      work.push_back(operand);
  }
  return seen;
}

/// The outputs of a `count`-output reducer in groups that read disjoint
/// parameters (output k owns parameters k and count + k), each sorted, in
/// order of their first output; nullopt when the reducer is not a plain
/// tuple-returning computation.
std::optional<std::vector<Group>> outputGroups(const Computation &reducer,
                                               size_t count) {
  const Instruction *root = reducer.root();
  std::vector<Instruction *> params = reducer.parameters();
  if (root->opcode() != Opcode::Tuple || root->operandCount() != count ||
      params.size() != 2 * count)
    return std::nullopt;
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i]->parameterNumber() != static_cast<int64_t>(i) ||
        params[i]->shape().rank() != 0)
      return std::nullopt;
  for (const auto &instruction : reducer.instructions())
    if (hasSideEffect(*instruction))
      return std::nullopt;
  std::vector<size_t> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t k) {
    while (parent[k] != k)
      k = parent[k] = parent[parent[k]];
    return k;
  };
  for (size_t k = 0; k < count; ++k)
    for (const Instruction *read : reachedFrom({root->operand(k)}))
      if (read->opcode() == Opcode::Parameter) {
        size_t owner = static_cast<size_t>(read->parameterNumber()) % count;
        size_t a = find(k), b = find(owner);
        parent[std::max(a, b)] = std::min(a, b);
      }
  std::vector<Group> groups;
  std::unordered_map<size_t, size_t> groupOf;
  for (size_t k = 0; k < count; ++k) {
    auto [it, inserted] = groupOf.emplace(find(k), groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].push_back(k);
  }
  return groups;
}

/// A shared `(a, b) -> a op b` reducer when the group's one output is a
/// binary op of its own accumulator and element.
Computation *sharedReducer(ModuleEditor &editor, const Computation &reducer,
                           size_t output, size_t count) {
  const Instruction *op = reducer.root()->operand(output);
  if (!isBinaryElementwise(op->opcode()))
    return nullptr;
  const Instruction *lhs = op->operand(0), *rhs = op->operand(1);
  ElementType type = op->shape().type();
  if (lhs->opcode() != Opcode::Parameter ||
      rhs->opcode() != Opcode::Parameter || lhs->shape().type() != type ||
      rhs->shape().type() != type)
    return nullptr;
  auto accumulator = static_cast<int64_t>(output);
  auto element = static_cast<int64_t>(count + output);
  bool straight = lhs->parameterNumber() == accumulator &&
                  rhs->parameterNumber() == element;
  bool swapped = lhs->parameterNumber() == element &&
                 rhs->parameterNumber() == accumulator;
  if (!straight && !(swapped && isCommutative(op->opcode())))
    return nullptr;
  return scalarReducer(editor, op->opcode(), type);
}

/// The part of `reducer` that computes `group`, parameters renumbered to
/// the group's accumulators, then its elements.
Computation *groupReducer(ModuleEditor &editor, const Computation &reducer,
                          const Group &group, size_t count) {
  if (group.size() == 1)
    if (Computation *shared = sharedReducer(editor, reducer, group[0], count))
      return shared;
  auto part = std::make_unique<Computation>(
      editor.names().freshComputation(reducer.name() + ".split"));
  std::unordered_map<const Instruction *, Instruction *> map;
  std::vector<Instruction *> params = reducer.parameters();
  for (size_t side = 0; side < 2; ++side)
    for (size_t i = 0; i < group.size(); ++i) {
      const Instruction *param = params[side * count + group[i]];
      auto copy = copyInstruction(*param, param->name(), {});
      copy->setParameterNumber(static_cast<int64_t>(side * group.size() + i));
      map[param] = part->addInstruction(std::move(copy));
    }
  const Instruction *root = reducer.root();
  std::vector<const Instruction *> outputs;
  for (size_t k : group)
    outputs.push_back(root->operand(k));
  std::unordered_set<const Instruction *> needed = reachedFrom(outputs);
  for (Instruction *instruction : topologicalOrder(reducer)) {
    if (!needed.count(instruction) || map.count(instruction))
      continue;
    std::vector<Instruction *> operands;
    for (Instruction *operand : instruction->operands())
      operands.push_back(map.at(operand));
    map[instruction] = part->addInstruction(
        copyInstruction(*instruction, instruction->name(), operands));
  }
  if (group.size() == 1) {
    part->setRoot(map.at(outputs[0]));
  } else {
    std::vector<Instruction *> operands;
    std::vector<Shape> shapes;
    for (const Instruction *output : outputs) {
      operands.push_back(map.at(output));
      shapes.push_back(output->shape());
    }
    auto tuple = copyInstruction(*root, root->name(), operands);
    tuple->setShape(Shape::tuple(shapes));
    part->setRoot(part->addInstruction(std::move(tuple)));
  }
  return editor.addComputation(std::move(part));
}

/// One reduce per independent group of outputs, gathered in a tuple shaped
/// like the old reduce's result.
Instruction *decompose(Instruction &reduce, ModuleEditor &editor) {
  size_t count = reduce.operandCount() / 2;
  const Computation *reducer = reduce.calledComputation("to_apply");
  if (count < 2 || !reducer || !reduce.shape().isTuple() ||
      reduce.shape().tupleShapes().size() != count)
    return nullptr;
  auto groups = outputGroups(*reducer, count);
  if (!groups || groups->size() < 2)
    return nullptr;
  Computation &computation = *reduce.parent();
  std::vector<Instruction *> outputs(count, nullptr);
  for (const Group &group : *groups) {
    std::vector<Instruction *> operands;
    std::vector<Shape> shapes;
    for (size_t k : group) {
      operands.push_back(reduce.operand(k));
      shapes.push_back(reduce.shape().tupleShape(k));
    }
    for (size_t k : group)
      operands.push_back(reduce.operand(count + k));
    auto copy =
        copyInstruction(reduce, editor.names().fresh("reduce"), operands);
    copy->setShape(group.size() == 1 ? shapes[0] : Shape::tuple(shapes));
    copy->setCalledComputations("to_apply",
                                {groupReducer(editor, *reducer, group, count)});
    Instruction *part = editor.adopt(computation, std::move(copy));
    if (group.size() == 1) {
      outputs[group[0]] = part;
      continue;
    }
    for (size_t i = 0; i < group.size(); ++i)
      outputs[group[i]] =
          editor.add(computation, Opcode::GetTupleElement, shapes[i], {part},
                     {{"index", std::to_string(i)}});
  }
  return editor.add(computation, Opcode::Tuple, reduce.shape(), outputs);
}

} // namespace

Result<bool> runReduceDecomposer(Module &module) {
  // The tuples built here, so reads of them go straight to the parts and
  // the tuples die unless something else uses the whole result.
  std::unordered_set<const Instruction *> built;
  return rewriteEachInstruction(
      module,
      [&](Instruction &instruction, ModuleEditor &editor) -> Instruction * {
        if (instruction.opcode() == Opcode::GetTupleElement &&
            built.count(instruction.operand(0)))
          return instruction.operand(0)->operand(instruction.tupleIndex());
        if (instruction.opcode() != Opcode::Reduce)
          return nullptr;
        Instruction *tuple = decompose(instruction, editor);
        if (tuple)
          built.insert(tuple);
        return tuple;
      });
}

} // namespace rlopt::graph
