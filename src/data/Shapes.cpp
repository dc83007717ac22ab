// The layer table: every op of the op suite is a layer of a real network,
// with its channel counts, spatial sizes and hidden sizes (torchvision's
// resnet18, resnet50, vgg16 and mobilenet_v2 at 224x224; Hugging Face's
// bert-base-uncased and gpt2). Module paths name the layer a shape comes
// from; a shape that several layers share is listed once, under the first.
#include "OpSuiteInternal.h"

namespace rlopt::data::detail {

namespace {

// Full-scale leading dimensions: a CNN inference batch of 8, BERT with 8
// sequences, GPT-2 with one sequence of its full 1024-token context.
constexpr int64_t kCnnBatch = 8;
constexpr int64_t kBertBatch = 8;
constexpr int64_t kGptBatch = 1;
constexpr int64_t kHeads = 12;
constexpr int64_t kHidden = 768, kFfn = 3072, kHeadDim = 64;

/// BERT rows that depend on the sequence length name it in the network.
std::string bertSeq(int64_t seq) {
  return "bert_base_seq" + std::to_string(seq);
}

class TableBuilder {
public:
  std::vector<Layer> rows;

  void add(std::string opClass, std::string variant, std::string network,
           std::string layer, std::vector<int64_t> dims, int64_t lead,
           std::string leadName = "batch") {
    rows.push_back(Layer{std::move(opClass), std::move(variant),
                         std::move(network), std::move(layer), std::move(dims),
                         lead, std::move(leadName)});
  }

