#ifndef RLOPT_PASSES_RUNTIME_H
#define RLOPT_PASSES_RUNTIME_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::passes {

/// How the program is run. The limits contain it: a program that runs away
/// in memory, time or processes ends that run with an error, and nothing it
/// started survives the run.
struct RuntimeOptions {
  int warmupRuns = 1;
  int timedRuns = 5;
  int timeoutSeconds = 30;  ///< per run, wall clock; also its CPU time limit
  int64_t memoryMiB = 2048; ///< address space of the program
  int maxProcesses = 16;    ///< processes and threads it may start
};

/// A one-line error for a negative warm-up count, fewer than one timed run
/// or a limit that is not positive.
Status validateRuntimeOptions(const RuntimeOptions &options);

struct RuntimeMeasurement {
  std::vector<double> samples; ///< wall seconds of each timed run
  double median = 0;
  double iqr = 0;          ///< interquartile range, seconds
  double buildSeconds = 0; ///< code generation and linking
  std::string output;      ///< stdout of the program (identical every run)
};

/// Builds `module` at -O2 code generation and runs it in a child process:
/// warm-up runs, then timed runs; median and spread. A crash, a non-zero
/// exit, a timeout, a limit reached or output that differs between runs is an
/// Error.
Result<RuntimeMeasurement> measureRuntime(const llvm::Module &module,
                                          llvm::TargetMachine &machine,
                                          const std::vector<std::string> &libs,
                                          const RuntimeOptions &options = {});

} // namespace rlopt::passes

#endif
