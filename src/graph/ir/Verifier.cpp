#include "rlopt/graph/Verifier.h"

#include "ShapeCheck.h"

#include <algorithm>
#include <unordered_map>

namespace rlopt::graph {

namespace {

std::string name(Opcode opcode) { return std::string(opcodeName(opcode)); }

// Computations each opcode calls; `conditional` is checked separately since
// it takes either form.
std::vector<const char *> requiredComputations(Opcode opcode) {
  switch (opcode) {
  case Opcode::Call:
  case Opcode::Reduce:
  case Opcode::ReduceWindow:
  case Opcode::Map:
  case Opcode::Scatter:
  case Opcode::Sort:
  case Opcode::AllReduce:
  case Opcode::AllReduceStart:
  case Opcode::ReduceScatter:
    return {"to_apply"};
  case Opcode::Fusion:
  case Opcode::AsyncStart:
    return {"calls"};
  case Opcode::While:
    return {"condition", "body"};
  case Opcode::SelectAndScatter:
    return {"select", "scatter"};
  default:
    return {};
  }
}

// Fewest operands of the variadic opcodes analyses index into.
size_t minimumOperands(Opcode opcode) {
  switch (opcode) {
  case Opcode::Reduce:
  case Opcode::ReduceWindow:
  case Opcode::Convolution:
    return 2;
  case Opcode::Scatter:
    return 3;
  case Opcode::Sort:
  case Opcode::Map:
  case Opcode::DynamicSlice:
  case Opcode::DynamicUpdateSlice:
  case Opcode::Concatenate:
    return 1;
  default:
    return 0;
  }
}

class Checker {
public:
  explicit Checker(const Module &module) : module(module) {}

  std::optional<VerifyProblem> run() {
    if (!module.entry())
      return VerifyProblem{nullptr, nullptr, "module has no entry computation"};
    for (const auto &computation : module.computations()) {
      current = computation.get();
      if (auto problem = checkComputation(*computation))
        return problem;
    }
    current = nullptr;
    if (auto problem = checkCallGraph())
      return problem;
    // Shapes last: their rules rely on the structure being sound.
    detail::Signatures signatures;
    for (const auto &computation : module.computations()) {
      current = computation.get();
      for (const auto &instruction : computation->instructions())
        if (auto message = detail::checkShape(*instruction, signatures))
          return at(instruction.get(), std::move(*message));
    }
    return std::nullopt;
  }

private:
  VerifyProblem at(const Instruction *instruction, std::string message) const {
    return VerifyProblem{current, instruction, std::move(message)};
  }

  std::optional<VerifyProblem> checkComputation(const Computation &computation);
  std::optional<VerifyProblem> checkParameters(const Computation &computation);
  std::optional<VerifyProblem> checkInstruction(const Instruction &instruction);
  std::optional<VerifyProblem> checkDot(const Instruction &instruction);
  std::optional<VerifyProblem> checkConvolution(const Instruction &instruction);
  std::optional<VerifyProblem> checkAcyclic(const Computation &computation);
  std::optional<VerifyProblem> checkCallGraph();

