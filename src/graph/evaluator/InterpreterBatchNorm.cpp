// batch-norm-training, batch-norm-inference and batch-norm-grad, computed
// per feature in double as XLA's operation semantics define them (the
// variance is the biased batch variance).
#include "InterpreterElements.h"
#include "InterpreterInternal.h"

#include <cmath>
#include <cstdlib>

namespace rlopt::graph::interp {

namespace {

/// The operand viewed as [outer, features, inner] around feature_index.
struct FeatureView {
  int64_t outer = 1, features = 1, inner = 1;
  int64_t at(int64_t o, int64_t c, int64_t i) const {
    return (o * features + c) * inner + i;
  }
};

Result<double> epsilonOf(const Instruction &instruction) {
  auto text = attributeText(instruction, "epsilon");
  if (!text)
    return failAt(instruction, "has no epsilon");
  std::string digits(*text);
  char *end = nullptr;
  double value = std::strtod(digits.c_str(), &end);
  if (digits.empty() || end != digits.c_str() + digits.size())
    return failAt(instruction, "epsilon is not a number: " + digits);
  return value;
}

RuntimeValue array(const Shape &shape, std::vector<double> data, bool round) {
  if (round)
    roundFloats(shape.type(), data.data(), static_cast<int64_t>(data.size()));
  return makeArray(shape, std::move(data));
}

} // namespace

Result<RuntimeValue> evaluateBatchNorm(Interpreter &interpreter,
                                       const Instruction &instruction,
                                       Operands &operands) {
  const RuntimeValue &x = operands[0];
  if (!x.shape.isArray() || domainOf(x.shape.type()) != Domain::Float)
    return failAt(instruction, "operand must be a floating-point array");
  auto featureIndex = intAttribute(instruction, "feature_index", -1);
  if (!featureIndex)
    return featureIndex.error();
  if (*featureIndex < 0 || *featureIndex >= x.shape.rank())
    return failAt(instruction, "feature_index is out of range");
  auto epsilon = epsilonOf(instruction);
  if (!epsilon)
    return epsilon.error();
  FeatureView view;
  for (int64_t d = 0; d < x.shape.rank(); ++d) {
    if (d < *featureIndex)
      view.outer *= x.shape.dim(d);
    else if (d == *featureIndex)
      view.features = x.shape.dim(d);
    else
      view.inner *= x.shape.dim(d);
  }
  for (size_t i = 1; i < operands.size(); ++i)
    if (i != 4 || instruction.opcode() != Opcode::BatchNormGrad)
      if (operands[i].size() != view.features)
        return failAt(instruction, "operand " + std::to_string(i) +
                                       " needs one value per feature");
  bool round = interpreter.options().roundToElementType;
  const double *in = x.data();
  double count = static_cast<double>(view.outer * view.inner);
  auto mean = [&](const double *values, int64_t c) {
    double sum = 0;
    for (int64_t o = 0; o < view.outer; ++o)
      for (int64_t i = 0; i < view.inner; ++i)
        sum += values[view.at(o, c, i)];
    return sum / count;
  };

  const Shape &shape = instruction.shape();
  std::vector<double> normalized = newScratchBuffer(x.size());
  if (instruction.opcode() == Opcode::BatchNormGrad) {
    if (operands.size() != 5 || operands[4].size() != x.size() ||
        !shape.isTuple() || shape.tupleShapes().size() != 3)
      return failAt(instruction, "needs operand, scale, mean, variance and "
                                 "a gradient of the operand's shape");
    const double *scale = operands[1].data(), *mu = operands[2].data(),
                 *variance = operands[3].data(), *dy = operands[4].data();
    std::vector<double> gradScale(view.features), gradOffset(view.features);
    for (int64_t c = 0; c < view.features; ++c) {
      double inverse = 1 / std::sqrt(variance[c] + *epsilon);
      double sumDy = 0, sumDyCentered = 0;
      for (int64_t o = 0; o < view.outer; ++o)
        for (int64_t i = 0; i < view.inner; ++i) {
          int64_t at = view.at(o, c, i);
          sumDy += dy[at];
          sumDyCentered += dy[at] * (in[at] - mu[c]);
        }
      gradOffset[c] = sumDy;
      gradScale[c] = sumDyCentered * inverse;
      double meanDy = sumDy / count, meanDyCentered = sumDyCentered / count;
      for (int64_t o = 0; o < view.outer; ++o)
        for (int64_t i = 0; i < view.inner; ++i) {
          int64_t at = view.at(o, c, i);
          normalized[at] =
              scale[c] * inverse *
              (dy[at] - meanDy -
               (in[at] - mu[c]) * meanDyCentered / (variance[c] + *epsilon));
        }
    }
    std::vector<RuntimeValue> results;
    results.push_back(array(shape.tupleShape(0), std::move(normalized), round));
    results.push_back(array(shape.tupleShape(1), std::move(gradScale), round));
    results.push_back(array(shape.tupleShape(2), std::move(gradOffset), round));
    RuntimeValue tuple = makeTuple(std::move(results));
    tuple.shape = shape;
    return tuple;
  }

  bool training = instruction.opcode() == Opcode::BatchNormTraining;
  if (operands.size() != (training ? 3u : 5u))
    return failAt(instruction, "has the wrong number of operands");
  const double *scale = operands[1].data(), *offset = operands[2].data();
  std::vector<double> means(view.features), variances(view.features);
  for (int64_t c = 0; c < view.features; ++c) {
    if (training) {
      means[c] = mean(in, c);
      double sum = 0;
      for (int64_t o = 0; o < view.outer; ++o)
        for (int64_t i = 0; i < view.inner; ++i) {
          double centered = in[view.at(o, c, i)] - means[c];
          sum += centered * centered;
        }
      variances[c] = sum / count;
    } else {
      means[c] = operands[3].data()[c];
      variances[c] = operands[4].data()[c];
    }
    double inverse = 1 / std::sqrt(variances[c] + *epsilon);
    for (int64_t o = 0; o < view.outer; ++o)
      for (int64_t i = 0; i < view.inner; ++i) {
        int64_t at = view.at(o, c, i);
        normalized[at] = (in[at] - means[c]) * inverse * scale[c] + offset[c];
      }
  }
  if (!training)
    return array(shape, std::move(normalized), round);
  if (!shape.isTuple() || shape.tupleShapes().size() != 3)
    return failAt(instruction, "result must be a 3-tuple");
  std::vector<RuntimeValue> results;
  results.push_back(array(shape.tupleShape(0), std::move(normalized), round));
  results.push_back(array(shape.tupleShape(1), std::move(means), round));
  results.push_back(array(shape.tupleShape(2), std::move(variances), round));
  RuntimeValue tuple = makeTuple(std::move(results));
  tuple.shape = shape;
  return tuple;
}

} // namespace rlopt::graph::interp
