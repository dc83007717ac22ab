#ifndef RLOPT_LINALG_EXTERNALBASELINE_H
#define RLOPT_LINALG_EXTERNALBASELINE_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rlopt::linalg {

/// A tensor the measurement worker owns: row-major, 64-byte aligned.
struct RawTensor {
  void *data = nullptr;
  std::vector<int64_t> shape;
  bool isF64 = false;
};

/// An implementation outside rlopt (LibTorch, oneDNN) of the same program,
/// run on the same inputs and timed interleaved with the baseline and the
/// candidate. Kept free of MLIR and LibTorch headers.
struct ExternalBaseline {
  std::string name;
  /// Called in the worker once the inputs exist: returns a callable that
  /// computes the program's outputs from `inputs` into `outputs`, or why it
  /// cannot (e.g. an op class it does not cover).
  std::function<Result<std::function<void()>>(
      const std::vector<RawTensor> &inputs,
      const std::vector<RawTensor> &outputs)>
      prepare;
  /// Which of the library's kernels runs, when it says (oneDNN's
  /// implementation name, e.g. "jit_1x1:avx2"); empty otherwise.
  std::string info;
  /// The library and its version (and BLAS, where it matters): part of the
  /// measurement cache key, so an upgraded library is measured anew.
  std::string version;
};

/// How an external baseline fared in one measurement.
struct ExternalTiming {
  std::string name, error;
  double ms = 0, spread = 0;
  bool correct = false;
  double maxAbsError = 0;
  std::string info{}; ///< the baseline's `info`
};

} // namespace rlopt::linalg

#endif
