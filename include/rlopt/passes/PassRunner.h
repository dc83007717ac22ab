#ifndef RLOPT_PASSES_PASSRUNNER_H
#define RLOPT_PASSES_PASSRUNNER_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::passes {

/// Runs new-pass-manager pipelines in-process, with the host target's cost
/// model (vectorizers and unrollers see the real machine).
class PassRunner {
public:
  /// Sets up the host target; fails if LLVM has no backend for it.
  static Result<std::shared_ptr<PassRunner>> create();
  ~PassRunner();

  /// Runs `pipeline` (opt's -passes= syntax) on `module` and verifies the
  /// result. Returns whether the module changed. A pipeline that does not
  /// parse, a broken module, a crash inside LLVM, or a run over the CPU time
  /// limit is an Error; after a crash or a stopped run the module's state is
  /// unspecified and must be discarded.
  Result<bool> run(llvm::Module &module, const std::string &pipeline);

  /// CPU seconds a run may take on its thread before it is stopped as a
  /// crash is (some pass sequences send a pass into superlinear work on the
  /// code they grew: loop-versioning expanding SCEV checks ran for 45
  /// minutes).
  void limitCpuSeconds(double seconds) { cpuSecondsLimit = seconds; }

  /// Gives `module` the host triple and data layout if it has none (IR from
  /// llvm-stress, hand-written .ll files).
  void adoptHostTarget(llvm::Module &module) const;

  llvm::TargetMachine &targetMachine() { return *machine; }

  /// Whether the last run() crashed or aborted inside LLVM. The crash
  /// skipped destructors, so the module and anything else in its
  /// LLVMContext (uniqued constants and their use lists) may be corrupt:
  /// callers leak them and continue in a fresh context.
  bool lastRunCrashed() const { return crashed; }

private:
  explicit PassRunner(std::unique_ptr<llvm::TargetMachine> machine);
  std::unique_ptr<llvm::TargetMachine> machine;
  bool crashed = false;
  double cpuSecondsLimit = 60;
};

/// A cheap structural hash of the module (opcodes, types, operands): it
/// tells whether a pass changed anything.
uint64_t structuralHash(const llvm::Module &module);

/// The module's IR text.
std::string printModule(const llvm::Module &module);

} // namespace rlopt::passes

#endif
