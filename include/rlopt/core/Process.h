#ifndef RLOPT_CORE_PROCESS_H
#define RLOPT_CORE_PROCESS_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlopt {

/// How a child process runs. Every limit is a positive number: there is no
/// "unlimited", so a zero or negative value is an error, not a way out.
struct ProcessOptions {
  std::string workingDirectory; ///< empty: this process's
  std::string stdinPath;        ///< a file to read as stdin; empty: /dev/null
  /// Wall clock; then the child and everything it started are killed.
  double timeoutSeconds = 60;
  /// Address space of each process (RLIMIT_AS).
  int64_t memoryBytes = int64_t(4) << 30;
  /// CPU time of each process (RLIMIT_CPU); unset: the timeout, rounded up.
  std::optional<int64_t> cpuSeconds;
  /// Processes and threads the child may add to those its user already runs
  /// (RLIMIT_NPROC). The kernel does not apply it to root; the process-group
  /// kill contains those children.
  int64_t maxProcesses = 256;
  /// Cap on what is captured of stdout, and of stderr; more is an error.
  int64_t outputBytes = int64_t(64) << 20;
  /// Largest file the child may write (RLIMIT_FSIZE).
  int64_t fileBytes = int64_t(1) << 30;
};

/// How a child process ended.
struct ProcessResult {
  int pid = 0;       ///< also its process group, which is gone by now
  int exitCode = -1; ///< its exit status, or -1 when a signal ended it
  int signal = 0;    ///< the signal that ended it, or 0
  bool timedOut = false;
  double seconds = 0;          ///< wall time from exec to exit
  int64_t peakMemoryBytes = 0; ///< largest resident set of the child
  std::string out, err;

  bool succeeded() const { return !timedOut && signal == 0 && exitCode == 0; }
};

/// Runs argv[0] (found on PATH unless it contains '/') with `argv`, never
/// through a shell: stdin is `stdinPath` or /dev/null, stdout and stderr are
/// captured. The child runs in its own process group under the limits in
/// `options`; the whole group is killed when the child exits, times out or
/// writes too much, so nothing it started outlives it. A missing program,
/// invalid options or output over the cap is an Error; how the child ended is
/// in the result.
Result<ProcessResult> runProcess(const std::vector<std::string> &argv,
                                 const ProcessOptions &options = {});

/// One line on why `result` is not a success, e.g. "did not finish within
/// 30 s"; names the memory limit when the child was near it.
std::string describeFailure(const ProcessResult &result,
                            const ProcessOptions &options);

/// A limit in seconds as messages print it: 60, 0.02, 1e-05.
std::string formatSeconds(double seconds);

/// An error naming the first limit in `options` that is not positive.
Status validateProcessOptions(const ProcessOptions &options);

/// The executable `name` would run: itself if it contains '/', else the
/// first match on PATH. A missing program is an error that names it.
Result<std::string> findProgram(const std::string &name);

} // namespace rlopt

#endif
