// The Runtime observation: build, then time the program in child processes.
#include "rlopt/passes/Runtime.h"
#include "rlopt/passes/Codegen.h"

#include "rlopt/core/Process.h"
#include "rlopt/core/TempDir.h"

#include <algorithm>
#include <chrono>

namespace rlopt::passes {

namespace {
double quantile(std::vector<double> sorted, double q) {
  double position = q * static_cast<double>(sorted.size() - 1);
  size_t low = static_cast<size_t>(position);
  size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
}
} // namespace

Status validateRuntimeOptions(const RuntimeOptions &options) {
  if (options.warmupRuns < 0)
    return makeError("runtime: warm-up runs must be 0 or more (got " +
                     std::to_string(options.warmupRuns) + ")");
  if (options.timedRuns < 1)
    return makeError("runtime: timed runs must be at least 1 (got " +
                     std::to_string(options.timedRuns) + ")");
  if (options.timeoutSeconds <= 0)
    return makeError("runtime: the timeout must be positive (got " +
                     std::to_string(options.timeoutSeconds) + " s)");
  if (options.memoryMiB <= 0)
    return makeError("runtime: the memory limit must be positive (got " +
                     std::to_string(options.memoryMiB) + " MiB)");
  if (options.maxProcesses <= 0)
    return makeError("runtime: the process limit must be positive (got " +
                     std::to_string(options.maxProcesses) + ")");
  return Status::success();
}

Result<RuntimeMeasurement> measureRuntime(const llvm::Module &module,
                                          llvm::TargetMachine &machine,
                                          const std::vector<std::string> &libs,
                                          const RuntimeOptions &options) {
  if (Status valid = validateRuntimeOptions(options); !valid)
    return valid.error();
  auto dir = TempDir::create("rlopt-run");
  if (!dir)
    return dir.error();
  RuntimeMeasurement result;
  auto start = std::chrono::steady_clock::now();
  auto exe = buildExecutable(module, machine, libs, dir->path());
  if (!exe)
    return exe.error();
  result.buildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  ProcessOptions limits;
  limits.timeoutSeconds = options.timeoutSeconds;
  limits.cpuSeconds = options.timeoutSeconds;
  // Capped at 1 EiB, beyond any machine, so the shift cannot overflow.
  limits.memoryBytes = std::min<int64_t>(options.memoryMiB, int64_t(1) << 40)
                       << 20;
  limits.maxProcesses = options.maxProcesses;
  for (int run = 0; run < options.warmupRuns + options.timedRuns; ++run) {
    auto process = runProcess({*exe}, limits);
    if (!process)
      return makeError("program run failed: " + process.error().message);
    if (!process->succeeded())
      return makeError("program " + describeFailure(*process, limits));
    if (run == 0)
      result.output = process->out;
    else if (process->out != result.output)
      return makeError("program output differs between runs "
                       "(nondeterministic program)");
    if (run >= options.warmupRuns)
      result.samples.push_back(process->seconds);
  }
  std::vector<double> sorted = result.samples;
  std::sort(sorted.begin(), sorted.end());
  result.median = quantile(sorted, 0.5);
  result.iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  return result;
}

} // namespace rlopt::passes
