// The reference interpreter's evaluation of computations: instruction
// order, value lifetimes, dispatch by opcode, and control flow.
#include "InterpreterElements.h"
#include "InterpreterInternal.h"
#include "InterpreterScalarProgram.h"

#include "rlopt/graph/Computation.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_set>

namespace rlopt::graph::interp {

std::vector<const Instruction *>
reachableInOrder(const Computation &computation) {
  std::vector<const Instruction *> order;
  if (!computation.root())
    return order;
  std::unordered_set<const Instruction *> seen;
  // Iterative post-order: deep graphs (thousands of instructions in a
  // chain) would overflow a recursive walk.
  std::vector<std::pair<const Instruction *, size_t>> stack;
  stack.emplace_back(computation.root(), 0);
  seen.insert(computation.root());
  while (!stack.empty()) {
    auto &[instruction, next] = stack.back();
    if (next < instruction->operandCount()) {
      const Instruction *operand = instruction->operand(next++);
      if (seen.insert(operand).second)
        stack.emplace_back(operand, 0);
      continue;
    }
    order.push_back(instruction);
    stack.pop_back();
  }
  return order;
}

/// A computation prepared for evaluation: its instructions in order, where
/// each one's operands are, and how many uses each value has (a value is
/// released, or moved into its last user, when they are spent).
struct Interpreter::Plan {
  std::vector<const Instruction *> order;
  std::vector<std::vector<int32_t>> operandSlots;
  std::vector<int32_t> uses;
  int32_t rootSlot = -1;
};

Interpreter::Interpreter(const InterpreterOptions &options) : opts(options) {}
Interpreter::~Interpreter() = default;

const Interpreter::Plan &Interpreter::plan(const Computation &computation) {
  std::unique_ptr<Plan> &cached = plans[&computation];
  if (cached)
    return *cached;
  auto prepared = std::make_unique<Plan>();
  prepared->order = reachableInOrder(computation);
  std::unordered_map<const Instruction *, int32_t> slotOf;
  for (size_t i = 0; i < prepared->order.size(); ++i)
    slotOf[prepared->order[i]] = static_cast<int32_t>(i);
  prepared->uses.assign(prepared->order.size(), 0);
  prepared->operandSlots.resize(prepared->order.size());
  for (size_t i = 0; i < prepared->order.size(); ++i) {
    for (const Instruction *operand : prepared->order[i]->operands()) {
      int32_t slot = slotOf.at(operand);
      prepared->operandSlots[i].push_back(slot);
      ++prepared->uses[slot];
    }
  }
  if (computation.root()) {
    prepared->rootSlot = slotOf.at(computation.root());
    ++prepared->uses[prepared->rootSlot];
  }
  cached = std::move(prepared);
  return *cached;
}

const ScalarProgram *
Interpreter::scalarProgram(const Computation &computation) {
  auto found = programs.find(&computation);
  if (found == programs.end())
    found =
        programs
            .emplace(&computation, ScalarProgram::compile(*this, computation))
            .first;
  return found->second.get();
}

Status Interpreter::checkSize(const Instruction &instruction,
                              const Shape &shape) const {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      if (Status status = checkSize(instruction, element); !status)
        return status;
    return Status::success();
  }
  if (!shape.isArray())
    return Status::success();
  int64_t count = 1;
  bool over = false;
  for (int64_t dim : shape.dims()) {
    if (dim > 0 && count > std::numeric_limits<int64_t>::max() / dim)
      over = true; // the count itself would overflow
    count = over ? count : count * std::max<int64_t>(dim, 0);
  }
  if (over || count > opts.maxElements)
    return failAt(instruction,
                  "result " + shape.toString(false) + " has " +
                      (over ? std::string("too many") : std::to_string(count)) +
                      " elements, over the interpreter's limit of " +
                      std::to_string(opts.maxElements) +
                      " (InterpreterOptions::maxElements)");
  return Status::success();
}

