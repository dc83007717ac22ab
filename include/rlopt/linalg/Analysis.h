#ifndef RLOPT_LINALG_ANALYSIS_H
#define RLOPT_LINALG_ANALYSIS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
}

namespace rlopt::linalg {

/// One row per tensor dimension: the coefficient of each loop, then the
/// constant term (the paper's access matrix).
using AccessMatrix = std::vector<std::vector<int64_t>>;

/// The access matrix of an indexing map; non-linear terms count as 0.
AccessMatrix accessMatrix(mlir::AffineMap map);

/// How many indices of its tensor dimension one access row spans while
/// each loop l runs over `extent[l]` values: sum |c_l| (extent_l - 1) + 1.
int64_t accessSpan(const std::vector<int64_t> &row,
                   const std::vector<int64_t> &extent);

/// Scalar operations in the op's body, per point of the iteration space.
struct ArithCounts {
  int add = 0, sub = 0, mul = 0, div = 0, transcendental = 0, other = 0;
};

/// How the schedule may treat an op; derived from its kind and maps.
enum class OpClass {
  Fill,
  Elementwise,
  Reduction,
  Matmul,
  Conv2d,
  Pooling,
  Transpose,
  Generic,
};

const char *opClassName(OpClass opClass);

/// Everything the environment and `rlopt inspect` know about one Linalg op.
struct OpInfo {
  unsigned index = 0;
  std::string id;   ///< "op<index>", stable in program order
  std::string kind; ///< operation name, e.g. "linalg.matmul"
  OpClass opClass = OpClass::Generic;
  std::vector<int64_t> loopRanges;
  std::vector<bool> isReduction;
  std::vector<AccessMatrix> loads, stores;
  ArithCounts arith;
  std::vector<unsigned> producers, consumers;
  /// Every use of the op's results is one of its Linalg consumers (none is
  /// returned or read by another kind of op).
  bool usedOnlyByConsumers = false;
  /// The op reuses its operands across its loops, as a contraction or a
  /// convolution does, rather than streaming them about once: it runs at
  /// least two iterations per element of its operands. Tiled inside another
  /// op's loop, it would read them again for every tile.
  bool reusesOperands = false;
  int64_t largestOperandBytes = 0; ///< of the tensors it reads or writes
  unsigned line = 0;
  mlir::Operation *op = nullptr;

  unsigned numLoops() const { return loopRanges.size(); }
  int64_t iterationCount() const;
};

/// Ops of `module` in program order (the order `transform.structured.match
/// interface{LinalgOp}` returns them).
std::vector<mlir::Operation *> collectLinalgOps(mlir::ModuleOp module);

std::vector<OpInfo> analyzeOps(mlir::ModuleOp module);

nlohmann::json toJson(const OpInfo &info);
std::string describe(const OpInfo &info);

} // namespace rlopt::linalg

#endif
