// BatchNormExpander: batch-norm-training, -inference and -grad become
// elementwise ops, reduces over the non-feature dimensions and broadcasts
// along the feature dimension, with XLA's formulas except that the batch
// variance is the mean of squared deviations (two passes) rather than
// E[x^2] - E[x]^2, which cancels badly in single precision. Adds many
// instructions and an add reducer.
#include "PassSupport.h"
#include "Passes.h"

#include <cstdlib>

namespace rlopt::graph {

namespace {

class Expansion {
public:
  Expansion(ModuleEditor &editor, Instruction &batchNorm, int64_t feature)
      : editor(editor), computation(*batchNorm.parent()),
        shape(batchNorm.operand(0)->shape()), feature(feature),
        type(shape.type()) {
    for (int64_t d = 0; d < shape.rank(); ++d)
      if (d != feature)
        reduced.push_back(d);
    channels = shape.dim(feature);
    count = shape.elementCount() / (channels > 0 ? channels : 1);
  }

  Instruction *perFeature(Instruction *value) {
    return addBroadcast(editor, computation, value, shape, {feature});
  }
  Instruction *sum(Instruction *value) {
    Instruction *zero = addScalar(editor, computation, type, 0);
    Instruction *reduce =
        editor.add(computation, Opcode::Reduce, arrayShape(type, {channels}),
                   {value, zero}, {{"dimensions", formatIntList(reduced)}});
    reduce->setCalledComputations("to_apply",
                                  {scalarReducer(editor, Opcode::Add, type)});
    return reduce;
  }
  Instruction *binary(Opcode opcode, Instruction *a, Instruction *b) {
    return addBinary(editor, computation, opcode, a, b);
  }
  Instruction *featureConstant(double value) {
    return addFilled(editor, computation, arrayShape(type, {channels}), value);
  }
  Instruction *fullConstant(double value) {
    return addFilled(editor, computation, shape, value);
  }
  Instruction *rsqrt(Instruction *value) {
    return addUnary(editor, computation, Opcode::Rsqrt, value);
  }
  Instruction *tuple(std::vector<Instruction *> elements) {
    std::vector<Shape> shapes;
    for (Instruction *element : elements)
      shapes.push_back(element->shape());
    return editor.add(computation, Opcode::Tuple, Shape::tuple(shapes),
                      elements);
  }
  double elements() const { return static_cast<double>(count); }

private:
  ModuleEditor &editor;
  Computation &computation;
  Shape shape;
  int64_t feature;
  ElementType type;
  std::vector<int64_t> reduced;
  int64_t channels = 0, count = 0;
};

std::optional<double> epsilonOf(const Instruction &instruction) {
  const Attribute *attribute = instruction.findAttribute("epsilon");
  if (!attribute)
    return std::nullopt;
  char *end = nullptr;
  double value = std::strtod(attribute->value.c_str(), &end);
  if (end != attribute->value.c_str() + attribute->value.size())
    return std::nullopt;
  return value;
}

std::optional<int64_t> featureIndexOf(const Instruction &instruction) {
  const Attribute *attribute = instruction.findAttribute("feature_index");
  if (!attribute)
    return std::nullopt;
  char *end = nullptr;
  long long value = std::strtoll(attribute->value.c_str(), &end, 10);
  if (end != attribute->value.c_str() + attribute->value.size() || value < 0 ||
      value >= instruction.operand(0)->shape().rank())
    return std::nullopt;
  return value;
}

Instruction *expand(Instruction &instruction, ModuleEditor &editor) {
  Opcode opcode = instruction.opcode();
  if (opcode != Opcode::BatchNormTraining &&
      opcode != Opcode::BatchNormInference && opcode != Opcode::BatchNormGrad)
    return nullptr;
  auto epsilon = epsilonOf(instruction);
  auto feature = featureIndexOf(instruction);
  const Shape &shape = instruction.operand(0)->shape();
  if (!epsilon || !feature || !isStaticArray(shape) ||
      !isFloating(shape.type()))
    return nullptr;
  Expansion e(editor, instruction, *feature);
  Instruction *x = instruction.operand(0);
  Instruction *scale = instruction.operand(1);

  if (opcode == Opcode::BatchNormInference) {
    Instruction *offset = instruction.operand(2);
    Instruction *mean = instruction.operand(3);
    Instruction *variance = instruction.operand(4);
    Instruction *inverse =
        e.rsqrt(e.binary(Opcode::Add, variance, e.featureConstant(*epsilon)));
    Instruction *factor = e.binary(Opcode::Multiply, inverse, scale);
    Instruction *centered = e.binary(Opcode::Subtract, x, e.perFeature(mean));
    return e.binary(Opcode::Add,
                    e.binary(Opcode::Multiply, centered, e.perFeature(factor)),
                    e.perFeature(offset));
  }

  if (opcode == Opcode::BatchNormTraining) {
    Instruction *offset = instruction.operand(2);
    Instruction *n = e.featureConstant(e.elements());
    Instruction *mean = e.binary(Opcode::Divide, e.sum(x), n);
    Instruction *centered = e.binary(Opcode::Subtract, x, e.perFeature(mean));
    Instruction *variance =
        e.binary(Opcode::Divide,
                 e.sum(e.binary(Opcode::Multiply, centered, centered)), n);
    Instruction *inverse =
        e.rsqrt(e.binary(Opcode::Add, variance, e.featureConstant(*epsilon)));
    Instruction *factor = e.binary(Opcode::Multiply, inverse, scale);
    Instruction *output = e.binary(
        Opcode::Add, e.binary(Opcode::Multiply, centered, e.perFeature(factor)),
        e.perFeature(offset));
    return e.tuple({output, mean, variance});
  }

  // Gradients: with xhat = (x - mean) * inverse,
  //   grad_offset = sum(dy), grad_scale = sum(dy * xhat),
  //   grad_x = scale * inverse / N * (N dy - sum(dy) - xhat sum(dy xhat)).
  Instruction *mean = instruction.operand(2);
  Instruction *variance = instruction.operand(3);
  Instruction *gradOutput = instruction.operand(4);
  Instruction *shifted =
      e.binary(Opcode::Add, variance, e.featureConstant(*epsilon));
  Instruction *inverse = e.rsqrt(shifted);
  Instruction *centered = e.binary(Opcode::Subtract, x, e.perFeature(mean));
  Instruction *gradOffset = e.sum(gradOutput);
  Instruction *sumGradCentered =
      e.sum(e.binary(Opcode::Multiply, gradOutput, centered));
  Instruction *gradScale = e.binary(Opcode::Multiply, sumGradCentered, inverse);
  Instruction *scaledGrad =
      e.binary(Opcode::Multiply, gradOutput, e.fullConstant(e.elements()));
  Instruction *correction = e.binary(
      Opcode::Multiply, centered,
      e.perFeature(e.binary(Opcode::Divide, sumGradCentered, shifted)));
  Instruction *inner =
      e.binary(Opcode::Subtract,
               e.binary(Opcode::Subtract, scaledGrad, e.perFeature(gradOffset)),
               correction);
  Instruction *factor =
      e.binary(Opcode::Divide, e.binary(Opcode::Multiply, scale, inverse),
               e.featureConstant(e.elements()));
  Instruction *gradInput =
      e.binary(Opcode::Multiply, e.perFeature(factor), inner);
  return e.tuple({gradInput, gradScale, gradOffset});
}

} // namespace

Result<bool> runBatchNormExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
