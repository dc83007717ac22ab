// WhileLoopSimplifier: (1) a loop whose condition is false on its initial
// value (a compare of constant-initialised counters, or a constant) is
// replaced by that value; (2) reads of loop-invariant tuple elements (the
// body passes them through) after the loop read the initial value instead;
// (3) tuple elements that neither the condition, the loop's users, a
// side-effecting instruction nor another live element needs are removed
// from the loop state, body, condition and initial tuple. Loops whose body
// or condition is shared, or whose state is used other than through
// get-tuple-element, are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <set>

namespace rlopt::graph {

namespace {

// The known scalar value of `value` in the loop's first condition check.
std::optional<double> initialScalar(const Instruction *value,
                                    const Instruction *parameter,
                                    const Instruction *init) {
  if (value->shape().rank() != 0)
    return std::nullopt;
  if (value->opcode() == Opcode::GetTupleElement &&
      value->operand(0) == parameter) {
    if (init->opcode() != Opcode::Tuple)
      return std::nullopt;
    return uniformConstantValue(init->operand(value->tupleIndex()));
  }
  return uniformConstantValue(value);
}

bool runsZeroTimes(const Instruction &loop) {
  const Computation *condition = loop.calledComputation("condition");
  if (!condition || condition->parameters().size() != 1)
    return false;
  // The condition runs once even then; its effects must not go.
  for (const auto &instruction : condition->instructions())
    if (hasSideEffect(*instruction))
      return false;
  const Instruction *root = condition->root();
  const Instruction *parameter = condition->parameters()[0];
  const Instruction *init = loop.operand(0);
  if (auto value = uniformConstantValue(root))
    return *value == 0;
  if (root->opcode() != Opcode::Compare || root->findAttribute("type"))
    return false;
  auto lhs = initialScalar(root->operand(0), parameter, init);
  auto rhs = initialScalar(root->operand(1), parameter, init);
  auto direction = root->comparisonDirection();
  if (!lhs || !rhs || !direction)
    return false;
  switch (*direction) {
  case ComparisonDirection::Eq:
    return !(*lhs == *rhs);
  case ComparisonDirection::Ne:
    return !(*lhs != *rhs);
  case ComparisonDirection::Ge:
    return !(*lhs >= *rhs);
  case ComparisonDirection::Gt:
    return !(*lhs > *rhs);
  case ComparisonDirection::Le:
    return !(*lhs <= *rhs);
  case ComparisonDirection::Lt:
    return !(*lhs < *rhs);
  }
  return false;
}

// The get-tuple-element users of `parameter`, or nothing if it has others.
std::optional<std::vector<Instruction *>>
elementReads(const Computation &computation, const Instruction *parameter) {
  std::vector<Instruction *> reads;
  if (computation.root() == parameter)
    return std::nullopt;
  for (const auto &instruction : computation.instructions())
    for (const Instruction *operand : instruction->operands())
      if (operand == parameter) {
        if (instruction->opcode() != Opcode::GetTupleElement)
          return std::nullopt;
        reads.push_back(instruction.get());
        break;
      }
  return reads;
}

class LoopRewrite {
public:
  LoopRewrite(ModuleEditor &editor, Instruction &loop)
      : editor(editor), loop(loop), caller(*loop.parent()),
        body(loop.calledComputation("body")),
        condition(loop.calledComputation("condition")) {}

  bool run(const UseMap &callerUses) {
    if (!body || !condition || !loop.shape().isTuple() ||
        body->parameters().size() != 1 || condition->parameters().size() != 1 ||
        body->root()->opcode() != Opcode::Tuple)
      return false;
    bodyParameter = body->parameters()[0];
    conditionParameter = condition->parameters()[0];
    auto bodyReads = elementReads(*body, bodyParameter);
    auto conditionReads = elementReads(*condition, conditionParameter);
    if (!bodyReads || !conditionReads || caller.root() == &loop)
      return false;
    for (Instruction *user : callerUses.users(&loop))
      if (user->opcode() != Opcode::GetTupleElement)
        return false;
    size_t count = loop.shape().tupleShapes().size();
    if (body->root()->operandCount() != count)
      return false;

    bool changed = forwardInvariantReads(callerUses);
    std::vector<bool> live = liveElements(*conditionReads, callerUses);
    std::vector<int64_t> newIndex(count, -1);
    int64_t kept = 0;
    for (size_t i = 0; i < count; ++i)
      if (live[i])
        newIndex[i] = kept++;
    if (kept == static_cast<int64_t>(count) || kept == 0)
      return changed;
    removeElements(live, newIndex, *bodyReads, *conditionReads, callerUses);
    return true;
  }

private:
  bool isInvariant(int64_t index) const {
    const Instruction *value = body->root()->operand(index);
    return value->opcode() == Opcode::GetTupleElement &&
           value->operand(0) == bodyParameter && value->tupleIndex() == index;
  }

