// Whole networks as one Linalg function each, weights as arguments: the
// builders behind `rlopt gen nets`. CNNs are NHWC with HWCF filters;
// transformers keep their tokens as [batch * seq, hidden].
#ifndef RLOPT_SRC_DATA_NETWORKS_H
#define RLOPT_SRC_DATA_NETWORKS_H

#include "Layers.h"

#include <nlohmann/json.hpp>

namespace rlopt::data::detail {

struct NetSizes {
  int64_t batch = 1;
  int64_t image = 0; ///< input height and width (CNNs)
  int64_t seq = 0;   ///< tokens per sequence (transformers)
};

/// What a builder wrote: the function's results, a sentence for the
/// program's header, and how many leading arguments are data (the input,
/// the attention mask) rather than weights.
struct NetBody {
  std::vector<Value> results;
  std::string description;
  size_t dataArgs = 1;
};

NetBody buildMlp(LayerWriter &l, const NetSizes &sizes);
NetBody buildLenet5(LayerWriter &l, const NetSizes &sizes);
NetBody buildResnet18(LayerWriter &l, const NetSizes &sizes);
NetBody buildMobilenetV2(LayerWriter &l, const NetSizes &sizes);
NetBody buildVgg11(LayerWriter &l, const NetSizes &sizes);
NetBody buildBertLayer(LayerWriter &l, const NetSizes &sizes);
NetBody buildGpt2Block(LayerWriter &l, const NetSizes &sizes);

} // namespace rlopt::data::detail

#endif
