// Training shapes nobody tuned for: each layer of the table redrawn with its
// sizes scaled by random factors, so that an agent trained on them meets
// test shapes it has not seen, while the ranges stay those of real networks.
#include "OpSuiteInternal.h"
#include "Rng.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rlopt::data::detail {

namespace {

/// The indices of `layer.dims` that are architecture choices rather than
/// sizes: kernel sizes and strides, the number of attention heads.
std::set<size_t> structuralDims(const Layer &layer) {
  const std::string &c = layer.opClass;
  if (c == "conv_2d")
    return {3, 4};
  if (c == "depthwise_conv_2d" || c == "max_pool" || c == "avg_pool")
    return {2, 3};
  if (c == "transpose" && layer.variant == "heads")
    return {1};
  return {};
}

/// Classes on one activation, where equal sizes are one size (H and W of
/// an image, the two sequence dimensions of attention scores) and stay
/// equal.
bool sharesEqualDims(const Layer &layer) {
  const std::string &c = layer.opClass;
  return c == "add" || c == "relu" || c == "elementwise_chain" ||
         c == "softmax" || c == "transpose";
}

/// `size` times a factor log-uniform in [1/2, 2]. Sizes of real layers are
/// mostly multiples of 8 and so are three in four draws from such a size;
/// the rest are any integer, as odd vocabularies and image sizes are.
int64_t redraw(int64_t size, Rng &rng) {
  double exponent =
      (static_cast<double>(rng.below(1 << 20)) / (1 << 20)) * 2 - 1;
  double scaled = static_cast<double>(size) * std::exp2(exponent);
  int64_t value = std::max<int64_t>(1, std::llround(scaled));
  if (size % 8 == 0 && value >= 16 && rng.below(4) != 0)
    value = std::max<int64_t>(8, (value + 4) / 8 * 8);
  return value;
}

} // namespace

std::vector<Layer> jitteredLayers(const std::vector<Layer> &table, int copies,
                                  uint64_t seed) {
  Rng rng(seed);
  std::vector<Layer> layers;
  for (const Layer &original : table)
    for (int copy = 0; copy < copies; ++copy) {
      Layer layer = original;
      std::set<size_t> fixed = structuralDims(layer);
      for (size_t i = 0; i < layer.dims.size(); ++i) {
        if (fixed.count(i))
          continue;
        // A size equal to an earlier one on the same activation takes
        // that one's draw.
        auto same = std::find(original.dims.begin(), original.dims.begin() + i,
                              original.dims[i]);
        size_t first = same - original.dims.begin();
        if (sharesEqualDims(layer) && first < i && !fixed.count(first))
          layer.dims[i] = layer.dims[first];
        else
          layer.dims[i] = redraw(original.dims[i], rng);
      }
      layer.layer += ".shape" + std::to_string(copy + 1);
      layers.push_back(std::move(layer));
    }
  return layers;
}

} // namespace rlopt::data::detail
