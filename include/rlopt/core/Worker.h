#ifndef RLOPT_CORE_WORKER_H
#define RLOPT_CORE_WORKER_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>

namespace rlopt {

/// Every Worker forked from now on closes `fd` first: a pipe end of one of
/// its siblings, or a lock that must end with the process that took it.
void closeInWorkers(int fd);
/// Undoes closeInWorkers; call it before `fd` is closed.
void stopClosingInWorkers(int fd);

/// Limits applied to one worker process.
struct WorkerLimits {
  double timeoutSeconds = 120;       ///< wall-clock limit per receive()
  uint64_t memoryBytes = 8ull << 30; ///< RLIMIT_AS of the worker; 0 = none
};

/// The worker's end of the message channel.
class WorkerChannel {
public:
  WorkerChannel(int readFd, int writeFd) : readFd(readFd), writeFd(writeFd) {}
  /// Sends one length-prefixed message to the parent.
  bool send(const std::string &message);
  /// Blocks until the parent sends a message; empty on a closed pipe.
  std::optional<std::string> receive();

private:
  int readFd, writeFd;
};

/// A forked child process that runs one job in isolation. A crash, abort,
/// hang or memory blow-up of the job ends only the child: the parent sees an
/// Error from receive(), and the next job gets a fresh Worker.
///
/// Fork only from a process that has started no thread pools (MLIRContext
/// with multithreading disabled; no OpenMP or LibTorch threads yet).
class Worker {
public:
  using Job = std::function<int(WorkerChannel &)>;

  /// Forks a child that runs `job` and exits with its return value.
  static Result<Worker> spawn(const Job &job, const WorkerLimits &limits);

  Worker(Worker &&other) noexcept;
  Worker &operator=(Worker &&other) noexcept;
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;
  ~Worker();

  /// Waits for the next message, up to the timeout. On timeout the child is
  /// killed; on a crash the error names the signal or exit code.
  Result<std::string> receive();
  bool send(const std::string &message);
  /// Waits for the child to exit (killing it after the timeout).
  void finish();

private:
  Worker(pid_t pid, int readFd, int writeFd, WorkerLimits limits)
      : pid(pid), readFd(readFd), writeFd(writeFd), limits(limits) {}
  std::string describeExit();
  void kill();

  pid_t pid = -1;
  int readFd = -1, writeFd = -1;
  WorkerLimits limits;
};

} // namespace rlopt

#endif
