#include "NaiveTime.h"

#include <map>

namespace rlopt::data::detail {

namespace {

struct Throughput {
  double gflops;    ///< GFLOP/s of the arithmetic; 0 = not counted
  double outGbytes; ///< GB/s of the output written; 0 = not counted
};

/// The contraction throughputs are the op suite's calibration (OpSuite.cpp);
/// the memory-bound ones are its add, transpose and elementwise-chain
/// figures per byte of output.
Throughput throughputOf(const std::string &kind) {
  static const std::map<std::string, Throughput> table = {
      {"linalg.matmul", {0.31, 0}},
      {"linalg.batch_matmul", {0.59, 0}},
      {"linalg.conv_2d_nhwc_hwcf", {0.35, 0}},
      {"linalg.depthwise_conv_2d_nhwc_hwc", {0.74, 0}},
      {"linalg.pooling_nhwc_max", {0.73, 0}},
      {"linalg.add", {0, 4.9}},
      {"linalg.transpose", {0, 1.5}},
      {"linalg.fill", {0, 10}},
      {"linalg.generic", {0.6, 4}},
  };
  auto it = table.find(kind);
  return it == table.end() ? Throughput{0.5, 4} : it->second;
}

} // namespace

double estimateNaiveMs(const std::vector<ProgramWriter::OpRecord> &ops) {
  double ms = 0;
  for (const ProgramWriter::OpRecord &op : ops) {
    Throughput t = throughputOf(op.kind);
    if (t.gflops > 0)
      ms += op.flops / (t.gflops * 1e6);
    if (t.outGbytes > 0)
      ms += 4 * op.outputElements / (t.outGbytes * 1e6);
  }
  return ms;
}

} // namespace rlopt::data::detail
