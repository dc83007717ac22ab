//===- Worker.cpp - Forked worker processes with a message channel --------===//
//
// A job runs in a forked child so that a crash, abort, hang or memory blow-up
// in a compiler or in generated code ends only that child. Messages are
// length-prefixed (a native uint64 length, then the bytes) over two pipes.
//
//===----------------------------------------------------------------------===//

#include "rlopt/core/Worker.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <mutex>
#include <poll.h>
#include <set>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rlopt {

namespace {

using Clock = std::chrono::steady_clock;

/// The parent's ends of every live worker's pipes, and whatever else was
/// handed to closeInWorkers. A child closes the ones it inherited: holding a
/// sibling's write end would keep that sibling from ever seeing EOF when its
/// parent closes the channel.
std::mutex parentFdsMutex;
std::set<int> parentFds;

} // namespace

void closeInWorkers(int fd) {
  std::lock_guard<std::mutex> lock(parentFdsMutex);
  parentFds.insert(fd);
}

void stopClosingInWorkers(int fd) {
  std::lock_guard<std::mutex> lock(parentFdsMutex);
  parentFds.erase(fd);
}

namespace {

void closeParentFd(int &fd) {
  if (fd < 0)
    return;
  stopClosingInWorkers(fd);
  ::close(fd);
  fd = -1;
}

/// A write to a pipe whose reader died must fail with EPIPE, not kill the
/// trainer. The ignored disposition is inherited by the children too.
void ignoreSigpipeOnce() {
  static std::once_flag flag;
  std::call_once(flag, [] { ::signal(SIGPIPE, SIG_IGN); });
}

/// Milliseconds left until `deadline` for poll(): -1 waits forever.
int pollTimeoutMs(const std::optional<Clock::time_point> &deadline) {
  if (!deadline)
    return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                  *deadline - Clock::now())
                  .count();
  // Round up so that a sub-millisecond remainder still waits.
  return static_cast<int>(std::clamp<int64_t>(left + 1, 0, INT32_MAX));
}

enum class IoStatus { Ok, Eof, Timeout, Failed };

/// Waits until `fd` is ready for `events` or the deadline passes.
IoStatus waitReady(int fd, short events,
                   const std::optional<Clock::time_point> &deadline) {
  while (true) {
    if (deadline && Clock::now() >= *deadline)
      return IoStatus::Timeout;
    pollfd pfd{fd, events, 0};
    int n = ::poll(&pfd, 1, pollTimeoutMs(deadline));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return IoStatus::Failed;
    }
    if (n == 0)
      continue; // The deadline check above decides.
    // POLLHUP with data still buffered reads the data first; read() then
    // reports EOF.
    return IoStatus::Ok;
  }
}

IoStatus readExact(int fd, char *data, size_t size,
                   const std::optional<Clock::time_point> &deadline) {
  size_t done = 0;
  while (done < size) {
    IoStatus ready = waitReady(fd, POLLIN, deadline);
    if (ready != IoStatus::Ok)
      return ready;
    ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return IoStatus::Failed;
    }
    if (n == 0)
      return IoStatus::Eof;
    done += static_cast<size_t>(n);
  }
  return IoStatus::Ok;
}

IoStatus writeExact(int fd, const char *data, size_t size,
                    const std::optional<Clock::time_point> &deadline) {
  size_t done = 0;
  while (done < size) {
    IoStatus ready = waitReady(fd, POLLOUT, deadline);
    if (ready != IoStatus::Ok)
      return ready;
    ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return errno == EPIPE ? IoStatus::Eof : IoStatus::Failed;
    }
    done += static_cast<size_t>(n);
  }
  return IoStatus::Ok;
}

IoStatus writeMessage(int fd, const std::string &message,
                      const std::optional<Clock::time_point> &deadline) {
  uint64_t length = message.size();
  IoStatus status = writeExact(fd, reinterpret_cast<const char *>(&length),
                               sizeof(length), deadline);
  if (status != IoStatus::Ok)
    return status;
  return writeExact(fd, message.data(), message.size(), deadline);
}

