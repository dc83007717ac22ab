#ifndef RLOPT_DATA_SUITE_H
#define RLOPT_DATA_SUITE_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::data {

/// Small scales each benchmark so that its naive baseline runs quickly on
/// the reference machine (tens of milliseconds for single ops and chains,
/// seconds for whole networks); Full keeps the networks' own sizes.
enum class Scale { Small, Full };

const char *scaleName(Scale scale);
Result<Scale> parseScale(const std::string &text);

/// One benchmark of a suite: a program and what the manifest says about it.
struct BenchmarkSpec {
  std::string name;    ///< unique in the suite; the program is NAME.mlir
  std::string opClass; ///< matmul, conv_2d, softmax, ..., chain, net
  std::string split;   ///< train, validation or test
  /// The benchmark's shape without its batch. A shape key never spans two
  /// splits, so test programs have shapes no training program has.
  std::string shapeKey;
  std::string source; ///< network/layer, e.g. resnet50/layer3.0.conv2
  /// Class sizes (e.g. M, N, K; or C, F, KH, stride) plus "args" and
  /// "results", the tensor shapes of the function.
  nlohmann::json shapes = nlohmann::json::object();
  double flops = 0;       ///< arithmetic ops of the naive program
  double bytes = 0;       ///< bytes of the function's arguments and results
  double estimatedMs = 0; ///< the generator's estimate of the naive time
  std::string mlir;       ///< the program; empty for a suite loaded from disk
};

/// The splits, in manifest order.
const std::vector<std::string> &splitNames();

/// A suite on disk: DIR/manifest.json and one DIR/NAME.mlir per benchmark.
struct Suite {
  std::string dir;
  nlohmann::json info = nlohmann::json::object(); ///< generator, seed, ...
  std::vector<BenchmarkSpec> benchmarks;

  std::string path(const BenchmarkSpec &benchmark) const;
};

/// Writes NAME.mlir for every benchmark and manifest.json (with `info`'s
/// keys at the top level), each through a temporary file and a rename.
/// Creates `dir` if needed and overwrites a suite already there (removing
/// programs its old manifest lists that the new one does not); refuses a
/// directory that is not empty and holds no manifest.json.
Status writeSuite(const std::vector<BenchmarkSpec> &benchmarks,
                  const std::string &dir,
                  const nlohmann::json &info = nlohmann::json::object());

/// Reads DIR/manifest.json and checks that every program it lists exists.
/// Errors are one line naming the directory or file.
Result<Suite> loadSuite(const std::string &dir);

} // namespace rlopt::data

#endif
