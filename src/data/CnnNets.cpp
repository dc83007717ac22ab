// The MLP and the convolutional networks, layer by layer as their reference
// implementations define them (the PyTorch quickstart MLP, LeNet-5,
// torchvision's resnet18, mobilenet_v2 and vgg11). Inference batch norm is
// folded into the convolution's bias, as inference compilers do; dropout is
// the identity at inference and left out.
#include "Networks.h"

namespace rlopt::data::detail {

namespace {

enum class Activation { None, Relu, Relu6 };

Value activate(LayerWriter &l, const std::string &name, const Value &x,
               Activation act) {
  switch (act) {
  case Activation::None:
    return x;
  case Activation::Relu:
    return l.relu(name + "_relu", x);
  case Activation::Relu6:
    return l.relu6(name + "_relu6", x);
  }
  return x;
}

/// Convolution to `filters` channels with a `pad`-pixel zero border, bias
/// and activation.
Value convLayer(LayerWriter &l, const std::string &name, const Value &x,
                int64_t filters, int64_t kernel, int64_t stride, int64_t pad,
                Activation act) {
  Value in = pad > 0 ? l.pad(name + "_pad", x, pad) : x;
  Value filter = l.arg(name + "_w", {kernel, kernel, x.shape[3], filters});
  Value bias = l.arg(name + "_b", {filters});
  Value y =
      l.fanInScaledBias(name + "_biased", l.conv(name, in, filter, stride),
                        kernel * kernel * x.shape[3], bias);
  return activate(l, name, y, act);
}

/// 3x3 depthwise convolution with a 1-pixel border, bias and activation.
Value depthwiseLayer(LayerWriter &l, const std::string &name, const Value &x,
                     int64_t stride, Activation act) {
  int64_t channels = x.shape[3];
  Value filter = l.arg(name + "_w", {3, 3, channels});
  Value bias = l.arg(name + "_b", {channels});
  Value y = l.depthwise(name, l.pad(name + "_pad", x, 1), filter, stride);
  return activate(l, name, l.fanInScaledBias(name + "_biased", y, 9, bias),
                  act);
}

/// x [M, K] times a [K, outputs] weight, plus bias, then the activation.
Value linearLayer(LayerWriter &l, const std::string &name, const Value &x,
                  int64_t outputs, Activation act) {
  return activate(l, name, l.linear(name, x, outputs), act);
}

Value imageInput(LayerWriter &l, const NetSizes &sizes, int64_t channels) {
  return l.arg("input", {sizes.batch, sizes.image, sizes.image, channels});
}

std::string batchText(const NetSizes &sizes) {
  return "batch " + std::to_string(sizes.batch);
}

std::string imageText(const NetSizes &sizes, int64_t channels) {
  return batchText(sizes) + ", " + std::to_string(sizes.image) + "x" +
         std::to_string(sizes.image) + "x" + std::to_string(channels) +
         " input";
}

/// torchvision's BasicBlock: two 3x3 convolutions and the identity (or a
/// strided 1x1 projection) added before the last ReLU.
Value basicBlock(LayerWriter &l, const std::string &name, const Value &x,
                 int64_t planes, int64_t stride) {
  Value out =
      convLayer(l, name + "_conv1", x, planes, 3, stride, 1, Activation::Relu);
  out = convLayer(l, name + "_conv2", out, planes, 3, 1, 1, Activation::None);
  Value identity = x;
  if (stride != 1 || x.shape[3] != planes)
    identity = convLayer(l, name + "_downsample", x, planes, 1, stride, 0,
                         Activation::None);
  return l.relu(name + "_relu", l.add(name + "_add", out, identity));
}

/// torchvision's InvertedResidual: 1x1 expansion (unless `expand` is 1),
/// 3x3 depthwise, linear 1x1 projection, and the residual add when the
/// shape is kept.
Value invertedResidual(LayerWriter &l, const std::string &name, const Value &x,
                       int64_t outputs, int64_t stride, int64_t expand) {
  Value h = x;
  if (expand != 1)
    h = convLayer(l, name + "_expand", x, x.shape[3] * expand, 1, 1, 0,
                  Activation::Relu6);
  h = depthwiseLayer(l, name + "_dw", h, stride, Activation::Relu6);
  h = convLayer(l, name + "_project", h, outputs, 1, 1, 0, Activation::None);
  if (stride == 1 && x.shape[3] == outputs)
    h = l.add(name + "_add", x, h);
  return h;
}

} // namespace

NetBody buildMlp(LayerWriter &l, const NetSizes &sizes) {
  Value x = l.arg("input", {sizes.batch, 28 * 28});
  x = linearLayer(l, "linear1", x, 512, Activation::Relu);
  x = linearLayer(l, "linear2", x, 512, Activation::Relu);
  x = linearLayer(l, "linear3", x, 10, Activation::None);
  return {{x}, "3-layer MLP 784-512-512-10 with ReLU, " + batchText(sizes)};
}

NetBody buildLenet5(LayerWriter &l, const NetSizes &sizes) {
  Value x = imageInput(l, sizes, 1);
  x = convLayer(l, "conv1", x, 6, 5, 1, 0, Activation::Relu);
  x = l.maxPool("pool1", x, 2, 2);
  x = convLayer(l, "conv2", x, 16, 5, 1, 0, Activation::Relu);
  x = l.maxPool("pool2", x, 2, 2);
  x = l.collapse("flatten", x, {{0}, {1, 2, 3}});
  x = linearLayer(l, "fc1", x, 120, Activation::Relu);
  x = linearLayer(l, "fc2", x, 84, Activation::Relu);
  x = linearLayer(l, "fc3", x, 10, Activation::None);
  return {{x}, "LeNet-5 (ReLU and max pooling), " + imageText(sizes, 1)};
}

NetBody buildResnet18(LayerWriter &l, const NetSizes &sizes) {
  Value x = imageInput(l, sizes, 3);
  x = convLayer(l, "conv1", x, 64, 7, 2, 3, Activation::Relu);
  x = l.maxPool("maxpool", l.pad("maxpool_pad", x, 1, /*negInf=*/true), 3, 2);
  const int64_t planes[] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage)
    for (int block = 0; block < 2; ++block)
      x = basicBlock(
          l, "layer" + std::to_string(stage + 1) + "_" + std::to_string(block),
          x, planes[stage], stage > 0 && block == 0 ? 2 : 1);
  x = l.globalAvgPool("avgpool", x);
  x = linearLayer(l, "fc", x, 1000, Activation::None);
  return {{x},
          "ResNet-18 (basic blocks, batch norm folded into the "
          "convolution biases), " +
              imageText(sizes, 3)};
}

