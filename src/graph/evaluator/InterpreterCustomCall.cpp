// custom-call targets the interpreter knows: the AWS Neuron GELU and
// RMSNorm kernels and transfers torch-xla emits, JAX's threefry2x32 random-bit
// kernel and its linear-algebra kernels (InterpreterLinalg.cpp). Any other
// target is an Error naming it.
#include "InterpreterElements.h"
#include "InterpreterInternal.h"
#include "InterpreterLinalg.h"

#include <charconv>
#include <cmath>

namespace rlopt::graph::interp {

namespace {

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

double geluTanh(double x) {
  const double k = std::sqrt(2 / M_PI);
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

/// d/dx of the erf GELU: the Neuron backward kernel takes only x; the graph
/// multiplies by the incoming gradient itself.
double geluDerivative(double x) {
  double cdf = 0.5 * (1 + std::erf(x / std::sqrt(2.0)));
  double pdf = std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
  return cdf + x * pdf;
}

uint32_t rotateLeft(uint32_t value, int bits) {
  return (value << bits) | (value >> (32 - bits));
}

/// Threefry-2x32 with 20 rounds (Salmon et al., SC'11), as jax.random
/// uses it.
void threefry2x32(uint32_t key0, uint32_t key1, uint32_t &x0, uint32_t &x1) {
  static const int rotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const uint32_t keys[3] = {key0, key1, key0 ^ key1 ^ 0x1BD11BDAu};
  x0 += keys[0];
  x1 += keys[1];
  for (int block = 0; block < 5; ++block) {
    for (int r : rotations[block % 2]) {
      x0 += x1;
      x1 = rotateLeft(x1, r);
      x1 ^= x0;
    }
    x0 += keys[(block + 1) % 3];
    x1 += keys[(block + 2) % 3] + static_cast<uint32_t>(block + 1);
  }
}

Result<RuntimeValue> threefry(const Instruction &instruction,
                              const Operands &operands) {
  const Shape &shape = instruction.shape();
  if (operands.size() != 4 || !shape.isTuple() ||
      shape.tupleShapes().size() != 2)
    return failAt(instruction, "threefry2x32 takes two keys and two counts "
                               "and returns two arrays");
  int64_t count = shape.tupleShape(0).elementCount();
  for (const RuntimeValue &operand : operands)
    if (operand.size() != count && operand.size() != 1)
      return failAt(instruction, "threefry2x32 operands must match the "
                                 "result's size");
  auto at = [&](int k, int64_t i) {
    const RuntimeValue &operand = operands[k];
    return static_cast<uint32_t>(integerBits(
        ElementType::U32, operand.data()[operand.size() == 1 ? 0 : i]));
  };
  std::vector<double> first(count), second(count);
  for (int64_t i = 0; i < count; ++i) {
    uint32_t x0 = at(2, i), x1 = at(3, i);
    threefry2x32(at(0, i), at(1, i), x0, x1);
    first[i] = x0;
    second[i] = x1;
  }
  std::vector<RuntimeValue> elements;
  elements.push_back(makeArray(shape.tupleShape(0), std::move(first)));
  elements.push_back(makeArray(shape.tupleShape(1), std::move(second)));
  RuntimeValue tuple = makeTuple(std::move(elements));
  tuple.shape = shape;
  return tuple;
}

template <typename Function>
Result<RuntimeValue> mapFloats(Interpreter &interpreter,
                               const Instruction &instruction,
                               const Operands &operands, Function function) {
  const Shape &shape = instruction.shape();
  if (operands.size() != 1 || !shape.isArray() ||
      domainOf(shape.type()) != Domain::Float ||
      operands[0].size() != shape.elementCount())
    return failAt(instruction, "takes one floating-point array of the "
                               "result's shape");
  std::vector<double> values(operands[0].data(),
                             operands[0].data() + operands[0].size());
  for (double &value : values)
    value = function(value);
  if (interpreter.options().roundToElementType)
    roundFloats(shape.type(), values.data(),
                static_cast<int64_t>(values.size()));
  return makeArray(shape, std::move(values));
}

/// AwsNeuronRmsNorm(x, weight, epsilon) with the normalized dimension d as
/// its backend_config: x / sqrt(mean(x^2 over d) + epsilon) * weight, the
/// weight running along d; what transformers-neuronx's generic fallback
/// for the kernel computes. It sums in double and rounds once.
Result<RuntimeValue> rmsNorm(Interpreter &interpreter,
                             const Instruction &instruction,
                             const Operands &operands) {
  const Shape &shape = instruction.shape();
  if (operands.size() != 3 || !shape.isArray() ||
      domainOf(shape.type()) != Domain::Float || !operands[0].shape.isArray() ||
      operands[0].shape.dims() != shape.dims())
    return failAt(instruction, "AwsNeuronRmsNorm takes x, weight and epsilon "
                               "and returns floats of x's shape");
  std::string config = configBytes(instruction);
  int64_t dim = -1;
  auto [end, error] =
      std::from_chars(config.data(), config.data() + config.size(), dim);
  if (error != std::errc() || end != config.data() + config.size() || dim < 0 ||
      dim >= shape.rank())
    return failAt(instruction, "AwsNeuronRmsNorm needs the normalized "
                               "dimension as its backend_config, got \"" +
                                   config + "\"");
  int64_t length = shape.dim(dim);
  if (operands[1].size() != length || operands[2].size() != 1)
    return failAt(instruction, "AwsNeuronRmsNorm needs a weight of " +
                                   std::to_string(length) +
                                   " elements and a scalar epsilon");
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < shape.rank(); ++d)
    inner *= shape.dim(d);
  int64_t outer = length == 0 ? 0 : shape.elementCount() / (length * inner);
  const double *x = operands[0].data();
  const double *weight = operands[1].data();
  double epsilon = operands[2].data()[0];
  std::vector<double> out = newScratchBuffer(shape.elementCount());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      const int64_t first = o * length * inner + j;
      double squares = 0;
      for (int64_t k = 0; k < length; ++k)
        squares += x[first + k * inner] * x[first + k * inner];
      double scale = 1 / std::sqrt(squares / length + epsilon);
      for (int64_t k = 0; k < length; ++k)
        out[first + k * inner] = x[first + k * inner] * scale * weight[k];
    }
  if (interpreter.options().roundToElementType)
    roundFloats(shape.type(), out.data(), static_cast<int64_t>(out.size()));
  return makeArray(shape, std::move(out));
}

} // namespace

