// The Runtime observation: build, then time the program in child processes.
#include "rlopt/passes/Runtime.h"
#include "rlopt/passes/Codegen.h"

#include "rlopt/core/Process.h"
#include "rlopt/core/TempDir.h"

#include "rlopt/core/File.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace rlopt::passes {

namespace {
double quantile(std::vector<double> sorted, double q) {
  double position = q * static_cast<double>(sorted.size() - 1);
  size_t low = static_cast<size_t>(position);
  size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
}
/// A fresh working directory holding the program's input files.
Result<std::string> prepareWorkingDirectory(const TempDir &scratch, int run,
                                            const ProgramRun &program) {
  namespace fs = std::filesystem;
  std::string dir = scratch.file("run" + std::to_string(run));
  std::error_code error;
  fs::create_directory(dir, error);
  for (const std::string &input : program.inputs) {
    if (error)
      break;
    fs::copy_file(input, dir + "/" + fs::path(input).filename().string(),
                  fs::copy_options::overwrite_existing, error);
  }
  if (error)
    return makeError("cannot prepare the program's inputs in " + dir + ": " +
                     error.message());
  return dir;
}

/// stdout, then each output file under a header naming it.
Result<std::string> collectOutput(const std::string &stdoutText,
                                  const std::string &dir,
                                  const ProgramRun &program) {
  std::string output = stdoutText;
  for (const std::string &name : program.outputs) {
    auto text = readRegularFile(dir + "/" + name);
    if (!text)
      return makeError("the program did not write its output file " + name);
    output += "\n==> " + name + " <==\n" + *text;
  }
  return output;
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
                                          const ProgramRun &program,
                                          const RuntimeOptions &options) {
  if (Status valid = validateRuntimeOptions(options); !valid)
    return valid.error();
  auto dir = TempDir::create("rlopt-run");
  if (!dir)
    return dir.error();
  RuntimeMeasurement result;
  auto start = std::chrono::steady_clock::now();
  auto exe = buildExecutable(module, machine, program.libs, dir->path());
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
  limits.stdinPath = program.stdinFile;
  // The program runs in another directory, so it is named absolutely.
  std::vector<std::string> argv = {std::filesystem::absolute(*exe).string()};
  argv.insert(argv.end(), program.args.begin(), program.args.end());
  for (int run = 0; run < options.warmupRuns + options.timedRuns; ++run) {
    auto workingDirectory = prepareWorkingDirectory(*dir, run, program);
    if (!workingDirectory)
      return workingDirectory.error();
    limits.workingDirectory = *workingDirectory;
    auto process = runProcess(argv, limits);
    if (!process)
      return makeError("program run failed: " + process.error().message);
    if (!process->succeeded())
      return makeError("program " + describeFailure(*process, limits));
    auto output = collectOutput(process->out, *workingDirectory, program);
    if (!output)
      return output.error();
    if (run == 0) {
      result.output = *output;
      result.stdoutText = process->out;
    } else if (*output != result.output)
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
