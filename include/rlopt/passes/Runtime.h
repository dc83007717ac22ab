#ifndef RLOPT_PASSES_RUNTIME_H
#define RLOPT_PASSES_RUNTIME_H

#include "rlopt/core/Result.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::passes {

struct RuntimeOptions {
  int warmupRuns = 1;
  int timedRuns = 5;
  unsigned timeoutSeconds = 30; ///< per run
};

struct RuntimeMeasurement {
  std::vector<double> samples; ///< wall seconds of each timed run
  double median = 0;
  double iqr = 0;          ///< interquartile range, seconds
  double buildSeconds = 0; ///< code generation and linking
  std::string output;      ///< stdout of the program (identical every run)
};

/// Builds `module` at -O2 code generation and runs it in a child process:
/// warm-up runs, then timed runs; median and spread. A crash, a non-zero
/// exit, a timeout or output that differs between runs is an Error.
Result<RuntimeMeasurement> measureRuntime(const llvm::Module &module,
                                          llvm::TargetMachine &machine,
                                          const std::vector<std::string> &libs,
                                          const RuntimeOptions &options = {});

} // namespace rlopt::passes

#endif