  Instruction *initialElement(int64_t index) {
    Instruction *init = loop.operand(0);
    if (init->opcode() == Opcode::Tuple)
      return init->operand(index);
    return editor.add(caller, Opcode::GetTupleElement,
                      loop.shape().tupleShape(index), {init},
                      {{"index", std::to_string(index)}});
  }

  bool forwardInvariantReads(const UseMap &callerUses) {
    bool changed = false;
    for (Instruction *read : callerUses.users(&loop)) {
      if (!isInvariant(read->tupleIndex()))
        continue;
      editor.replace(read, initialElement(read->tupleIndex()));
      forwarded.insert(read);
      changed = true;
    }
    return changed;
  }

  std::vector<bool>
  liveElements(const std::vector<Instruction *> &conditionReads,
               const UseMap &callerUses) {
    size_t count = loop.shape().tupleShapes().size();
    std::vector<bool> live(count, false);
    std::vector<int64_t> work;
    auto mark = [&](int64_t index) {
      if (index >= 0 && index < static_cast<int64_t>(count) && !live[index]) {
        live[index] = true;
        work.push_back(index);
      }
    };
    for (Instruction *read : conditionReads)
      mark(read->tupleIndex());
    for (Instruction *read : callerUses.users(&loop))
      if (!forwarded.count(read))
        mark(read->tupleIndex());
    // Elements a side-effecting body instruction reads stay.
    auto readsOf = [&](const Instruction *start) {
      std::vector<int64_t> indices;
      std::unordered_set<const Instruction *> seen;
      std::vector<const Instruction *> stack = {start};
      while (!stack.empty()) {
        const Instruction *next = stack.back();
        stack.pop_back();
        if (!seen.insert(next).second)
          continue;
        if (next->opcode() == Opcode::GetTupleElement &&
            next->operand(0) == bodyParameter) {
          indices.push_back(next->tupleIndex());
          continue;
        }
        for (const Instruction *operand : next->operands())
          stack.push_back(operand);
      }
      return indices;
    };
    for (const auto &instruction : body->instructions())
      if (hasSideEffect(*instruction))
        for (int64_t index : readsOf(instruction.get()))
          mark(index);
    while (!work.empty()) {
      int64_t index = work.back();
      work.pop_back();
      for (int64_t read : readsOf(body->root()->operand(index)))
        mark(read);
    }
    return live;
  }

  void removeElements(const std::vector<bool> &live,
                      const std::vector<int64_t> &newIndex,
                      const std::vector<Instruction *> &bodyReads,
                      const std::vector<Instruction *> &conditionReads,
                      const UseMap &callerUses) {
    std::vector<Shape> shapes;
    for (size_t i = 0; i < live.size(); ++i)
      if (live[i])
        shapes.push_back(loop.shape().tupleShape(i));
    Shape state = Shape::tuple(shapes);

    auto reindex = [&](Instruction *read) {
      int64_t index = newIndex[read->tupleIndex()];
      if (index < 0) {
        editor.removeIfDead(read);
        return;
      }
      Status status = read->setAttribute("index", std::to_string(index));
      (void)status;
    };
    bodyParameter->setShape(state);
    for (Instruction *read : bodyReads)
      reindex(read);
    Instruction *root = body->root();
    std::vector<Instruction *> results;
    for (size_t i = 0; i < live.size(); ++i) {
      if (live[i])
        results.push_back(root->operand(i));
      else
        editor.removeIfDead(root->operand(i));
    }
    root->setOperands(results);
    root->setShape(state);
    conditionParameter->setShape(state);
    for (Instruction *read : conditionReads)
      reindex(read);

    std::vector<Instruction *> initial;
    for (size_t i = 0; i < live.size(); ++i)
      if (live[i])
        initial.push_back(initialElement(static_cast<int64_t>(i)));
    editor.removeIfDead(loop.operand(0));
    loop.setOperands(
        {editor.add(caller, Opcode::Tuple, state, std::move(initial))});
    loop.setShape(state);
    for (Instruction *read : callerUses.users(&loop))
      if (!forwarded.count(read))
        reindex(read);
    editor.markChanged();
  }

  ModuleEditor &editor;
  Instruction &loop;
  Computation &caller;
  Computation *body, *condition;
  Instruction *bodyParameter = nullptr, *conditionParameter = nullptr;
  std::unordered_set<const Instruction *> forwarded;
};

} // namespace

Result<bool> runWhileLoopSimplifier(Module &module) {
  ModuleEditor editor(module);
  auto callers = callersOf(module);
  bool changed = false;
  for (const auto &computation : module.computations()) {
    UseMap uses(*computation);
    for (Instruction *loop : topologicalOrder(*computation)) {
      if (!ownsItsComputations(*loop, callers))
        continue;
      if (runsZeroTimes(*loop) &&
          loop->operand(0)->shape().compatible(loop->shape())) {
        editor.replace(loop, loop->operand(0));
        changed = true;
        continue;
      }
      changed |= LoopRewrite(editor, *loop).run(uses);
    }
  }
  if (changed)
    editor.markChanged();
  return editor.commit();
}

} // namespace rlopt::graph
