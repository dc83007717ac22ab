#ifndef RLOPT_DATA_NETSUITE_H
#define RLOPT_DATA_NETSUITE_H

#include "rlopt/data/Suite.h"

#include <string>
#include <vector>

namespace rlopt::data {

struct NetSuiteOptions {
  Scale scale = Scale::Small;
};

/// The networks, in suite order: mlp, lenet5, resnet18, mobilenet_v2,
/// vgg11, bert_base_layer, gpt2_block.
const std::vector<std::string> &netSuiteNames();

/// Whole networks, one Linalg function each with the weights as arguments,
/// op class "net". Full scale keeps the real input sizes (224x224 images
/// at batch 1, 512 tokens, MNIST-sized MLP and LeNet-5 at batch 64); small
/// scale shrinks the input (32x32 images, 64 tokens) so that each naive
/// program runs in well under 5 s on the reference machine. The manifest's
/// shapes hold the Linalg op counts per kind, the producer -> consumer
/// edges, the weight count ("parameters") and the sizes. Every network is
/// in the test split: they are held out for evaluation.
std::vector<BenchmarkSpec> generateNetSuite(const NetSuiteOptions &options);

/// The manifest's `info` for a suite generated with `options`.
nlohmann::json netSuiteInfo(const NetSuiteOptions &options);

} // namespace rlopt::data

#endif