/// Reads one message. The body is read in chunks so that a corrupt length
/// cannot make the reader allocate gigabytes up front.
IoStatus readMessage(int fd, std::string &message,
                     const std::optional<Clock::time_point> &deadline) {
  uint64_t length = 0;
  IoStatus status = readExact(fd, reinterpret_cast<char *>(&length),
                              sizeof(length), deadline);
  if (status != IoStatus::Ok)
    return status;
  message.clear();
  constexpr uint64_t chunk = 1 << 16;
  while (message.size() < length) {
    size_t offset = message.size();
    size_t n = static_cast<size_t>(std::min(chunk, length - offset));
    message.resize(offset + n);
    status = readExact(fd, message.data() + offset, n, deadline);
    if (status != IoStatus::Ok)
      return status;
  }
  return IoStatus::Ok;
}

/// waitpid() that retries on EINTR. Returns false if the child is not (or no
/// longer) ours.
bool waitBlocking(pid_t pid, int &status) {
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return false;
  }
  return true;
}

/// Polls for the child's exit until the deadline. Returns true once reaped.
bool waitUntil(pid_t pid, int &status, Clock::time_point deadline) {
  auto pause = std::chrono::microseconds(200);
  while (true) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return true;
    if (r < 0 && errno != EINTR)
      return false;
    if (Clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return "worker crashed: signal " + std::to_string(sig) + " (" +
           ::strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    if (code == 0)
      return "worker exited (code 0) without sending a message";
    return "worker exited with code " + std::to_string(code);
  }
  return "worker ended with wait status " + std::to_string(status);
}

std::string formatSeconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", seconds);
  return buffer;
}

Clock::time_point deadlineAfter(double seconds) {
  auto duration = std::chrono::duration<double>(std::max(0.0, seconds));
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::min(
                            duration, std::chrono::duration<double>(1e9)));
}

/// The child's side of spawn(): never returns.
[[noreturn]] void runChild(const Worker::Job &job, const WorkerLimits &limits,
                           int readFd, int writeFd) {
  if (limits.memoryBytes != 0) {
    rlimit as{limits.memoryBytes, limits.memoryBytes};
    ::setrlimit(RLIMIT_AS, &as);
  }
  // A crash is reported to the parent; a core file of it helps nobody.
  rlimit core{0, 0};
  ::setrlimit(RLIMIT_CORE, &core);

  int code = 0;
  {
    WorkerChannel channel(readFd, writeFd);
    try {
      code = job(channel);
    } catch (const std::exception &e) {
      // Never unwind into the parent's code paths (e.g. gtest's): a job that
      // throws ends the child like any other abort.
      std::fprintf(stderr, "rlopt worker: uncaught exception: %s\n", e.what());
      std::abort();
    } catch (...) {
      std::fprintf(stderr, "rlopt worker: uncaught exception\n");
      std::abort();
    }
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // _exit: no atexit handlers or static destructors of the parent's state.
  ::_exit(code);
}

} // namespace

//===----------------------------------------------------------------------===//
// WorkerChannel
//===----------------------------------------------------------------------===//

bool WorkerChannel::send(const std::string &message) {
  return writeMessage(writeFd, message, std::nullopt) == IoStatus::Ok;
}

std::optional<std::string> WorkerChannel::receive() {
  std::string message;
  if (readMessage(readFd, message, std::nullopt) != IoStatus::Ok)
    return std::nullopt;
  return message;
}

//===----------------------------------------------------------------------===//
// Worker
//===----------------------------------------------------------------------===//

