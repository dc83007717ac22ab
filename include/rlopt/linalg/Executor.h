#ifndef RLOPT_LINALG_EXECUTOR_H
#define RLOPT_LINALG_EXECUTOR_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Lowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
}

namespace rlopt::linalg {

/// The element types a program's tensors may have.
enum class ElementType { F32, F64, F16, BF16 };

struct TensorSpec {
  std::vector<int64_t> shape;
  ElementType element = ElementType::F32;
  int64_t numElements() const;
  size_t elementBytes() const;
  size_t bytes() const { return numElements() * elementBytes(); }
  bool isF64() const { return element == ElementType::F64; }
  /// f16 or bf16: values are compared with that type's precision.
  bool isHalf() const {
    return element == ElementType::F16 || element == ElementType::BF16;
  }
};

/// The entry function's tensors: arguments, then results (which the
/// lowering turns into trailing out-parameters).
struct Signature {
  std::string name;
  std::vector<TensorSpec> inputs, outputs;
};

Signature signatureOf(mlir::func::FuncOp func);

/// A 64-byte aligned host buffer with its MLIR memref descriptor.
class HostBuffer {
public:
  explicit HostBuffer(const TensorSpec &spec);
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;

  /// False when the memory could not be allocated.
  bool valid() const { return storage != nullptr; }
  const TensorSpec &spec() const { return tensorSpec; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  /// The memref descriptor the C interface takes a pointer to.
  void *descriptor() { return desc.data(); }

  /// Uniform values in [-1, 1) from a seeded generator.
  void fillRandom(uint64_t seed);
  void copyFrom(const HostBuffer &other);
  double valueAt(int64_t i) const;

private:
  struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
  };
  TensorSpec tensorSpec;
  std::unique_ptr<void, FreeDeleter> storage;
  std::vector<int64_t> desc;
};

/// One call of a lowered entry function, with its own buffers: a copy of
/// each input, then an out-parameter per result that is not written into
/// an argument.
struct KernelCall {
  std::vector<std::unique_ptr<HostBuffer>> buffers;
  /// What the kernel is called with.
  std::vector<HostBuffer *> args;
  /// Where each of the function's results is after the call.
  std::vector<HostBuffer *> results;
  /// The bytes of the first buffer that could not be allocated, or 0.
  size_t unallocatedBytes = 0;
};

/// Buffers for calling `entry` (lowered from `sig`) on copies of `inputs`.
KernelCall prepareCall(const Signature &sig, const LoweredEntry &entry,
                       const std::vector<const HostBuffer *> &inputs);

/// Result of comparing a candidate's outputs with the baseline's.
struct Comparison {
  bool match = true;
  double maxAbsError = 0;
  int64_t mismatches = 0;
};

/// Elements match when |a - b| <= rtol * |b| + atol * max|baseline|, and
/// NaNs match only NaNs.
Comparison compareOutputs(const std::vector<HostBuffer *> &baseline,
                          const std::vector<HostBuffer *> &candidate,
                          double rtol, double atol);

/// A lowered module JIT-compiled for the host CPU (code generation at -O3,
/// no LLVM IR pipeline: see compile()).
class JitKernel {
public:
  static Result<std::unique_ptr<JitKernel>> compile(mlir::ModuleOp lowered,
                                                    const Signature &sig);
  ~JitKernel();
  /// Calls the entry function with `args` (see KernelCall).
  void run(const std::vector<HostBuffer *> &args);

private:
  JitKernel() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::string symbol;
};

} // namespace rlopt::linalg

#endif
