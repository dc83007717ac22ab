#include "InterpreterElements.h"
#include "InterpreterInternal.h"

namespace rlopt::graph::interp {

Result<RuntimeValue> evaluateConstant(const Interpreter &interpreter,
                                      const Instruction &instruction) {
  const Shape &shape = instruction.shape();
  const Literal &literal = instruction.literal();
  if (!literal.hasValues || !shape.isArray())
    // Elided (`{...}`) and tuple-shaped literals have no values to read:
    // fill them from the seed and the constant's name.
    return seededValue(shape, mixSeeds(interpreter.options().constantSeed,
                                       hashName(instruction.name())));
  ElementType type = shape.type();
  Domain domain = domainOf(type);
  int64_t count = shape.elementCount() * (domain == Domain::Complex ? 2 : 1);
  std::vector<double> values;
  values.reserve(count);
  if (static_cast<int64_t>(literal.floats.size()) == count &&
      (domain == Domain::Float || domain == Domain::Complex ||
       literal.integers.empty())) {
    for (double value : literal.floats)
      values.push_back(domain == Domain::Float
                           ? roundFloat(type, value)
                           : convertElement(ElementType::F64, type, value));
  } else if (static_cast<int64_t>(literal.integers.size()) == count) {
    for (int64_t value : literal.integers)
      values.push_back(
          domain == Domain::Float
              ? roundFloat(type, static_cast<double>(value))
              : fromIntegerBits(type, static_cast<uint64_t>(value)));
  } else {
    return failAt(instruction, "literal has " +
                                   std::to_string(literal.floats.size() +
                                                  literal.integers.size()) +
                                   " values for " + shape.toString(false));
  }
  return makeArray(shape, std::move(values));
}

} // namespace rlopt::graph::interp