  const Module &module;
  const Computation *current = nullptr;
};

std::optional<VerifyProblem>
Checker::checkComputation(const Computation &computation) {
  if (computation.instructionCount() == 0)
    return VerifyProblem{&computation, nullptr,
                         "computation '" + computation.name() +
                             "' has no instructions"};
  if (!computation.root() || computation.root()->parent() != &computation)
    return VerifyProblem{&computation, nullptr,
                         "computation '" + computation.name() +
                             "' has no root of its own"};
  if (auto problem = checkParameters(computation))
    return problem;
  for (const auto &instruction : computation.instructions())
    if (auto problem = checkInstruction(*instruction))
      return problem;
  return checkAcyclic(computation);
}

std::optional<VerifyProblem>
Checker::checkParameters(const Computation &computation) {
  std::vector<Instruction *> params = computation.parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    int64_t number = params[i]->parameterNumber();
    if (number == static_cast<int64_t>(i))
      continue;
    if (i > 0 && number == params[i - 1]->parameterNumber())
      return at(params[i], "parameter number " + std::to_string(number) +
                               " is used twice");
    return at(params[i], "parameter numbers must be 0.." +
                             std::to_string(params.size() - 1) + ", got " +
                             std::to_string(number));
  }
  return std::nullopt;
}

std::optional<VerifyProblem>
Checker::checkInstruction(const Instruction &instruction) {
  Opcode opcode = instruction.opcode();
  for (const Instruction *operand : instruction.operands())
    if (!operand || operand->parent() != instruction.parent())
      return at(&instruction, "operand from another computation");

  int arity = opcodeArity(opcode);
  size_t count = instruction.operandCount();
  if (arity != kVariadic && count != static_cast<size_t>(arity))
    return at(&instruction, name(opcode) + " takes " + std::to_string(arity) +
                                " operand" + (arity == 1 ? "" : "s") +
                                ", got " + std::to_string(count));
  if (arity == kVariadic && count < minimumOperands(opcode))
    return at(&instruction, name(opcode) + " takes at least " +
                                std::to_string(minimumOperands(opcode)) +
                                " operands, got " + std::to_string(count));
  if ((opcode == Opcode::Reduce || opcode == Opcode::ReduceWindow) &&
      count % 2 != 0)
    return at(&instruction, name(opcode) +
                                " takes inputs and init values in pairs, got " +
                                std::to_string(count) + " operands");

  for (const char *key : requiredComputations(opcode))
    if (!instruction.calledComputation(key))
      return at(&instruction,
                name(opcode) + " needs a '" + key + "' computation");
  if (opcode == Opcode::Conditional &&
      !instruction.calledComputation("branch_computations") &&
      !(instruction.calledComputation("true_computation") &&
        instruction.calledComputation("false_computation")))
    return at(&instruction, "conditional needs branch_computations or "
                            "true_computation and false_computation");

  switch (opcode) {
  case Opcode::GetTupleElement: {
    if (instruction.tupleIndex() < 0)
      return at(&instruction, "get-tuple-element needs an 'index'");
    const Shape &tuple = instruction.operand(0)->shape();
    if (!tuple.isTuple() ||
        instruction.tupleIndex() >= int64_t(tuple.tupleShapes().size()))
      return at(&instruction,
                "index " + std::to_string(instruction.tupleIndex()) +
                    " is out of range for " + tuple.toString(false));
    if (!tuple.tupleShape(instruction.tupleIndex())
             .compatible(instruction.shape()))
      return at(&instruction,
                "shape " + instruction.shape().toString(false) +
                    " differs from tuple element " +
                    tuple.tupleShape(instruction.tupleIndex()).toString(false));
    break;
  }
  case Opcode::Compare:
    if (!instruction.comparisonDirection())
      return at(&instruction, "compare needs a 'direction'");
    break;
  case Opcode::Iota:
    if (instruction.iotaDimension() < 0 ||
        instruction.iotaDimension() >=
            std::max<int64_t>(1, instruction.shape().rank()))
      return at(&instruction, "iota needs an 'iota_dimension' within the rank");
    break;
  case Opcode::Dot:
    return checkDot(instruction);
  case Opcode::Convolution:
    return checkConvolution(instruction);
  case Opcode::ReduceWindow:
  case Opcode::SelectAndScatter: {
    size_t window = instruction.window().size();
    int64_t rank = instruction.operand(0)->shape().rank();
    if (window != 0 && int64_t(window) != rank)
      return at(&instruction, "window has " + std::to_string(window) +
                                  " dimensions, the operand rank is " +
                                  std::to_string(rank));
    break;
  }
  case Opcode::TriangularSolve:
  case Opcode::Cholesky:
    for (const Instruction *operand : instruction.operands())
      if (operand->shape().rank() < 2)
        return at(&instruction, name(opcode) + " needs operands of rank >= 2");
    break;
  default:
    break;
  }
  return std::nullopt;
}

std::optional<VerifyProblem> Checker::checkDot(const Instruction &instruction) {
  const DotDims &dims = instruction.dotDims();
  auto inRange = [](const std::vector<int64_t> &list, int64_t rank) {
    return std::all_of(list.begin(), list.end(),
                       [&](int64_t d) { return d >= 0 && d < rank; });
  };
  int64_t lhsRank = instruction.operand(0)->shape().rank();
  int64_t rhsRank = instruction.operand(1)->shape().rank();
  if (!inRange(dims.lhsContracting, lhsRank) ||
      !inRange(dims.lhsBatch, lhsRank))
    return at(&instruction, "dot dimension out of range for the lhs rank " +
                                std::to_string(lhsRank));
  if (!inRange(dims.rhsContracting, rhsRank) ||
      !inRange(dims.rhsBatch, rhsRank))
    return at(&instruction, "dot dimension out of range for the rhs rank " +
                                std::to_string(rhsRank));
  if (dims.lhsContracting.size() != dims.rhsContracting.size() ||
      dims.lhsBatch.size() != dims.rhsBatch.size())
    return at(&instruction, "dot has different numbers of lhs and rhs "
                            "contracting or batch dimensions");
  return std::nullopt;
}

std::optional<VerifyProblem>
Checker::checkConvolution(const Instruction &instruction) {
  if (!instruction.convDims())
    return at(&instruction, "convolution needs 'dim_labels'");
  const ConvDims &dims = *instruction.convDims();
  int64_t expectedRank = 2 + int64_t(dims.inputSpatial.size());
  if (instruction.operand(0)->shape().rank() != expectedRank ||
      instruction.operand(1)->shape().rank() != expectedRank ||
      instruction.shape().rank() != expectedRank)
    return at(&instruction, "dim_labels need rank " +
                                std::to_string(expectedRank) +
                                " input, kernel and output");
  if (instruction.window().size() != dims.inputSpatial.size())
    return at(&instruction, "window has " +
                                std::to_string(instruction.window().size()) +
                                " dimensions, dim_labels have " +
                                std::to_string(dims.inputSpatial.size()) +
                                " spatial dimensions");
  return std::nullopt;
}

std::optional<VerifyProblem>
Checker::checkAcyclic(const Computation &computation) {
  // Iterative depth-first search: deep graphs must not overflow the stack.
  enum Mark : char { Unseen, Active, Done };
  std::unordered_map<const Instruction *, Mark> marks;
  marks.reserve(computation.instructionCount());
  for (const auto &start : computation.instructions()) {
    if (marks[start.get()] != Unseen)
      continue;
    std::vector<std::pair<const Instruction *, size_t>> stack{{start.get(), 0}};
    marks[start.get()] = Active;
    while (!stack.empty()) {
      auto &[instruction, next] = stack.back();
      if (next == instruction->operandCount()) {
        marks[instruction] = Done;
        stack.pop_back();
        continue;
      }
      const Instruction *operand = instruction->operand(next++);
      Mark &mark = marks[operand];
      if (mark == Active)
        return at(operand,
                  "operands form a cycle through '" + operand->name() + "'");
      if (mark == Unseen) {
        mark = Active;
        stack.emplace_back(operand, 0);
      }
    }
  }
  return std::nullopt;
}

std::optional<VerifyProblem> Checker::checkCallGraph() {
  enum Mark : char { Unseen, Active, Done };
  std::unordered_map<const Computation *, Mark> marks;
  for (const auto &computation : module.computations())
    marks[computation.get()] = Unseen;
  // Callers of each computation, to name the calling instruction.
  struct Frame {
    const Computation *computation;
    std::vector<std::pair<const Instruction *, Computation *>> calls;
    size_t next = 0;
  };
  auto framed = [](const Computation *computation) {
    Frame frame{computation, {}, 0};
    for (const auto &instruction : computation->instructions())
      for (Computation *called : instruction->calledComputations())
        frame.calls.emplace_back(instruction.get(), called);
    return frame;
  };
  for (const auto &start : module.computations()) {
    if (marks[start.get()] != Unseen)
      continue;
    std::vector<Frame> stack{framed(start.get())};
    marks[start.get()] = Active;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      if (frame.next == frame.calls.size()) {
        marks[frame.computation] = Done;
        stack.pop_back();
        continue;
      }
      auto [caller, called] = frame.calls[frame.next++];
      auto found = marks.find(called);
      if (found == marks.end())
        return VerifyProblem{frame.computation, caller,
                             "calls a computation of another module"};
      Mark &mark = found->second;
      if (mark == Active)
        return VerifyProblem{frame.computation, caller,
                             "computation '" + called->name() +
                                 "' calls itself through '" + caller->name() +
                                 "'"};
      if (mark == Unseen) {
        mark = Active;
        stack.push_back(framed(called));
      }
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<VerifyProblem> findProblem(const Module &module) {
  return Checker(module).run();
}

Status verifyModule(const Module &module) {
  std::optional<VerifyProblem> problem = findProblem(module);
  if (!problem)
    return Status::success();
  std::string where;
  if (problem->computation)
    where += "computation '" + problem->computation->name() + "'";
  if (problem->instruction)
    where += std::string(where.empty() ? "" : ", ") + "instruction '" +
             problem->instruction->name() + "'";
  return makeError((where.empty() ? "module '" + module.name() + "'" : where) +
                   ": " + problem->message);
}

} // namespace rlopt::graph