NetBody buildMobilenetV2(LayerWriter &l, const NetSizes &sizes) {
  struct Stage {
    int64_t expand, outputs, blocks, stride;
  };
  // torchvision's inverted_residual_setting (t, c, n, s).
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2},
                          {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2},
                          {6, 320, 1, 1}};
  Value x = imageInput(l, sizes, 3);
  x = convLayer(l, "features_0", x, 32, 3, 2, 1, Activation::Relu6);
  int index = 1;
  for (const Stage &s : stages)
    for (int64_t i = 0; i < s.blocks; ++i, ++index)
      x = invertedResidual(l, "features_" + std::to_string(index), x, s.outputs,
                           i == 0 ? s.stride : 1, s.expand);
  x = convLayer(l, "features_" + std::to_string(index), x, 1280, 1, 1, 0,
                Activation::Relu6);
  x = l.globalAvgPool("avgpool", x);
  x = linearLayer(l, "classifier_1", x, 1000, Activation::None);
  return {{x},
          "MobileNetV2 (17 inverted residuals, batch norm folded into "
          "the convolution biases), " +
              imageText(sizes, 3)};
}

NetBody buildVgg11(LayerWriter &l, const NetSizes &sizes) {
  // Configuration "A"; 0 is a 2x2 max pooling. Names follow torchvision's
  // `features` indices (convolution, ReLU, [pooling]).
  const int64_t config[] = {64,  0,   128, 0,   256, 256, 0,
                            512, 512, 0,   512, 512, 0};
  Value x = imageInput(l, sizes, 3);
  int index = 0;
  for (int64_t channels : config) {
    std::string name = "features_" + std::to_string(index);
    if (channels == 0) {
      x = l.maxPool(name, x, 2, 2);
      index += 1;
    } else {
      x = convLayer(l, name, x, channels, 3, 1, 1, Activation::Relu);
      index += 2;
    }
  }
  // torchvision's adaptive average pooling to 7x7 is the identity at
  // 224x224; smaller inputs feed their last feature map to the classifier.
  x = l.collapse("flatten", x, {{0}, {1, 2, 3}});
  x = linearLayer(l, "classifier_0", x, 4096, Activation::Relu);
  x = linearLayer(l, "classifier_3", x, 4096, Activation::Relu);
  x = linearLayer(l, "classifier_6", x, 1000, Activation::None);
  return {{x}, "VGG-11 (configuration A), " + imageText(sizes, 3)};
}

} // namespace rlopt::data::detail
