#include "InterpreterScalarProgram.h"

#include "InterpreterElements.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <unordered_map>

namespace rlopt::graph::interp {

namespace {

bool isScalarElement(const Shape &shape) {
  if (!shape.isArray() || shape.rank() != 0)
    return false;
  Domain domain = domainOf(shape.type());
  return domain != Domain::Complex && domain != Domain::Other;
}

bool isFloatNarrowerThanDouble(ElementType type) {
  return domainOf(type) == Domain::Float && type != ElementType::F64;
}

} // namespace

std::unique_ptr<ScalarProgram>
ScalarProgram::compile(const Interpreter &interpreter,
                       const Computation &computation) {
  const Instruction *root = computation.root();
  if (!root)
    return nullptr;
  auto program = std::unique_ptr<ScalarProgram>(new ScalarProgram());
  std::unordered_map<const Instruction *, int32_t> slotOf;
  std::vector<Instruction *> parameters = computation.parameters();
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i]->parameterNumber() != static_cast<int64_t>(i) ||
        !isScalarElement(parameters[i]->shape()))
      return nullptr;
    slotOf[parameters[i]] = static_cast<int32_t>(i);
  }
  program->parameters = parameters.size();
  std::vector<double> &slots = program->slots;
  slots.assign(parameters.size(), 0.0);
  bool roundResults = interpreter.options().roundToElementType;

  auto slotFor = [&](const Instruction *operand) -> int32_t {
    auto found = slotOf.find(operand);
    if (found == slotOf.end() || !isScalarElement(operand->shape()))
      return -1;
    return found->second;
  };

  for (const Instruction *instruction : reachableInOrder(computation)) {
    Opcode opcode = instruction->opcode();
    if (opcode == Opcode::Parameter)
      continue;
    if (opcode == Opcode::Tuple && instruction == root)
      continue;
    if (!isScalarElement(instruction->shape()))
      return nullptr;
    if (opcode == Opcode::Constant) {
      auto value = evaluateConstant(interpreter, *instruction);
      if (!value || value->size() != 1)
        return nullptr;
      slotOf[instruction] = static_cast<int32_t>(slots.size());
      slots.push_back(value->data()[0]);
      continue;
    }
    Step step{};
    step.opcode = opcode;
    step.type = instruction->shape().type();
    std::vector<int32_t> operandSlots;
    for (const Instruction *operand : instruction->operands()) {
      int32_t slot = slotFor(operand);
      if (slot < 0)
        return nullptr;
      operandSlots.push_back(slot);
    }
    if (operandSlots.empty())
      return nullptr;
    step.operandType = instruction->operand(0)->shape().type();
    if (isUnaryElementwise(opcode) && operandSlots.size() == 1) {
      step.kind = StepKind::Unary;
    } else if (isBinaryElementwise(opcode) && operandSlots.size() == 2) {
      step.kind = StepKind::Binary;
    } else if (opcode == Opcode::Compare && operandSlots.size() == 2 &&
               instruction->comparisonDirection()) {
      step.kind = StepKind::Compare;
      step.direction = *instruction->comparisonDirection();
      step.totalOrder = attributeText(*instruction, "type") == "TOTALORDER";
    } else if (opcode == Opcode::Select && operandSlots.size() == 3) {
      step.kind = StepKind::Select;
    } else if (opcode == Opcode::Clamp && operandSlots.size() == 3) {
      step.kind = StepKind::Clamp;
      step.operandType = step.type;
    } else if (opcode == Opcode::Convert && operandSlots.size() == 1) {
      // A float convert to its own type moves, as on arrays.
      bool noOp = !roundResults && step.operandType == step.type &&
                  domainOf(step.type) == Domain::Float;
      step.kind = noOp ? StepKind::Move : StepKind::Convert;
    } else if (opcode == Opcode::BitcastConvert && operandSlots.size() == 1) {
      if (bitcastProblem(step.operandType, step.type))
        return nullptr;
      step.kind = StepKind::Bitcast;
    } else if ((opcode == Opcode::Copy || opcode == Opcode::Reshape ||
                opcode == Opcode::Broadcast || opcode == Opcode::Bitcast) &&
               operandSlots.size() == 1) {
      step.kind = StepKind::Move;
    } else {
      return nullptr;
    }
    if ((step.kind == StepKind::Unary || step.kind == StepKind::Binary) &&
        elementwiseProblem(opcode, step.operandType))
      return nullptr;
    step.round =
        roundResults && isFloatNarrowerThanDouble(step.type) &&
        (step.kind == StepKind::Unary || step.kind == StepKind::Binary ||
         step.kind == StepKind::Clamp);
    step.a = operandSlots[0];
    step.b = operandSlots.size() > 1 ? operandSlots[1] : 0;
    step.c = operandSlots.size() > 2 ? operandSlots[2] : 0;
    step.out = static_cast<int32_t>(slots.size());
    slots.push_back(0.0);
    slotOf[instruction] = step.out;
    program->steps.push_back(step);
  }

  if (root->opcode() == Opcode::Tuple) {
    for (const Instruction *operand : root->operands()) {
      int32_t slot = slotFor(operand);
      if (slot < 0)
        return nullptr;
      program->resultSlots.push_back(slot);
    }
  } else {
    int32_t slot = slotFor(root);
    if (slot < 0)
      return nullptr;
    program->resultSlots.push_back(slot);
  }
  return program;
}

void ScalarProgram::run(const double *arguments, double *results) const {
  double *s = slots.data();
  std::copy(arguments, arguments + parameters, s);
  for (const Step &step : steps) {
    double value = 0;
    switch (step.kind) {
    case StepKind::Unary:
      value = applyUnary(step.opcode, step.operandType, s[step.a]);
      break;
    case StepKind::Binary:
      value = applyBinary(step.opcode, step.operandType, s[step.a], s[step.b]);
      break;
    case StepKind::Compare:
      value = applyCompare(step.direction, step.totalOrder, step.operandType,
                           s[step.a], s[step.b]);
      break;
    case StepKind::Select:
      value = s[step.a] != 0 ? s[step.b] : s[step.c];
      break;
    case StepKind::Clamp:
      value = applyClamp(step.type, s[step.a], s[step.b], s[step.c]);
      break;
    case StepKind::Convert:
      value = convertElement(step.operandType, step.type, s[step.a]);
      break;
    case StepKind::Bitcast:
      value = bitcastElement(step.operandType, step.type, s[step.a]);
      break;
    case StepKind::Move:
      value = s[step.a];
      break;
    }
    s[step.out] = step.round ? roundFloat(step.type, value) : value;
  }
  for (size_t i = 0; i < resultSlots.size(); ++i)
    results[i] = s[resultSlots[i]];
}

} // namespace rlopt::graph::interp
