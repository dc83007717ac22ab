#ifndef RLOPT_DATA_OPSUITE_H
#define RLOPT_DATA_OPSUITE_H

#include "rlopt/core/Result.h"
#include "rlopt/data/Suite.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::data {

struct OpSuiteOptions {
  uint64_t seed = 0; ///< drives the sampling and the splits
  int count = 0;     ///< benchmarks to draw; 0 (or more than there are) = all
  Scale scale = Scale::Small;
  /// Instead of the table's shapes, four variants of each layer with its
  /// sizes redrawn within a factor of two (kernel sizes, strides and head
  /// counts kept): training shapes that no test shape repeats.
  bool randomShapes = false;
};

/// The op classes of the op suite, in the order the suite lists them.
const std::vector<std::string> &opSuiteClasses();

/// Single ops from layers of ResNet-18/50, VGG-16, MobileNetV2, BERT-base
/// and GPT-2 small. A `count` below the table's size draws that many
/// benchmarks, spread evenly over the op classes. Splits are drawn over
/// distinct shape keys, about 70/15/15 overall, with a test key in every
/// class that has three or more (so small suites hold more than 15 % test);
/// no shape key is in two splits. The same options give the same suite,
/// byte for byte.
std::vector<BenchmarkSpec> generateOpSuite(const OpSuiteOptions &options);

/// The manifest's `info` for a suite generated with `options`.
nlohmann::json opSuiteInfo(const OpSuiteOptions &options);

} // namespace rlopt::data

#endif
