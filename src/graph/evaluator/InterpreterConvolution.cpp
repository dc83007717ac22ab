// convolution with a window (size, stride, padding, lhs/rhs dilation,
// reversal), dim_labels, feature_group_count and batch_group_count.
// Input and kernel are first copied to [batch, spatial..., feature] and
// [spatial..., in-feature, out-feature] so the innermost loop runs over
// contiguous output features.
#include "InterpreterElements.h"
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>

namespace rlopt::graph::interp {

namespace {

std::vector<int64_t> concat(std::initializer_list<std::vector<int64_t>> parts) {
  std::vector<int64_t> all;
  for (const std::vector<int64_t> &part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

/// A convolution in canonical layouts, with each spatial dimension's
/// window already resolved to input coordinates.
struct ConvolutionLoops {
  int64_t batchOut, batchGroups, groups, groupFeatures, featuresOut;
  int64_t inBatchStride;
  std::vector<int64_t> outSpatial, kernelSpatial;
  std::vector<int64_t> inSpatialStrides, kernelSpatialStrides;
  /// Per dimension, [output coordinate * window size + window position]:
  /// the input coordinate, or -1 for padding and lhs-dilation holes.
  std::vector<std::vector<int64_t>> source;
  std::vector<bool> reversal;
};

/// out[b, position, :] += in[b', input position, c] * ker[window position,
/// c, :] over the window and each group's input features. The innermost
/// loop runs over contiguous output features.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void convolve(const ConvolutionLoops &loops, const double *in,
              const double *ker, double *out) {
  size_t spatial = loops.outSpatial.size();
  int64_t outPositions = product(loops.outSpatial);
  int64_t kernelPositions = product(loops.kernelSpatial);
  int64_t featuresOut = loops.featuresOut;
  int64_t perGroup = featuresOut / loops.groups;
  int64_t perBatchGroup = featuresOut / loops.batchGroups;
  std::vector<int64_t> outIndex(spatial), kernelIndex(spatial);
  for (int64_t b = 0; b < loops.batchOut; ++b) {
    std::fill(outIndex.begin(), outIndex.end(), 0);
    for (int64_t p = 0; p < outPositions; ++p) {
      double *acc = out + (b * outPositions + p) * featuresOut;
      std::fill(kernelIndex.begin(), kernelIndex.end(), 0);
      for (int64_t q = 0; q < kernelPositions; ++q) {
        int64_t inOffset = 0, kernelOffset = 0;
        bool inside = true;
        for (size_t d = 0; d < spatial && inside; ++d) {
          int64_t size = loops.kernelSpatial[d];
          int64_t c = loops.source[d][outIndex[d] * size + kernelIndex[d]];
          inside = c >= 0;
          int64_t k =
              loops.reversal[d] ? size - 1 - kernelIndex[d] : kernelIndex[d];
          inOffset += c * loops.inSpatialStrides[d];
          kernelOffset += k * loops.kernelSpatialStrides[d];
        }
        for (size_t d = spatial; d-- > 0;) {
          if (++kernelIndex[d] < loops.kernelSpatial[d])
            break;
          kernelIndex[d] = 0;
        }
        if (!inside)
          continue;
        for (int64_t bg = 0; bg < loops.batchGroups; ++bg) {
          const double *x =
              in + (bg * loops.batchOut + b) * loops.inBatchStride + inOffset;
          for (int64_t g = 0; g < loops.groups; ++g) {
            int64_t begin = std::max(g * perGroup, bg * perBatchGroup);
            int64_t end =
                std::min((g + 1) * perGroup, (bg + 1) * perBatchGroup);
            for (int64_t c = 0; begin < end && c < loops.groupFeatures; ++c) {
              double value = x[g * loops.groupFeatures + c];
              const double *row = ker + kernelOffset + c * featuresOut;
              for (int64_t o = begin; o < end; ++o)
                acc[o] += value * row[o];
            }
          }
        }
      }
      for (size_t d = spatial; d-- > 0;) {
        if (++outIndex[d] < loops.outSpatial[d])
          break;
        outIndex[d] = 0;
      }
    }
  }
}

} // namespace

Result<RuntimeValue> evaluateConvolution(Interpreter &interpreter,
                                         const Instruction &instruction,
                                         Operands &operands) {
  if (operands.size() != 2)
    return failAt(instruction, "needs an input and a kernel");
  const RuntimeValue &input = operands[0];
  const RuntimeValue &kernel = operands[1];
  const Shape &shape = instruction.shape();
  for (const Shape *s : {&input.shape, &kernel.shape, &shape})
    if (!s->isArray() || isComplex(s->type()))
      return failAt(instruction, "operands and result must be real arrays");
  if (!instruction.convDims())
    return failAt(instruction, "has no dim_labels");
  const ConvDims &labels = *instruction.convDims();
  size_t spatial = labels.inputSpatial.size();
  if (labels.kernelSpatial.size() != spatial ||
      labels.outputSpatial.size() != spatial ||
      input.shape.rank() != static_cast<int64_t>(spatial + 2) ||
      kernel.shape.rank() != static_cast<int64_t>(spatial + 2) ||
      shape.rank() != static_cast<int64_t>(spatial + 2))
    return failAt(instruction, "dim_labels do not match the operand ranks");
  std::vector<WindowDim> window = instruction.window();
  if (window.empty())
    window.resize(spatial);
  if (window.size() != spatial)
    return failAt(instruction, "window needs one entry per spatial dimension");

  int64_t batchIn = input.shape.dim(labels.inputBatch);
  int64_t featuresIn = input.shape.dim(labels.inputFeature);
  int64_t groupFeatures = kernel.shape.dim(labels.kernelInputFeature);
  int64_t featuresOut = kernel.shape.dim(labels.kernelOutputFeature);
  int64_t groups = instruction.featureGroupCount();
  int64_t batchGroups = instruction.batchGroupCount();
  if (groupFeatures * groups != featuresIn || featuresOut % groups != 0 ||
      featuresOut % batchGroups != 0 || batchIn % batchGroups != 0)
    return failAt(instruction, "feature or batch group counts do not divide "
                               "the features and batch");
  int64_t batchOut = batchIn / batchGroups;
  std::vector<int64_t> inSpatial, kernelSpatial, outSpatial;
  for (size_t d = 0; d < spatial; ++d) {
    inSpatial.push_back(input.shape.dim(labels.inputSpatial[d]));
    kernelSpatial.push_back(kernel.shape.dim(labels.kernelSpatial[d]));
    outSpatial.push_back(shape.dim(labels.outputSpatial[d]));
    if (window[d].size != kernelSpatial[d] || window[d].stride < 1 ||
        window[d].baseDilation < 1 || window[d].windowDilation < 1)
      return failAt(instruction, "window does not match the kernel");
  }
  if (shape.dim(labels.outputBatch) != batchOut ||
      shape.dim(labels.outputFeature) != featuresOut)
    return failAt(instruction, "result batch or features do not match");

  // Canonical operands: input [N, spatial..., C], kernel [spatial..., Cg, Co].
  std::vector<double> in = permuteDims(
      input.data(), input.shape.dims(),
      concat(
          {{labels.inputBatch}, labels.inputSpatial, {labels.inputFeature}}));
  std::vector<double> ker = permuteDims(
      kernel.data(), kernel.shape.dims(),
      concat({labels.kernelSpatial,
              {labels.kernelInputFeature, labels.kernelOutputFeature}}));
  std::vector<int64_t> inStrides =
      rowMajorStrides(concat({{batchIn}, inSpatial, {featuresIn}}));
  std::vector<int64_t> kernelStrides =
      rowMajorStrides(concat({kernelSpatial, {groupFeatures, featuresOut}}));

  // For each spatial dimension, output coordinate and window position: the
  // input coordinate, or -1 for padding and lhs-dilation holes.
  std::vector<std::vector<int64_t>> source(spatial);
  for (size_t d = 0; d < spatial; ++d) {
    const WindowDim &w = window[d];
    for (int64_t o = 0; o < outSpatial[d]; ++o)
      for (int64_t k = 0; k < kernelSpatial[d]; ++k) {
        int64_t position = o * w.stride + k * w.windowDilation - w.padLow;
        int64_t coordinate = -1;
        if (position >= 0 && position % w.baseDilation == 0 &&
            position / w.baseDilation < inSpatial[d])
          coordinate = position / w.baseDilation;
        source[d].push_back(coordinate);
      }
  }

  ConvolutionLoops loops;
  loops.batchOut = batchOut;
  loops.batchGroups = batchGroups;
  loops.groups = groups;
  loops.groupFeatures = groupFeatures;
  loops.featuresOut = featuresOut;
  loops.inBatchStride = inStrides[0];
  loops.outSpatial = outSpatial;
  loops.kernelSpatial = kernelSpatial;
  loops.inSpatialStrides.assign(inStrides.begin() + 1, inStrides.end() - 1);
  loops.kernelSpatialStrides.assign(kernelStrides.begin(),
                                    kernelStrides.end() - 2);
  loops.source = std::move(source);
  for (const WindowDim &w : window)
    loops.reversal.push_back(w.reversal);
  std::vector<double> out =
      newBuffer(batchOut * product(outSpatial) * featuresOut);
  convolve(loops, in.data(), ker.data(), out.data());

  // Canonical [N, spatial..., F] to the result's dimension order.
  std::vector<int64_t> canonicalDims =
      concat({{batchOut}, outSpatial, {featuresOut}});
  std::vector<int64_t> resultStrides = rowMajorStrides(shape.dims());
  std::vector<int64_t> outStrides;
  for (int64_t d : concat({{labels.outputBatch},
                           labels.outputSpatial,
                           {labels.outputFeature}}))
    outStrides.push_back(resultStrides[d]);
  RuntimeValue result = makeScratchArray(shape);
  double *data = result.buffer->data();
  copyBox(out.data(), rowMajorStrides(canonicalDims), data, outStrides,
          canonicalDims);
  ElementType type = shape.type();
  if (isIntegral(type)) {
    for (int64_t i = 0; i < result.size(); ++i)
      data[i] = fromIntegerBits(type, integerBits(ElementType::S64, data[i]));
  } else if (interpreter.options().roundToElementType) {
    roundFloats(type, data, result.size());
  }
  return result;
}

} // namespace rlopt::graph::interp