Result<Worker> Worker::spawn(const Job &job, const WorkerLimits &limits) {
  ignoreSigpipeOnce();

  int toChild[2], toParent[2];
  if (::pipe2(toChild, O_CLOEXEC) != 0)
    return makeError(std::string("cannot create worker pipe: ") +
                     std::strerror(errno));
  if (::pipe2(toParent, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(toChild[0]);
    ::close(toChild[1]);
    return makeError(std::string("cannot create worker pipe: ") +
                     std::strerror(err));
  }

  // Buffered output would otherwise be written twice, once by each process.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);

  // The registry lock is held across fork() so that the child's copy is
  // consistent, and released on both sides (as pthread_atfork handlers do) so
  // that a job may spawn workers of its own.
  parentFdsMutex.lock();
  pid_t pid = ::fork();
  if (pid == 0) {
    for (int fd : parentFds)
      ::close(fd);
    parentFds.clear();
    parentFdsMutex.unlock();
    ::close(toChild[1]);
    ::close(toParent[0]);
    runChild(job, limits, toChild[0], toParent[1]);
  }
  parentFdsMutex.unlock();
  if (pid < 0) {
    int err = errno;
    for (int fd : {toChild[0], toChild[1], toParent[0], toParent[1]})
      ::close(fd);
    return makeError(std::string("cannot fork worker: ") + std::strerror(err));
  }

  ::close(toChild[0]);
  ::close(toParent[1]);
  closeInWorkers(toParent[0]);
  closeInWorkers(toChild[1]);
  return Worker(pid, toParent[0], toChild[1], limits);
}

Worker::Worker(Worker &&other) noexcept
    : pid(other.pid), readFd(other.readFd), writeFd(other.writeFd),
      limits(other.limits) {
  other.pid = -1;
  other.readFd = -1;
  other.writeFd = -1;
}

Worker &Worker::operator=(Worker &&other) noexcept {
  if (this != &other) {
    kill();
    pid = other.pid;
    readFd = other.readFd;
    writeFd = other.writeFd;
    limits = other.limits;
    other.pid = -1;
    other.readFd = -1;
    other.writeFd = -1;
  }
  return *this;
}

Worker::~Worker() { kill(); }

Result<std::string> Worker::receive() {
  if (pid < 0 || readFd < 0)
    return makeError("worker is not running");
  std::string message;
  IoStatus status =
      readMessage(readFd, message, deadlineAfter(limits.timeoutSeconds));
  switch (status) {
  case IoStatus::Ok:
    return message;
  case IoStatus::Timeout:
    kill();
    return makeError("worker timed out after " +
                     formatSeconds(limits.timeoutSeconds) + " s");
  case IoStatus::Eof:
    return makeError(describeExit());
  case IoStatus::Failed: {
    std::string reason = std::strerror(errno);
    kill();
    return makeError("cannot read from worker: " + reason);
  }
  }
  return makeError("unreachable");
}

bool Worker::send(const std::string &message) {
  if (pid < 0 || writeFd < 0)
    return false;
  return writeMessage(writeFd, message, deadlineAfter(limits.timeoutSeconds)) ==
         IoStatus::Ok;
}

void Worker::finish() {
  // Closing both ends tells a child blocked in receive() that no more work
  // comes, and makes a child blocked in send() fail instead of hanging.
  closeParentFd(writeFd);
  closeParentFd(readFd);
  if (pid < 0)
    return;
  int status;
  if (waitUntil(pid, status, deadlineAfter(limits.timeoutSeconds)))
    pid = -1;
  else
    kill();
}

std::string Worker::describeExit() {
  // EOF means the child closed its end, which in practice means it is exiting;
  // still bound the wait in case it lingers.
  closeParentFd(writeFd);
  closeParentFd(readFd);
  if (pid < 0)
    return "worker is not running";
  int status;
  if (!waitUntil(pid, status, deadlineAfter(limits.timeoutSeconds))) {
    kill();
    return "worker closed its channel but did not exit; killed it";
  }
  pid = -1;
  return describeStatus(status);
}

void Worker::kill() {
  closeParentFd(writeFd);
  closeParentFd(readFd);
  if (pid < 0)
    return;
  ::kill(pid, SIGKILL);
  int status;
  waitBlocking(pid, status);
  pid = -1;
}

} // namespace rlopt