Result<RuntimeValue> evaluateCustomCall(Interpreter &interpreter,
                                        const Instruction &instruction,
                                        Operands &operands) {
  std::string_view target =
      attributeText(instruction, "custom_call_target").value_or("");
  if (target.size() >= 2 && target.front() == '"' && target.back() == '"')
    target = target.substr(1, target.size() - 2);
  if (target == "AwsNeuronGelu")
    return mapFloats(interpreter, instruction, operands, gelu);
  if (target == "AwsNeuronGeluApprxTanh")
    return mapFloats(interpreter, instruction, operands, geluTanh);
  if (target == "AwsNeuronGeluBackward")
    return mapFloats(interpreter, instruction, operands, geluDerivative);
  if (target == "AwsNeuronRmsNorm")
    return rmsNorm(interpreter, instruction, operands);
  if (target == "AwsNeuronTransferWithStaticRing") {
    // A device-to-device transfer: the value is unchanged.
    if (operands.size() != 1 ||
        !operands[0].shape.compatible(instruction.shape()))
      return failAt(instruction, "transfer must keep its operand's shape");
    RuntimeValue value = std::move(operands[0]);
    value.shape = instruction.shape();
    return value;
  }
  if (target == "cuda_threefry2x32" || target == "cpu_threefry2x32" ||
      target == "threefry2x32")
    return threefry(instruction, operands);
  if (auto linalg = evaluateLinalgCustomCall(target, instruction, operands))
    return std::move(*linalg);
  return failAt(instruction, "custom-call target \"" + std::string(target) +
                                 "\" is not supported by the interpreter");
}

} // namespace rlopt::graph::interp