Result<RuntimeValue> Interpreter::call(const Computation &computation,
                                       std::vector<RuntimeValue> arguments) {
  if (!computation.root())
    return makeError("computation " + computation.name() + " has no root");
  if (depth >= opts.maxCallDepth)
    return makeError("computation " + computation.name() +
                     ": calls nest deeper than " +
                     std::to_string(opts.maxCallDepth) +
                     " computations (InterpreterOptions::maxCallDepth)");
  struct DepthScope {
    int64_t &depth;
    explicit DepthScope(int64_t &depth) : depth(++depth) {}
    ~DepthScope() { --depth; }
  } scope(depth);
  const Plan &prepared = plan(computation);
  std::vector<RuntimeValue> values(prepared.order.size());
  std::vector<int32_t> uses = prepared.uses;
  Operands operands;
  for (size_t i = 0; i < prepared.order.size(); ++i) {
    const Instruction &instruction = *prepared.order[i];
    const std::vector<int32_t> &slots = prepared.operandSlots[i];
    if (instruction.opcode() == Opcode::GetTupleElement && slots.size() == 1) {
      // Take the element without copying the whole tuple.
      RuntimeValue &tuple = values[slots[0]];
      size_t index = static_cast<size_t>(instruction.tupleIndex());
      if (!tuple.shape.isTuple() || index >= tuple.elements.size())
        return failAt(instruction, "index " + std::to_string(index) +
                                       " is out of range for " +
                                       tuple.shape.toString(false));
      bool last = --uses[slots[0]] == 0;
      values[i] =
          last ? std::move(tuple.elements[index]) : tuple.elements[index];
      if (last)
        tuple = RuntimeValue();
      continue;
    }
    operands.clear();
    for (int32_t slot : slots) {
      if (--uses[slot] == 0)
        operands.push_back(std::move(values[slot]));
      else
        operands.push_back(values[slot]);
    }
    if (Status size = checkSize(instruction, instruction.shape()); !size)
      return size.error();
    auto value = dispatch(instruction, operands, arguments);
    if (!value)
      return value.error();
    values[i] = value.takeValue();
  }
  return std::move(values[prepared.rootSlot]);
}

namespace {

std::vector<RuntimeValue> single(RuntimeValue value) {
  std::vector<RuntimeValue> values;
  values.push_back(std::move(value));
  return values;
}

/// The operand unchanged, under the instruction's shape (a copy may change
/// the layout, which values do not model).
RuntimeValue passThrough(const Instruction &instruction, RuntimeValue value) {
  if (value.shape.isArray() && instruction.shape().isArray())
    value.shape = instruction.shape();
  return value;
}

Result<RuntimeValue> callComputation(Interpreter &interpreter,
                                     const Instruction &instruction,
                                     std::string_view key, Operands &operands) {
  const Computation *callee = instruction.calledComputation(key);
  if (!callee)
    return failAt(instruction, "has no " + std::string(key) + " computation");
  return interpreter.call(*callee, std::move(operands));
}

} // namespace

Result<RuntimeValue> Interpreter::evaluateWhile(const Instruction &instruction,
                                                Operands &operands) {
  const Computation *condition = instruction.calledComputation("condition");
  const Computation *body = instruction.calledComputation("body");
  if (!condition || !body || operands.size() != 1)
    return failAt(instruction, "needs one operand, a condition and a body");
  RuntimeValue state = std::move(operands[0]);
  for (int64_t iteration = 0;; ++iteration) {
    auto proceed = call(*condition, single(state));
    if (!proceed)
      return proceed.error();
    if (proceed->size() != 1)
      return failAt(instruction,
                    "condition " + condition->name() + " must return pred[]");
    if (proceed->data()[0] == 0)
      return state;
    if (iteration >= opts.maxWhileIterations)
      return failAt(instruction,
                    "ran over " + std::to_string(opts.maxWhileIterations) +
                        " iterations (InterpreterOptions::maxWhileIterations)");
    auto next = call(*body, single(std::move(state)));
    if (!next)
      return next.error();
    state = next.takeValue();
  }
}

Result<RuntimeValue>
Interpreter::evaluateConditional(const Instruction &instruction,
                                 Operands &operands) {
  std::vector<Computation *> branches;
  if (const Attribute *listed =
          instruction.findAttribute("branch_computations"))
    branches = listed->computations;
  else
    branches = {instruction.calledComputation("true_computation"),
                instruction.calledComputation("false_computation")};
  if (branches.empty() || operands.size() != branches.size() + 1 ||
      operands[0].size() != 1)
    return failAt(instruction, "needs a scalar selector and one operand per "
                               "branch computation");
  for (const Computation *branch : branches)
    if (!branch)
      return failAt(instruction, "is missing a branch computation");
  double selector = operands[0].data()[0];
  size_t branch;
  if (operands[0].shape.type() == ElementType::Pred) {
    branch = selector != 0 ? 0 : 1;
  } else {
    // An index out of range selects the last branch.
    branch = selector < 0 || selector >= static_cast<double>(branches.size())
                 ? branches.size() - 1
                 : static_cast<size_t>(selector);
  }
  return call(*branches[branch], single(std::move(operands[branch + 1])));
}

