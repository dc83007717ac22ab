// WhileLoopUnroller, full unrolling: a loop with a statically known trip
// count (a counter initialised by a constant, stepped by a constant add in
// the body, compared with a constant in the condition) becomes that many
// inlined copies of its body, each fed the previous one's result. Like XLA
// it unrolls only loops of at most 64 trips and 800 body instructions, and
// at most 10000 instructions in all; it adds instructions. Loops with
// computed bounds are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

constexpr int64_t kMaxTrips = 64;
constexpr int64_t kMaxBodyInstructions = 800;
constexpr int64_t kMaxUnrolledInstructions = 10000;

struct Counter {
  int64_t index = -1;
  int64_t start = 0, step = 0, bound = 0;
  bool counterOnLeft = true;
  ComparisonDirection direction = ComparisonDirection::Lt;
};

std::optional<int64_t> integerConstant(const Instruction *value) {
  if (value->shape().rank() != 0 || isFloating(value->shape().type()) ||
      isComplex(value->shape().type()))
    return std::nullopt;
  auto constant = uniformConstantValue(value);
  if (!constant)
    return std::nullopt;
  return static_cast<int64_t>(*constant);
}

// The element the condition compares with a constant, if the body steps it
// by a constant and the loop starts it at one.
std::optional<Counter> findCounter(const Instruction &loop) {
  const Computation *condition = loop.calledComputation("condition");
  const Computation *body = loop.calledComputation("body");
  const Instruction *init = loop.operand(0);
  if (!condition || !body || init->opcode() != Opcode::Tuple ||
      condition->parameters().size() != 1 || body->parameters().size() != 1 ||
      body->root()->opcode() != Opcode::Tuple)
    return std::nullopt;
  const Instruction *compare = condition->root();
  if (compare->opcode() != Opcode::Compare || !compare->comparisonDirection())
    return std::nullopt;
  Counter counter;
  counter.direction = *compare->comparisonDirection();
  const Instruction *conditionParameter = condition->parameters()[0];
  for (int side = 0; side < 2; ++side) {
    const Instruction *read = compare->operand(side);
    auto bound = integerConstant(compare->operand(1 - side));
    if (read->opcode() == Opcode::GetTupleElement &&
        read->operand(0) == conditionParameter && bound) {
      counter.index = read->tupleIndex();
      counter.bound = *bound;
      counter.counterOnLeft = side == 0;
    }
  }
  if (counter.index < 0 ||
      counter.index >= static_cast<int64_t>(init->operandCount()))
    return std::nullopt;
  auto start = integerConstant(init->operand(counter.index));
  const Instruction *next = body->root()->operand(counter.index);
  if (!start || next->opcode() != Opcode::Add)
    return std::nullopt;
  const Instruction *bodyParameter = body->parameters()[0];
  for (int side = 0; side < 2; ++side) {
    const Instruction *read = next->operand(side);
    auto step = integerConstant(next->operand(1 - side));
    if (read->opcode() == Opcode::GetTupleElement &&
        read->operand(0) == bodyParameter &&
        read->tupleIndex() == counter.index && step) {
      counter.start = *start;
      counter.step = *step;
      return counter;
    }
  }
  return std::nullopt;
}

bool holds(const Counter &counter, int64_t value) {
  int64_t lhs = counter.counterOnLeft ? value : counter.bound;
  int64_t rhs = counter.counterOnLeft ? counter.bound : value;
  switch (counter.direction) {
  case ComparisonDirection::Eq:
    return lhs == rhs;
  case ComparisonDirection::Ne:
    return lhs != rhs;
  case ComparisonDirection::Ge:
    return lhs >= rhs;
  case ComparisonDirection::Gt:
    return lhs > rhs;
  case ComparisonDirection::Le:
    return lhs <= rhs;
  case ComparisonDirection::Lt:
    return lhs < rhs;
  }
  return false;
}

// Trips the loop makes, if at most kMaxTrips.
std::optional<int64_t> tripCount(const Counter &counter) {
  int64_t value = counter.start;
  for (int64_t trips = 0; trips <= kMaxTrips; ++trips) {
    if (!holds(counter, value))
      return trips;
    value += counter.step;
  }
  return std::nullopt;
}

} // namespace

Result<bool> runWhileLoopUnroller(Module &module) {
  ModuleEditor editor(module);
  auto callers = callersOf(module);
  std::unordered_map<Computation *, size_t> unrolled;
  int64_t added = 0;
  for (const auto &computation : module.computations()) {
    for (Instruction *loop : topologicalOrder(*computation)) {
      if (loop->opcode() != Opcode::While)
        continue;
      auto counter = findCounter(*loop);
      if (!counter)
        continue;
      auto trips = tripCount(*counter);
      Computation *body = loop->calledComputation("body");
      int64_t size = static_cast<int64_t>(body->instructionCount());
      if (!trips || size > kMaxBodyInstructions ||
          added + *trips * size > kMaxUnrolledInstructions)
        continue;
      Instruction *state = loop->operand(0);
      bool inlined = true;
      for (int64_t trip = 0; trip < *trips && inlined; ++trip) {
        auto result = inlineComputation(editor, *computation, *body, {state});
        if (!result)
          inlined = false;
        else
          state = *result;
      }
      if (!inlined || !state->shape().compatible(loop->shape()))
        continue;
      added += *trips * size;
      editor.replace(loop, state);
      ++unrolled[body];
      ++unrolled[loop->calledComputation("condition")];
    }
  }
  for (const auto &[called, loops] : unrolled)
    if (callers[called].size() == loops)
      editor.removeComputation(called);
  return editor.commit();
}

} // namespace rlopt::graph
