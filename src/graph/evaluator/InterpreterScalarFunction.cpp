#include "InterpreterElements.h"
#include "InterpreterInternal.h"
#include "InterpreterScalarProgram.h"

namespace rlopt::graph::interp {

Result<ScalarFunction> ScalarFunction::make(Interpreter &interpreter,
                                            const Computation &computation,
                                            const Instruction &caller) {
  ScalarFunction function;
  function.interpreter = &interpreter;
  function.computation = &computation;
  function.caller = &caller;
  for (const Instruction *parameter : computation.parameters()) {
    const Shape &shape = parameter->shape();
    if (!shape.isArray() || shape.rank() != 0)
      return failAt(caller, "called computation " + computation.name() +
                                " must take scalars, parameter " +
                                parameter->name() + " is " + shape.toString());
    function.parameterTypes.push_back(shape.type());
  }
  const Instruction *root = computation.root();
  if (!root)
    return failAt(caller,
                  "called computation " + computation.name() + " has no root");
  const Shape &result = root->shape();
  auto isScalar = [](const Shape &shape) {
    return shape.isArray() && shape.rank() == 0;
  };
  if (isScalar(result)) {
    function.resultTypes.push_back(result.type());
  } else if (result.isTuple()) {
    for (const Shape &element : result.tupleShapes()) {
      if (!isScalar(element))
        return failAt(caller, "called computation " + computation.name() +
                                  " must return scalars, got " +
                                  result.toString());
      function.resultTypes.push_back(element.type());
    }
  } else {
    return failAt(caller, "called computation " + computation.name() +
                              " must return scalars, got " + result.toString());
  }
  function.program = interpreter.scalarProgram(computation);

  if (root->opcode() == Opcode::Parameter)
    function.passThrough = root->parameterNumber();
  if (function.program && isBinaryElementwise(root->opcode()) &&
      function.parameterTypes.size() == 2 &&
      root->operand(0)->opcode() == Opcode::Parameter &&
      root->operand(0)->parameterNumber() == 0 &&
      root->operand(1)->opcode() == Opcode::Parameter &&
      root->operand(1)->parameterNumber() == 1 &&
      function.parameterTypes[0] == result.type() &&
      function.parameterTypes[1] == result.type())
    function.binary = root->opcode();
  return function;
}

Status ScalarFunction::apply(const double *arguments, double *results) const {
  if (program) {
    program->run(arguments, results);
    return Status::success();
  }
  std::vector<RuntimeValue> values;
  values.reserve(parameterTypes.size());
  for (size_t i = 0; i < parameterTypes.size(); ++i)
    values.push_back(
        makeArray(Shape::scalar(parameterTypes[i]), {arguments[i]}));
  auto result = interpreter->call(*computation, std::move(values));
  if (!result)
    return result.error();
  if (result->shape.isTuple()) {
    for (size_t i = 0; i < resultTypes.size(); ++i)
      results[i] = result->elements[i].data()[0];
  } else {
    results[0] = result->data()[0];
  }
  return Status::success();
}

} // namespace rlopt::graph::interp