Result<RuntimeValue>
Interpreter::dispatch(const Instruction &instruction, Operands &operands,
                      std::vector<RuntimeValue> &arguments) {
  Opcode opcode = instruction.opcode();
  if (isUnaryElementwise(opcode) || isBinaryElementwise(opcode))
    return evaluateElementwise(*this, instruction, operands);
  switch (opcode) {
  case Opcode::Parameter: {
    int64_t number = instruction.parameterNumber();
    if (number < 0 || number >= static_cast<int64_t>(arguments.size()))
      return failAt(instruction, "parameter " + std::to_string(number) +
                                     " has no argument (" +
                                     std::to_string(arguments.size()) +
                                     " given)");
    // Each parameter instruction reads its argument once.
    return std::move(arguments[number]);
  }
  case Opcode::Constant:
    return evaluateConstant(*this, instruction);
  case Opcode::Tuple: {
    RuntimeValue tuple = makeTuple(std::move(operands));
    tuple.shape = instruction.shape();
    return tuple;
  }
  case Opcode::Call:
    return callComputation(*this, instruction, "to_apply", operands);
  case Opcode::Fusion:
    return callComputation(*this, instruction, "calls", operands);
  case Opcode::While:
    return evaluateWhile(instruction, operands);
  case Opcode::Conditional:
    return evaluateConditional(instruction, operands);

  case Opcode::Copy:
  case Opcode::Domain:
  case Opcode::OptimizationBarrier:
  case Opcode::SetDimensionSize:
  case Opcode::AddDependency:
    return passThrough(instruction, std::move(operands[0]));
  case Opcode::AfterAll: {
    RuntimeValue token;
    token.shape = instruction.shape();
    return token;
  }
  case Opcode::PartitionId:
  case Opcode::ReplicaId:
    return makeArray(instruction.shape(), {0.0});
  case Opcode::GetDimensionSize: {
    const std::vector<int64_t> &dims = instruction.dimensions();
    if (dims.size() != 1 || dims[0] < 0 || dims[0] >= operands[0].shape.rank())
      return failAt(instruction, "needs one dimension of the operand");
    return makeArray(instruction.shape(),
                     {static_cast<double>(operands[0].shape.dim(dims[0]))});
  }

  case Opcode::Compare:
  case Opcode::Select:
  case Opcode::Clamp:
  case Opcode::Convert:
  case Opcode::BitcastConvert:
  case Opcode::ReducePrecision:
    return evaluateElementwise(*this, instruction, operands);
  case Opcode::Map:
    return evaluateMap(*this, instruction, operands);

  case Opcode::Broadcast:
  case Opcode::Reshape:
  case Opcode::DynamicReshape:
  case Opcode::Bitcast:
  case Opcode::Transpose:
  case Opcode::Slice:
  case Opcode::DynamicSlice:
  case Opcode::DynamicUpdateSlice:
  case Opcode::Concatenate:
  case Opcode::Pad:
  case Opcode::Reverse:
  case Opcode::Iota:
    return evaluateShapeOp(*this, instruction, operands);
  case Opcode::Gather:
    return evaluateGather(*this, instruction, operands);
  case Opcode::Scatter:
    return evaluateScatter(*this, instruction, operands);

  case Opcode::Reduce:
    return evaluateReduce(*this, instruction, operands);
  case Opcode::ReduceWindow:
    return evaluateReduceWindow(*this, instruction, operands);
  case Opcode::SelectAndScatter:
    return evaluateSelectAndScatter(*this, instruction, operands);
  case Opcode::Sort:
    return evaluateSort(*this, instruction, operands);
  case Opcode::Dot:
    return evaluateDot(*this, instruction, operands);
  case Opcode::Convolution:
    return evaluateConvolution(*this, instruction, operands);
  case Opcode::BatchNormTraining:
  case Opcode::BatchNormInference:
  case Opcode::BatchNormGrad:
    return evaluateBatchNorm(*this, instruction, operands);
  case Opcode::TriangularSolve:
    return evaluateTriangularSolve(*this, instruction, operands);
  case Opcode::Cholesky:
    return evaluateCholesky(*this, instruction, operands);
  case Opcode::CustomCall:
    return evaluateCustomCall(*this, instruction, operands);
  case Opcode::Rng:
    return evaluateRng(*this, instruction, operands);
  case Opcode::RngBitGenerator:
    return evaluateRngBitGenerator(*this, instruction, operands);

  case Opcode::AllReduce:
  case Opcode::AllReduceStart:
  case Opcode::AllReduceDone:
  case Opcode::AllGather:
  case Opcode::ReduceScatter:
  case Opcode::AllToAll:
  case Opcode::CollectivePermute:
  case Opcode::CollectiveBroadcast:
    return evaluateCollective(*this, instruction, operands);
  default:
    return failAt(instruction, "opcode " + std::string(opcodeName(opcode)) +
                                   " is not supported by the interpreter");
  }
}

