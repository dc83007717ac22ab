#ifndef RLOPT_DATA_CHAINSUITE_H
#define RLOPT_DATA_CHAINSUITE_H

#include "rlopt/data/Suite.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::data {

struct ChainSuiteOptions {
  uint64_t seed = 0; ///< drives the chains and the splits
  int count = 40;    ///< chains to draw
  Scale scale = Scale::Small;
};

/// The op kinds a chain is made of, in a fixed order: conv_2d,
/// depthwise_conv_2d, max_pool, avg_pool, matmul, batch_matmul, bias_add,
/// batch_norm, relu, relu6, gelu, add, softmax, layernorm, scale_mask,
/// transpose.
const std::vector<std::string> &chainOpKinds();

/// Random producer -> consumer chains of 2-6 ops for fusion, op class
/// "chain": each starts from a layer of the op suite's table (ResNet-18/50,
/// VGG-16, MobileNetV2, BERT-base, GPT-2) and every op consumes the
/// previous op's result, in the sequences real networks have (convolution,
/// bias or batch norm, activation, residual add, pooling; matmul, bias,
/// GELU, layer norm; attention scores, scale and mask, softmax, context).
/// Convolutions and poolings are unpadded, so no op stands between two
/// stages. The manifest's shapes list the op kinds ("ops"), each stage's
/// result, the Linalg op count and the producer -> consumer edges. Start
/// layers are drawn evenly over their op kinds; small scale shrinks the
/// start tensor and picks the batch so that each naive program takes tens
/// of milliseconds. Splits are drawn over the start tensor's shape without
/// its batch (the shape key), about 70/15/15, so test chains start from
/// shapes no training chain has. The same options give the same suite,
/// byte for byte.
std::vector<BenchmarkSpec> generateChainSuite(const ChainSuiteOptions &options);

/// The manifest's `info` for a suite generated with `options`.
nlohmann::json chainSuiteInfo(const ChainSuiteOptions &options);

} // namespace rlopt::data

#endif