  /// A convolution, in both layouts.
  void conv(const std::string &net, const std::string &layer, int64_t c,
            int64_t f, int64_t oh, int64_t k, int64_t stride) {
    for (const char *layout : {"nhwc_hwcf", "nchw_fchw"})
      add("conv_2d", layout, net, layer, {c, f, oh, k, stride}, kCnnBatch);
  }
  void depthwise(const std::string &net, const std::string &layer, int64_t c,
                 int64_t oh, int64_t stride) {
    add("depthwise_conv_2d", "", net, layer, {c, oh, 3, stride}, kCnnBatch);
  }
  void pool(const std::string &opClass, const std::string &net,
            const std::string &layer, int64_t c, int64_t oh, int64_t k,
            int64_t stride) {
    add(opClass, "", net, layer, {c, oh, k, stride}, kCnnBatch);
  }
  /// An NHWC activation without its batch.
  void act(const std::string &opClass, const std::string &variant,
           const std::string &net, const std::string &layer, int64_t hw,
           int64_t c) {
    add(opClass, variant, net, layer, {hw, hw, c}, kCnnBatch);
  }
};

std::vector<Layer> buildTable() {
  TableBuilder t;

  //===--- conv_2d
  //---------------------------------------------------------===//
  // ResNet-18: the stem, then the first block of each stage (the later
  // blocks repeat the stride-1 shapes).
  t.conv("resnet18", "conv1", 3, 64, 112, 7, 2);
  t.conv("resnet18", "layer1.0.conv1", 64, 64, 56, 3, 1);
  t.conv("resnet18", "layer2.0.conv1", 64, 128, 28, 3, 2);
  t.conv("resnet18", "layer2.0.conv2", 128, 128, 28, 3, 1);
  t.conv("resnet18", "layer2.0.downsample.0", 64, 128, 28, 1, 2);
  t.conv("resnet18", "layer3.0.conv1", 128, 256, 14, 3, 2);
  t.conv("resnet18", "layer3.0.conv2", 256, 256, 14, 3, 1);
  t.conv("resnet18", "layer3.0.downsample.0", 128, 256, 14, 1, 2);
  t.conv("resnet18", "layer4.0.conv1", 256, 512, 7, 3, 2);
  t.conv("resnet18", "layer4.0.conv2", 512, 512, 7, 3, 1);
  t.conv("resnet18", "layer4.0.downsample.0", 256, 512, 7, 1, 2);
  // ResNet-50 (v1.5: the stride sits on the 3x3); 3x3 stride-1 shapes are
  // ResNet-18's.
  t.conv("resnet50", "layer1.0.conv1", 64, 64, 56, 1, 1);
  t.conv("resnet50", "layer1.0.conv3", 64, 256, 56, 1, 1);
  t.conv("resnet50", "layer1.1.conv1", 256, 64, 56, 1, 1);
  t.conv("resnet50", "layer2.0.conv1", 256, 128, 56, 1, 1);
  t.conv("resnet50", "layer2.0.conv2", 128, 128, 28, 3, 2);
  t.conv("resnet50", "layer2.0.conv3", 128, 512, 28, 1, 1);
  t.conv("resnet50", "layer2.0.downsample.0", 256, 512, 28, 1, 2);
  t.conv("resnet50", "layer2.1.conv1", 512, 128, 28, 1, 1);
  t.conv("resnet50", "layer3.0.conv1", 512, 256, 28, 1, 1);
  t.conv("resnet50", "layer3.0.conv2", 256, 256, 14, 3, 2);
  t.conv("resnet50", "layer3.0.conv3", 256, 1024, 14, 1, 1);
  t.conv("resnet50", "layer3.0.downsample.0", 512, 1024, 14, 1, 2);
  t.conv("resnet50", "layer3.1.conv1", 1024, 256, 14, 1, 1);
  t.conv("resnet50", "layer4.0.conv1", 1024, 512, 14, 1, 1);
  t.conv("resnet50", "layer4.0.conv2", 512, 512, 7, 3, 2);
  t.conv("resnet50", "layer4.0.conv3", 512, 2048, 7, 1, 1);
  t.conv("resnet50", "layer4.0.downsample.0", 1024, 2048, 7, 1, 2);
  t.conv("resnet50", "layer4.1.conv1", 2048, 512, 7, 1, 1);
  // VGG-16: every 3x3 stride-1 convolution of `features`.
  t.conv("vgg16", "features.0", 3, 64, 224, 3, 1);
  t.conv("vgg16", "features.2", 64, 64, 224, 3, 1);
  t.conv("vgg16", "features.5", 64, 128, 112, 3, 1);
  t.conv("vgg16", "features.7", 128, 128, 112, 3, 1);
  t.conv("vgg16", "features.10", 128, 256, 56, 3, 1);
  t.conv("vgg16", "features.12", 256, 256, 56, 3, 1);
  t.conv("vgg16", "features.17", 256, 512, 28, 3, 1);
  t.conv("vgg16", "features.19", 512, 512, 28, 3, 1);
  t.conv("vgg16", "features.24", 512, 512, 14, 3, 1);
  // MobileNetV2: the stem and the pointwise (1x1) convolutions.
  t.conv("mobilenet_v2", "features.0.0", 3, 32, 112, 3, 2);
  t.conv("mobilenet_v2", "features.1.conv.1", 32, 16, 112, 1, 1);
  t.conv("mobilenet_v2", "features.2.conv.0.0", 16, 96, 112, 1, 1);
  t.conv("mobilenet_v2", "features.2.conv.2", 96, 24, 56, 1, 1);
  t.conv("mobilenet_v2", "features.3.conv.0.0", 24, 144, 56, 1, 1);
  t.conv("mobilenet_v2", "features.3.conv.2", 144, 24, 56, 1, 1);
  t.conv("mobilenet_v2", "features.4.conv.2", 144, 32, 28, 1, 1);
  t.conv("mobilenet_v2", "features.5.conv.0.0", 32, 192, 28, 1, 1);
  t.conv("mobilenet_v2", "features.5.conv.2", 192, 32, 28, 1, 1);
  t.conv("mobilenet_v2", "features.7.conv.2", 192, 64, 14, 1, 1);
  t.conv("mobilenet_v2", "features.8.conv.0.0", 64, 384, 14, 1, 1);
  t.conv("mobilenet_v2", "features.8.conv.2", 384, 64, 14, 1, 1);
  t.conv("mobilenet_v2", "features.11.conv.2", 384, 96, 14, 1, 1);
  t.conv("mobilenet_v2", "features.12.conv.0.0", 96, 576, 14, 1, 1);
  t.conv("mobilenet_v2", "features.12.conv.2", 576, 96, 14, 1, 1);
  t.conv("mobilenet_v2", "features.14.conv.2", 576, 160, 7, 1, 1);
  t.conv("mobilenet_v2", "features.15.conv.0.0", 160, 960, 7, 1, 1);
  t.conv("mobilenet_v2", "features.15.conv.2", 960, 160, 7, 1, 1);
  t.conv("mobilenet_v2", "features.17.conv.2", 960, 320, 7, 1, 1);
  t.conv("mobilenet_v2", "features.18.0", 320, 1280, 7, 1, 1);

  //===--- depthwise_conv_2d (MobileNetV2, 3x3)
  //----------------------------===//
  t.depthwise("mobilenet_v2", "features.1.conv.0.0", 32, 112, 1);
  t.depthwise("mobilenet_v2", "features.2.conv.1.0", 96, 56, 2);
  t.depthwise("mobilenet_v2", "features.3.conv.1.0", 144, 56, 1);
  t.depthwise("mobilenet_v2", "features.4.conv.1.0", 144, 28, 2);
  t.depthwise("mobilenet_v2", "features.5.conv.1.0", 192, 28, 1);
  t.depthwise("mobilenet_v2", "features.7.conv.1.0", 192, 14, 2);
  t.depthwise("mobilenet_v2", "features.8.conv.1.0", 384, 14, 1);
  t.depthwise("mobilenet_v2", "features.12.conv.1.0", 576, 14, 1);
  t.depthwise("mobilenet_v2", "features.14.conv.1.0", 576, 7, 2);
  t.depthwise("mobilenet_v2", "features.15.conv.1.0", 960, 7, 1);

  //===--- pooling
  //---------------------------------------------------------===//
  t.pool("max_pool", "resnet18", "maxpool", 64, 56, 3, 2);
  t.pool("max_pool", "vgg16", "features.4", 64, 112, 2, 2);
  t.pool("max_pool", "vgg16", "features.9", 128, 56, 2, 2);
  t.pool("max_pool", "vgg16", "features.16", 256, 28, 2, 2);
  t.pool("max_pool", "vgg16", "features.23", 512, 14, 2, 2);
  t.pool("max_pool", "vgg16", "features.30", 512, 7, 2, 2);
  // Global average pooling before the classifier.
  t.pool("avg_pool", "resnet18", "avgpool", 512, 1, 7, 1);
  t.pool("avg_pool", "resnet50", "avgpool", 2048, 1, 7, 1);
  t.pool("avg_pool", "mobilenet_v2", "avgpool", 1280, 1, 7, 1);

  //===--- matmul: linear layers, M = tokens (or batch)
  //--------------------===//
  int64_t bertTokens = kBertBatch * 128, gptTokens = kGptBatch * 1024;
  t.add("matmul", "", "bert_base", "encoder.layer.0.attention.self.query",
        {kHidden, kHidden}, bertTokens, "tokens");
  t.add("matmul", "", "bert_base", "encoder.layer.0.intermediate.dense",
        {kHidden, kFfn}, bertTokens, "tokens");
  t.add("matmul", "", "bert_base", "encoder.layer.0.output.dense",
        {kFfn, kHidden}, bertTokens, "tokens");
  t.add("matmul", "", "gpt2", "h.0.attn.c_attn", {kHidden, 3 * kHidden},
        gptTokens, "tokens");
  t.add("matmul", "", "resnet18", "fc", {512, 1000}, kCnnBatch);
  t.add("matmul", "", "resnet50", "fc", {2048, 1000}, kCnnBatch);
  t.add("matmul", "", "mobilenet_v2", "classifier.1", {1280, 1000}, kCnnBatch);
  t.add("matmul", "", "vgg16", "classifier.3", {4096, 4096}, kCnnBatch);
  t.add("matmul", "", "vgg16", "classifier.6", {4096, 1000}, kCnnBatch);

  //===--- batch_matmul: attention, one batch entry per head
  //---------------===//
  for (int64_t seq : {128, 384, 512, 1024}) {
    bool gpt = seq == 1024;
    std::string net = gpt ? "gpt2" : bertSeq(seq);
    std::string layer = gpt ? "h.0.attn" : "encoder.layer.0.attention.self";
    int64_t lead = (gpt ? kGptBatch : kBertBatch) * kHeads;
    t.add("batch_matmul", "", net, layer + ".scores", {seq, kHeadDim, seq},
          lead, "batch*heads");
    t.add("batch_matmul", "", net, layer + ".context", {seq, seq, kHeadDim},
          lead, "batch*heads");
  }

  //===--- matvec: batch-1 inference of linear layers
  //----------------------===//
  // The ones whose naive time is inside 5-500 ms (matvec has no batch to
  // scale): not GPT-2's c_attn (~6 ms) or lm_head (~300 ms), ResNet-18's fc
  // (~4 ms), MobileNetV2's classifier (~5 ms) or VGG-16's classifier.0
  // (~700 ms).
  t.add("matvec", "", "gpt2", "h.0.mlp.c_fc", {kFfn, kHidden}, 0);
  t.add("matvec", "", "gpt2", "h.0.mlp.c_proj", {kHidden, kFfn}, 0);
  t.add("matvec", "", "resnet50", "fc", {1000, 2048}, 0);
  t.add("matvec", "", "vgg16", "classifier.3", {4096, 4096}, 0);
  t.add("matvec", "", "vgg16", "classifier.6", {1000, 4096}, 0);

  //===--- add: residual connections
  //---------------------------------------===//
  t.act("add", "", "resnet18", "layer1.0", 56, 64);
  t.act("add", "", "resnet18", "layer2.0", 28, 128);
  t.act("add", "", "resnet18", "layer3.0", 14, 256);
  t.act("add", "", "resnet18", "layer4.0", 7, 512);
  t.act("add", "", "resnet50", "layer1.0", 56, 256);
  t.act("add", "", "resnet50", "layer2.0", 28, 512);
  t.act("add", "", "resnet50", "layer3.0", 14, 1024);
  t.act("add", "", "resnet50", "layer4.0", 7, 2048);
  t.act("add", "", "mobilenet_v2", "features.3", 56, 24);
  t.act("add", "", "mobilenet_v2", "features.5", 28, 32);
  t.act("add", "", "mobilenet_v2", "features.8", 14, 64);
  t.act("add", "", "mobilenet_v2", "features.12", 14, 96);
  t.act("add", "", "mobilenet_v2", "features.15", 7, 160);
  for (int64_t seq : {128, 384, 512})
    t.add("add", "", bertSeq(seq), "encoder.layer.0.output", {seq, kHidden},
          kBertBatch);
  t.add("add", "", "gpt2", "h.0", {1024, kHidden}, kGptBatch);

  //===--- relu (MobileNetV2's is ReLU6)
  //-----------------------------------===//
  t.act("relu", "relu", "resnet18", "relu", 112, 64);
  t.act("relu", "relu", "resnet18", "layer1.0.relu", 56, 64);
  t.act("relu", "relu", "resnet18", "layer2.0.relu", 28, 128);
  t.act("relu", "relu", "resnet18", "layer3.0.relu", 14, 256);
  t.act("relu", "relu", "resnet18", "layer4.0.relu", 7, 512);
  t.act("relu", "relu", "resnet50", "layer1.0.relu", 56, 256);
  t.act("relu", "relu", "resnet50", "layer2.0.relu", 28, 512);
  t.act("relu", "relu", "resnet50", "layer3.0.relu", 14, 1024);
  t.act("relu", "relu", "resnet50", "layer4.0.relu", 7, 2048);
  t.act("relu", "relu", "vgg16", "features.1", 224, 64);
  t.act("relu", "relu", "vgg16", "features.6", 112, 128);
  t.act("relu", "relu", "vgg16", "features.25", 14, 512);
  t.add("relu", "relu", "vgg16", "classifier.1", {4096}, kCnnBatch);
  t.act("relu", "relu6", "mobilenet_v2", "features.0.2", 112, 32);
  t.act("relu", "relu6", "mobilenet_v2", "features.2.conv.0.2", 112, 96);
  t.act("relu", "relu6", "mobilenet_v2", "features.3.conv.0.2", 56, 144);
  t.act("relu", "relu6", "mobilenet_v2", "features.5.conv.0.2", 28, 192);
  t.act("relu", "relu6", "mobilenet_v2", "features.8.conv.0.2", 14, 384);
  t.act("relu", "relu6", "mobilenet_v2", "features.12.conv.0.2", 14, 576);
  t.act("relu", "relu6", "mobilenet_v2", "features.15.conv.0.2", 7, 960);
  t.act("relu", "relu6", "mobilenet_v2", "features.18.2", 7, 1280);

  //===--- softmax over the last dimension
  //---------------------------------===//
  for (int64_t seq : {128, 384, 512})
    t.add("softmax", "", bertSeq(seq), "encoder.layer.0.attention.self.softmax",
          {seq, seq}, kBertBatch * kHeads, "batch*heads");
  t.add("softmax", "", "gpt2", "h.0.attn.softmax", {1024, 1024},
        kGptBatch * kHeads, "batch*heads");
  t.add("softmax", "", "resnet50", "fc.softmax", {1000}, kCnnBatch);
  t.add("softmax", "", "gpt2", "lm_head.softmax", {50257}, gptTokens, "tokens");

  //===--- layernorm over the hidden size
  //----------------------------------===//
  for (int64_t seq : {128, 384, 512})
    t.add("layernorm", "", bertSeq(seq), "encoder.layer.0.output.LayerNorm",
          {seq, kHidden}, kBertBatch);
  t.add("layernorm", "", "gpt2", "h.0.ln_1", {1024, kHidden}, kGptBatch);

  //===--- transpose
  //-------------------------------------------------------===//
  // Splitting the hidden size into heads: [B, S, 768] -> [B, 12, S, 64].
  for (int64_t seq : {128, 384, 512})
    t.add("transpose", "heads", bertSeq(seq),
          "encoder.layer.0.attention.self.transpose_for_scores",
          {seq, kHeads, kHeadDim}, kBertBatch);
  t.add("transpose", "heads", "gpt2", "h.0.attn.split_heads",
        {1024, kHeads, kHeadDim}, kGptBatch);
  // K^T for the attention scores: [B*12, S, 64] -> [B*12, 64, S].
  t.add("transpose", "keys", bertSeq(128),
        "encoder.layer.0.attention.self.key.transpose", {128, kHeadDim},
        kBertBatch * kHeads, "batch*heads");
  t.add("transpose", "keys", "gpt2", "h.0.attn.key.transpose", {1024, kHeadDim},
        kGptBatch * kHeads, "batch*heads");
  // Layout changes around CNN layers.
  t.add("transpose", "nchw_to_nhwc", "resnet18", "input", {3, 224, 224},
        kCnnBatch);
  t.act("transpose", "nhwc_to_nchw", "resnet18", "relu", 112, 64);
  t.act("transpose", "nhwc_to_nchw", "resnet18", "layer1", 56, 64);
  t.act("transpose", "nhwc_to_nchw", "resnet50", "layer2", 28, 512);
  t.act("transpose", "nhwc_to_nchw", "resnet50", "layer3", 14, 1024);
  t.act("transpose", "nhwc_to_nchw", "resnet50", "layer4", 7, 2048);
  t.act("transpose", "nhwc_to_nchw", "mobilenet_v2", "features.3", 56, 24);

  //===--- elementwise chains (producer -> consumer generics)
  //--------------===//
  // Convolution bias + ReLU (VGG-16 has biased convolutions).
  t.act("elementwise_chain", "bias_relu", "vgg16", "features.0-1", 224, 64);
  t.act("elementwise_chain", "bias_relu", "vgg16", "features.5-6", 112, 128);
  t.act("elementwise_chain", "bias_relu", "vgg16", "features.10-11", 56, 256);
  t.act("elementwise_chain", "bias_relu", "vgg16", "features.17-18", 28, 512);
  t.act("elementwise_chain", "bias_relu", "vgg16", "features.24-25", 14, 512);
  t.add("elementwise_chain", "bias_relu", "vgg16", "classifier.0-1", {4096},
        kCnnBatch);
  // Inference batch norm (scale, shift) + ReLU.
  t.act("elementwise_chain", "bn_relu", "resnet18", "bn1-relu", 112, 64);
  t.act("elementwise_chain", "bn_relu", "resnet18", "layer1.0.bn1-relu", 56,
        64);
  t.act("elementwise_chain", "bn_relu", "resnet18", "layer2.0.bn1-relu", 28,
        128);
  t.act("elementwise_chain", "bn_relu", "resnet18", "layer3.0.bn1-relu", 14,
        256);
  t.act("elementwise_chain", "bn_relu", "resnet18", "layer4.0.bn1-relu", 7,
        512);
  // Batch norm + residual add + ReLU at the end of a bottleneck block.
  t.act("elementwise_chain", "bn_add_relu", "resnet50", "layer1.0.bn3-relu", 56,
        256);
  t.act("elementwise_chain", "bn_add_relu", "resnet50", "layer2.0.bn3-relu", 28,
        512);
  t.act("elementwise_chain", "bn_add_relu", "resnet50", "layer3.0.bn3-relu", 14,
        1024);
  t.act("elementwise_chain", "bn_add_relu", "resnet50", "layer4.0.bn3-relu", 7,
        2048);
  // Batch norm + ReLU6 in MobileNetV2's expansion layers.
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.2.conv.0.1-2", 112, 96);
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.3.conv.0.1-2", 56, 144);
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.5.conv.0.1-2", 28, 192);
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.8.conv.0.1-2", 14, 384);
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.12.conv.0.1-2", 14, 576);
  t.act("elementwise_chain", "bn_relu6", "mobilenet_v2",
        "features.15.conv.0.1-2", 7, 960);
  // Bias + GELU (tanh form) after the first FFN matmul.
  for (int64_t seq : {128, 384, 512})
    t.add("elementwise_chain", "bias_gelu", bertSeq(seq),
          "encoder.layer.0.intermediate", {seq, kFfn}, kBertBatch);
  t.add("elementwise_chain", "bias_gelu", "gpt2", "h.0.mlp.act", {1024, kFfn},
        kGptBatch);
  // Attention scores scaled by 1/sqrt(64) plus the additive mask.
  for (int64_t seq : {128, 384, 512})
    t.add("elementwise_chain", "scale_mask", bertSeq(seq),
          "encoder.layer.0.attention.self.scores", {seq, seq},
          kBertBatch * kHeads, "batch*heads");
  t.add("elementwise_chain", "scale_mask", "gpt2", "h.0.attn.scores",
        {1024, 1024}, kGptBatch * kHeads, "batch*heads");
  return t.rows;
}

} // namespace

const std::vector<Layer> &layerTable() {
  static const std::vector<Layer> table = buildTable();
  return table;
}

const std::vector<std::string> &opClassOrder() {
  static const std::vector<std::string> order = {"matmul",
                                                 "batch_matmul",
                                                 "matvec",
                                                 "conv_2d",
                                                 "depthwise_conv_2d",
                                                 "max_pool",
                                                 "avg_pool",
                                                 "add",
                                                 "relu",
                                                 "softmax",
                                                 "layernorm",
                                                 "transpose",
                                                 "elementwise_chain"};
  return order;
}

} // namespace rlopt::data::detail
