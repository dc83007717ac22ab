// Internals of the op-suite generator shared by Shapes.cpp (the layer
// table), OpEmitter.cpp (MLIR text) and OpSuite.cpp (sampling and splits).
#ifndef RLOPT_SRC_DATA_OPSUITEINTERNAL_H
#define RLOPT_SRC_DATA_OPSUITEINTERNAL_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::data::detail {

/// One layer of a real network, as the op it becomes. `dims` holds the
/// class's sizes without the leading (batch-like) dimension:
///
///   matmul              {K, N}                 lead = M (tokens or batch)
///   batch_matmul        {M, K, N}              lead = batch * heads
///   matvec              {N, K} (A is N x K)    no lead
///   conv_2d             {C, F, OH, K, stride}  lead = batch (square K, OH)
///   depthwise_conv_2d   {C, OH, K, stride}     lead = batch
///   max_pool, avg_pool  {C, OH, K, stride}     lead = batch
///   add, relu,          the activation's dims  lead = batch (or
///   elementwise_chain,                         batch * heads for
///   softmax                                    attention scores)
///   layernorm           {S, H}                 lead = batch
///   transpose           heads: {S, heads, D}; keys: {S, D};
///                       nhwc_to_nchw: {H, W, C}; nchw_to_nhwc: {C, H, W}
///
/// Convolutions and poolings are unpadded: the input is the padded
/// activation, (OH - 1) * stride + K wide.
struct Layer {
  std::string opClass;
  /// conv_2d: nhwc_hwcf | nchw_fchw; relu: relu | relu6; transpose: heads |
  /// keys | nhwc_to_nchw | nchw_to_nhwc; elementwise_chain: bias_relu |
  /// bn_relu | bn_add_relu | bn_relu6 | bias_gelu | scale_mask.
  std::string variant;
  std::string network;
  std::string layer; ///< torchvision / Hugging Face module path
  std::vector<int64_t> dims;
  int64_t lead = 0; ///< full-scale leading dimension; 0 = none
  /// What the leading dimension is: batch, tokens, batch*heads.
  std::string leadName = "batch";
};

/// The layers of ResNet-18/50, VGG-16, MobileNetV2, BERT-base and GPT-2
/// small, one row per distinct (class, variant, shape).
const std::vector<Layer> &layerTable();

/// `copies` variants of each layer of `table` whose sizes (not kernel
/// sizes, strides or head counts) are redrawn within a factor of two of
/// the layer's, equal sizes of one activation staying equal; each variant's
/// `layer` names its original with a ".shapeN" suffix.
std::vector<Layer> jitteredLayers(const std::vector<Layer> &table, int copies,
                                  uint64_t seed);

/// The op classes in the order the suite lists them.
const std::vector<std::string> &opClassOrder();

struct Emitted {
  std::string mlir;
  nlohmann::json shapes; ///< class sizes plus "args" and "results"
  double flops = 0, bytes = 0;
};

/// The program of `layer` with leading dimension `lead` as a function
/// `@funcName`, headed by the comment lines of `comment`.
Emitted emitProgram(const Layer &layer, int64_t lead,
                    const std::string &funcName, const std::string &comment);

} // namespace rlopt::data::detail

#endif
