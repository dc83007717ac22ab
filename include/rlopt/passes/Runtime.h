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

/// How a program is linked and run: its link flags, its arguments, the files
/// it reads and the files it writes. Paths are absolute.
struct ProgramRun {
  std::vector<std::string> libs = {"-lm"}; ///< link flags
  std::vector<std::string> args;           ///< after the program's name
  /// Copied into the run's working directory, under their own names, before
  /// every run, so a program that edits its input sees the same each time.
  std::vector<std::string> inputs;
  std::string stdinFile; ///< read as stdin; empty: /dev/null
  /// Files the program writes into its working directory; they are part of
  /// its output, and a missing one is an error.
  std::vector<std::string> outputs;
};

struct RuntimeMeasurement {
  std::vector<double> samples; ///< wall seconds of each timed run
  double median = 0;
  double iqr = 0;          ///< interquartile range, seconds
  double buildSeconds = 0; ///< code generation and linking
  /// stdout of the program, then each output file (identical every run)
  std::string output;
  std::string stdoutText; ///< stdout alone
};

/// Builds `module` at -O2 code generation and runs it in a child process as
/// `program` says: warm-up runs, then timed runs; median and spread. A
/// crash, a non-zero exit, a timeout, a limit reached, a missing output file
/// or output that differs between runs is an Error.
Result<RuntimeMeasurement> measureRuntime(const llvm::Module &module,
                                          llvm::TargetMachine &machine,
                                          const ProgramRun &program,
                                          const RuntimeOptions &options = {});

} // namespace rlopt::passes

#endif
