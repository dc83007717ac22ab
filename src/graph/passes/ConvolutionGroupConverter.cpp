// ConvolutionGroupConverter, by filter expansion: a convolution with
// feature_group_count G > 1 becomes an ungrouped one whose kernel is G
// copies of the original side by side along the input-feature dimension,
// masked to zero where an input feature and an output feature belong to
// different groups (iota / divide / compare / select). Adds instructions
// and work; batch-grouped convolutions are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

// The group of each element along `dimension` (index / groupSize), as s32.
Instruction *groupAlong(ModuleEditor &editor, Computation &computation,
                        const std::vector<int64_t> &dims, int64_t dimension,
                        int64_t groupSize) {
  Shape indices = arrayShape(ElementType::S32, dims);
  Instruction *iota =
      editor.add(computation, Opcode::Iota, indices, {},
                 {{"iota_dimension", std::to_string(dimension)}});
  Instruction *size =
      addFilled(editor, computation, indices, static_cast<double>(groupSize));
  return addBinary(editor, computation, Opcode::Divide, iota, size);
}

Instruction *convert(Instruction &convolution, ModuleEditor &editor) {
  if (convolution.opcode() != Opcode::Convolution ||
      convolution.featureGroupCount() <= 1 ||
      convolution.batchGroupCount() != 1 || !convolution.convDims() ||
      convolution.operandCount() != 2 || !isStaticArray(convolution.shape()))
    return nullptr;
  const ConvDims &dims = *convolution.convDims();
  int64_t groups = convolution.featureGroupCount();
  Instruction *input = convolution.operand(0), *kernel = convolution.operand(1);
  int64_t inputFeatures = input->shape().dim(dims.inputFeature);
  int64_t groupInputs = kernel->shape().dim(dims.kernelInputFeature);
  int64_t outputs = kernel->shape().dim(dims.kernelOutputFeature);
  if (groupInputs * groups != inputFeatures || outputs % groups != 0 ||
      isComplex(kernel->shape().type()))
    return nullptr;
  Computation &computation = *convolution.parent();
  std::vector<int64_t> expandedDims = kernel->shape().dims();
  expandedDims[dims.kernelInputFeature] = inputFeatures;
  Instruction *tiled =
      editor.add(computation, Opcode::Concatenate,
                 arrayShape(kernel->shape().type(), expandedDims),
                 std::vector<Instruction *>(groups, kernel),
                 {{"dimensions", formatIntList({dims.kernelInputFeature})}});
  Instruction *inputGroup = groupAlong(editor, computation, expandedDims,
                                       dims.kernelInputFeature, groupInputs);
  Instruction *outputGroup =
      groupAlong(editor, computation, expandedDims, dims.kernelOutputFeature,
                 outputs / groups);
  Instruction *sameGroup = addCompare(editor, computation, inputGroup,
                                      outputGroup, ComparisonDirection::Eq);
  Instruction *zeros = addFilled(editor, computation, tiled->shape(), 0);
  Instruction *expanded = editor.add(computation, Opcode::Select,
                                     tiled->shape(), {sameGroup, tiled, zeros});
  auto ungrouped = copyInstruction(
      convolution, editor.names().fresh("convolution"), {input, expanded});
  ungrouped->removeAttribute("feature_group_count");
  return editor.adopt(computation, std::move(ungrouped));
}

} // namespace

Result<bool> runConvolutionGroupConverter(Module &module) {
  return rewriteEachInstruction(module, convert);
}

} // namespace rlopt::graph
