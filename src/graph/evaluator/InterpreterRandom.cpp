// Seeded values: random arguments, the values of elided constants, and
// the rng ops. Everything is a pure function of a seed, so two runs (or a
// graph before and after a pass) see the same values.
#include "InterpreterElements.h"
#include "InterpreterInternal.h"

#include "rlopt/graph/Module.h"

#include <cmath>

namespace rlopt::graph::interp {

uint64_t SeededStream::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t mixSeeds(uint64_t a, uint64_t b) {
  return SeededStream(a ^ (b * 0xff51afd7ed558ccdull + 0x632be59bd9b4e019ull))
      .next();
}

uint64_t hashName(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::vector<double> seededValues(const Shape &shape, uint64_t seed) {
  SeededStream stream(seed);
  ElementType type = shape.type();
  Domain domain = domainOf(type);
  int64_t count = shape.elementCount() * (domain == Domain::Complex ? 2 : 1);
  std::vector<double> values = newScratchBuffer(count);
  for (double &value : values) {
    switch (domain) {
    case Domain::Pred:
      value = static_cast<double>(stream.next() >> 63);
      break;
    case Domain::Signed:
    case Domain::Unsigned:
      value = static_cast<double>(stream.next() >> 61);
      break;
    case Domain::Float:
      value = roundFloat(type, 2 * stream.uniform() - 1);
      break;
    default:
      value = 2 * stream.uniform() - 1;
    }
  }
  return values;
}

RuntimeValue seededValue(const Shape &shape, uint64_t seed) {
  if (shape.isTuple()) {
    std::vector<RuntimeValue> elements;
    for (size_t i = 0; i < shape.tupleShapes().size(); ++i)
      elements.push_back(seededValue(shape.tupleShape(i), mixSeeds(seed, i)));
    RuntimeValue tuple = makeTuple(std::move(elements));
    tuple.shape = shape;
    return tuple;
  }
  if (!shape.isArray()) {
    RuntimeValue token;
    token.shape = shape;
    return token;
  }
  return makeArray(shape, seededValues(shape, seed));
}

Result<RuntimeValue> evaluateRng(Interpreter &interpreter,
                                 const Instruction &instruction,
                                 Operands &operands) {
  const Shape &shape = instruction.shape();
  auto distribution = attributeText(instruction, "distribution");
  if (!distribution || operands.size() != 2 || operands[0].size() != 1 ||
      operands[1].size() != 1 || !shape.isArray())
    return failAt(instruction, "needs a distribution and two scalar operands");
  bool normal = *distribution == "rng_normal";
  if (!normal && *distribution != "rng_uniform")
    return failAt(instruction, "distribution " + std::string(*distribution) +
                                   " is not supported");
  // Each run of the instruction draws a fresh, reproducible stream.
  SeededStream stream(mixSeeds(mixSeeds(interpreter.options().constantSeed,
                                        hashName(instruction.name())),
                               interpreter.nextRun(instruction)));
  double a = operands[0].data()[0], b = operands[1].data()[0];
  ElementType type = shape.type();
  std::vector<double> values(shape.elementCount());
  for (double &value : values) {
    if (normal) {
      // Box-Muller; 1 - uniform() is in (0, 1].
      double radius = std::sqrt(-2 * std::log(1 - stream.uniform()));
      value = a + b * radius * std::cos(2 * M_PI * stream.uniform());
    } else if (domainOf(type) == Domain::Float) {
      value = a + (b - a) * stream.uniform();
    } else {
      value = a + std::floor((b - a) * stream.uniform());
    }
    value = convertElement(ElementType::F64, type, value);
  }
  return makeArray(shape, std::move(values));
}

Result<RuntimeValue> evaluateRngBitGenerator(Interpreter &,
                                             const Instruction &instruction,
                                             Operands &operands) {
  const Shape &shape = instruction.shape();
  const RuntimeValue &state = operands[0];
  if (!shape.isTuple() || shape.tupleShapes().size() != 2 ||
      !state.shape.isArray() || !isIntegral(state.shape.type()) ||
      !isIntegral(shape.tupleShape(1).type()))
    return failAt(instruction, "needs an integer state and returns "
                               "(state, integer bits)");
  // Not XLA's bit stream (Philox or ThreeFry by backend): a splitmix64
  // stream seeded by the state, which is all a pass can rely on.
  uint64_t seed = 0x72616e64;
  for (int64_t i = 0; i < state.size(); ++i)
    seed = mixSeeds(seed, integerBits(state.shape.type(), state.data()[i]));
  SeededStream stream(seed);
  const Shape &bitsShape = shape.tupleShape(1);
  std::vector<double> bits(bitsShape.elementCount());
  for (double &value : bits)
    value = fromIntegerBits(bitsShape.type(), stream.next());
  std::vector<double> next(state.size());
  for (double &value : next)
    value = fromIntegerBits(state.shape.type(), stream.next());
  std::vector<RuntimeValue> elements;
  elements.push_back(makeArray(shape.tupleShape(0), std::move(next)));
  elements.push_back(makeArray(bitsShape, std::move(bits)));
  RuntimeValue tuple = makeTuple(std::move(elements));
  tuple.shape = shape;
  return tuple;
}

} // namespace rlopt::graph::interp

namespace rlopt::graph {

namespace {

/// seededValue built directly as a Value: arguments can be hundreds of
/// megabytes, and a conversion would copy them.
Value publicSeededValue(const Shape &shape, uint64_t seed) {
  Value value;
  value.shape = shape;
  if (shape.isTuple()) {
    for (size_t i = 0; i < shape.tupleShapes().size(); ++i)
      value.elements.push_back(
          publicSeededValue(shape.tupleShape(i), interp::mixSeeds(seed, i)));
  } else if (shape.isArray()) {
    value.data = interp::seededValues(shape, seed);
  }
  return value;
}

} // namespace

Result<std::vector<Value>> randomArguments(const Module &module, uint64_t seed,
                                           const InterpreterOptions &options) {
  const Computation *entry = module.entry();
  if (!entry)
    return makeError("randomArguments: module " + module.name() +
                     " has no entry computation");
  std::vector<Value> arguments;
  for (const Instruction *parameter : entry->parameters()) {
    if (parameter->shape().elementCountRecursive() > options.maxElements)
      return makeError(
          "randomArguments: parameter " + parameter->name() + " " +
          parameter->shape().toString(false) + " has " +
          std::to_string(parameter->shape().elementCountRecursive()) +
          " elements, over the interpreter's limit of " +
          std::to_string(options.maxElements) +
          " (InterpreterOptions::maxElements)");
    // Seeded by parameter number, so adding a parameter leaves the others.
    uint64_t parameterSeed = interp::mixSeeds(
        seed, static_cast<uint64_t>(parameter->parameterNumber()));
    arguments.push_back(publicSeededValue(parameter->shape(), parameterSeed));
  }
  return arguments;
}

Result<std::vector<Value>> randomArguments(const Module &module,
                                           uint64_t seed) {
  return randomArguments(module, seed, InterpreterOptions());
}

} // namespace rlopt::graph