namespace {

Status checkArgument(const Shape &expected, const Value &value,
                     const std::string &path) {
  if (!expected.compatible(value.shape))
    return makeError("argument " + path + ": expected " +
                     expected.toString(false) + ", got " +
                     value.shape.toString(false));
  if (expected.isTuple()) {
    if (value.elements.size() != expected.tupleShapes().size())
      return makeError("argument " + path + ": expected " +
                       std::to_string(expected.tupleShapes().size()) +
                       " tuple elements, got " +
                       std::to_string(value.elements.size()));
    for (size_t i = 0; i < value.elements.size(); ++i)
      if (Status status =
              checkArgument(expected.tupleShape(i), value.elements[i],
                            path + "." + std::to_string(i));
          !status)
        return status;
    return Status::success();
  }
  int64_t count =
      expected.elementCount() * (isComplex(expected.type()) ? 2 : 1);
  if (static_cast<int64_t>(value.data.size()) != count)
    return makeError("argument " + path + ": " + expected.toString(false) +
                     " needs " + std::to_string(count) + " values, got " +
                     std::to_string(value.data.size()));
  return Status::success();
}

/// Fails before evaluating anything when some value of a computation the
/// entry can reach is over the size limit: a large graph would otherwise
/// run for a long time before reaching it.
Status checkSizesUpFront(const Interpreter &interpreter,
                         const Computation &entry) {
  std::vector<const Computation *> pending = {&entry};
  std::unordered_set<const Computation *> seen = {&entry};
  while (!pending.empty()) {
    const Computation *computation = pending.back();
    pending.pop_back();
    for (const auto &instruction : computation->instructions()) {
      if (Status status =
              interpreter.checkSize(*instruction, instruction->shape());
          !status)
        return status;
      for (const Computation *callee : instruction->calledComputations())
        if (callee && seen.insert(callee).second)
          pending.push_back(callee);
    }
  }
  return Status::success();
}

} // namespace

} // namespace rlopt::graph::interp

namespace rlopt::graph {

Result<Value> evaluate(const Module &module,
                       const std::vector<Value> &arguments,
                       const InterpreterOptions &options) {
  const Computation *entry = module.entry();
  if (!entry)
    return makeError("evaluate: module " + module.name() +
                     " has no entry computation");
  std::vector<Instruction *> parameters = entry->parameters();
  if (arguments.size() != parameters.size())
    return makeError("evaluate: entry computation " + entry->name() +
                     " takes " + std::to_string(parameters.size()) +
                     " arguments, got " + std::to_string(arguments.size()));
  std::vector<interp::RuntimeValue> values;
  values.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (Status status = interp::checkArgument(parameters[i]->shape(),
                                              arguments[i], std::to_string(i));
        !status)
      return makeError("evaluate: " + status.error().message);
    values.push_back(interp::fromPublic(arguments[i]));
  }
  int64_t depth =
      std::min(interp::nestingDepth(*entry), options.maxCallDepth + 1);
  std::optional<Result<Value>> outcome;
  Status ran = interp::runWithStack(
      static_cast<size_t>(std::max<int64_t>(depth, 0)) * interp::kStackPerLevel,
      [&] {
        interp::BufferScope pool;
        interp::Interpreter interpreter(options);
        if (Status status = interp::checkSizesUpFront(interpreter, *entry);
            !status) {
          outcome = status.error();
          return;
        }
        auto result = interpreter.call(*entry, std::move(values));
        outcome = result ? Result<Value>(interp::toPublic(*result))
                         : Result<Value>(result.error());
      });
  if (!ran)
    return ran.error();
  return std::move(*outcome);
}

} // namespace rlopt::graph
