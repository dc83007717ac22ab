// Child processes: one way to run a program, contained. Plain POSIX (Linux),
// so every area can use it.
#include "rlopt/core/Process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rlopt {

std::string formatSeconds(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

namespace {

using Clock = std::chrono::steady_clock;

std::string formatBytes(int64_t bytes) {
  if (bytes >= (int64_t(1) << 20))
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

bool isExecutableFile(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

int64_t cpuSecondsOf(const ProcessOptions &options) {
  if (options.cpuSeconds)
    return *options.cpuSeconds;
  return static_cast<int64_t>(std::ceil(options.timeoutSeconds));
}

/// Tasks (processes and threads) the real user runs now: RLIMIT_NPROC
/// counts them all, so the child's limit is this plus what it may add.
int64_t userTaskCount() {
  int64_t tasks = 0;
  std::string uid = std::to_string(getuid());
  DIR *proc = opendir("/proc");
  if (!proc)
    return 0;
  while (dirent *entry = readdir(proc)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
      continue;
    std::ifstream status(std::string("/proc/") + entry->d_name + "/status");
    bool mine = false;
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Uid:", 0) == 0) {
        std::istringstream fields(line.substr(4));
        std::string real;
        fields >> real;
        mine = real == uid;
        if (!mine)
          break;
      } else if (mine && line.rfind("Threads:", 0) == 0) {
        tasks += std::atoll(line.c_str() + 8);
        break;
      }
    }
  }
  closedir(proc);
  return tasks;
}

/// A limit no higher than the hard limit already in force: lowering a
/// limit always succeeds, raising it past the hard one would not.
rlimit limitAt(int resource, int64_t value, int64_t hardExtra = 0) {
  rlimit current{RLIM_INFINITY, RLIM_INFINITY};
  getrlimit(resource, &current);
  auto clamp = [&](int64_t v) {
    rlim_t wanted = static_cast<rlim_t>(std::max<int64_t>(v, 0));
    if (current.rlim_max != RLIM_INFINITY)
      wanted = std::min(wanted, current.rlim_max);
    return wanted;
  };
  return rlimit{clamp(value), clamp(value + hardExtra)};
}

/// What the child does between fork and exec, prepared beforehand: only
/// async-signal-safe calls are allowed there, since the parent may have
/// threads.
struct ChildPlan {
  const char *path;
  char *const *argv;
  const char *dir; ///< nullptr: stay
  int stdinFd, outFd, errFd, statusFd;
  struct Limit {
    int resource;
    rlimit value;
  } limits[5];
};

/// Why the child could not exec, written to the status pipe.
struct ChildFailure {
  int stage; ///< 0 setup, 1 working directory, 2 limits, 3 exec
  int error;
};

[[noreturn]] void failChild(int statusFd, int stage) {
  ChildFailure failure{stage, errno};
  ssize_t ignored = write(statusFd, &failure, sizeof failure);
  (void)ignored;
  _exit(127);
}

[[noreturn]] void runChild(const ChildPlan &plan) {
  // Its own process group, so that killing the group reaches everything it
  // starts. The parent sets it too, whichever runs first.
  setpgid(0, 0);
  // Ignored signals and the signal mask survive exec; the program gets the
  // defaults.
  struct sigaction defaults;
  std::memset(&defaults, 0, sizeof defaults);
  defaults.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig)
    sigaction(sig, &defaults, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  if (dup2(plan.stdinFd, 0) < 0 || dup2(plan.outFd, 1) < 0 ||
      dup2(plan.errFd, 2) < 0)
    failChild(plan.statusFd, 0);
  if (plan.dir && chdir(plan.dir) != 0)
    failChild(plan.statusFd, 1);
  for (const ChildPlan::Limit &limit : plan.limits)
    if (setrlimit(limit.resource, &limit.value) != 0)
      failChild(plan.statusFd, 2);
      // Descriptors this process inherited without close-on-exec (other
      // workers' channels) stay out of the program.
#ifdef SYS_close_range
  syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */);
#endif
  execv(plan.path, plan.argv);
  failChild(plan.statusFd, 3);
}

/// Whether a process of `group` is still alive. Zombies are not: they are
/// dead and wait for their parent, init for orphans, which may reap them
/// only seconds later.
bool groupHasLiveMember(pid_t group) {
  if (kill(-group, 0) != 0 && errno == ESRCH)
    return false;
  DIR *proc = opendir("/proc");
  if (!proc)
    return true;
  bool live = false;
  while (dirent *entry = readdir(proc)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
      continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    // "pid (comm) state ppid pgrp ...": comm may hold anything, even ')'.
    size_t close = text.rfind(')');
    if (close == std::string::npos)
      continue;
    std::istringstream fields(text.substr(close + 1));
    char state = 0;
    long parent = 0, pgrp = 0;
    if (fields >> state >> parent >> pgrp && pgrp == group && state != 'Z') {
      live = true;
      break;
    }
  }
  closedir(proc);
  return live;
}

/// SIGKILL to the whole group, repeated until no member is alive (a member
/// forking as it is killed can leave one more), for at most a second.
void killGroup(pid_t group) {
  auto giveUp = Clock::now() + std::chrono::seconds(1);
  while (kill(-group, SIGKILL) == 0 && groupHasLiveMember(group) &&
         Clock::now() < giveUp)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

class Pipe {
public:
  Pipe() {
    if (pipe2(fds, O_CLOEXEC) != 0)
      fds[0] = fds[1] = -1;
  }
  ~Pipe() {
    closeRead();
    closeWrite();
  }
  bool ok() const { return fds[0] >= 0; }
  int readFd() const { return fds[0]; }
  int writeFd() const { return fds[1]; }
  void closeRead() { closeFd(fds[0]); }
  void closeWrite() { closeFd(fds[1]); }

private:
  static void closeFd(int &fd) {
    if (fd >= 0)
      close(fd);
    fd = -1;
  }
  int fds[2];
};

/// Reads what is available; false at end of file.
bool drain(Pipe &pipe, std::string &into) {
  char buffer[65536];
  ssize_t n = read(pipe.readFd(), buffer, sizeof buffer);
  if (n > 0) {
    into.append(buffer, static_cast<size_t>(n));
    return true;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  pipe.closeRead();
  return false;
}

} // namespace

Status validateProcessOptions(const ProcessOptions &options) {
  auto positive = [](const char *what, double value) -> Status {
    if (!(value > 0) || !std::isfinite(value))
      return makeError(std::string("process limits: ") + what +
                       " must be positive (got " + formatSeconds(value) + ")");
    return Status::success();
  };
  for (Status status :
       {positive("the timeout", options.timeoutSeconds),
        positive("the memory limit", static_cast<double>(options.memoryBytes)),
        positive("the CPU time limit",
                 static_cast<double>(cpuSecondsOf(options))),
        positive("the process limit",
                 static_cast<double>(options.maxProcesses)),
        positive("the output limit", static_cast<double>(options.outputBytes)),
        positive("the file size limit",
                 static_cast<double>(options.fileBytes))})
    if (!status)
      return status;
  return Status::success();
}

Result<std::string> findProgram(const std::string &name) {
  if (name.empty())
    return makeError("no program given");
  if (name.find('/') != std::string::npos) {
    if (isExecutableFile(name))
      return name;
    return makeError(name + ": no such program (run scripts/bootstrap to "
                            "install it)");
  }
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (isExecutableFile(candidate))
      return candidate;
    start = end + 1;
  }
  return makeError(name + ": not found on PATH (run scripts/bootstrap to "
                          "install it)");
}

namespace {

/// Forks and execs the child with its output going to `out` and `err`;
/// returns its pid once the exec has succeeded.
Result<pid_t> startChild(const std::vector<std::string> &argv,
                         const std::string &path, const ProcessOptions &options,
                         Pipe &out, Pipe &err) {
  const std::string &name = argv[0];
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  Pipe status;
  const std::string &input =
      options.stdinPath.empty() ? std::string("/dev/null") : options.stdinPath;
  int stdinFd = open(input.c_str(), O_RDONLY | O_CLOEXEC);
  if (stdinFd < 0 && !options.stdinPath.empty())
    return makeError("cannot run " + name + ": stdin " + input + ": " +
                     std::strerror(errno));
  if (!out.ok() || !err.ok() || !status.ok() || stdinFd < 0) {
    int saved = errno;
    if (stdinFd >= 0)
      close(stdinFd);
    return makeError("cannot start " + name + ": " + std::strerror(saved));
  }
  const char *dir = options.workingDirectory.empty()
                        ? nullptr
                        : options.workingDirectory.c_str();
  ChildPlan plan{
      path.c_str(),
      args.data(),
      dir,
      stdinFd,
      out.writeFd(),
      err.writeFd(),
      status.writeFd(),
      {{RLIMIT_AS, limitAt(RLIMIT_AS, options.memoryBytes)},
       // The hard limit, a second later, kills a child that ignores
       // SIGXCPU.
       {RLIMIT_CPU, limitAt(RLIMIT_CPU, cpuSecondsOf(options), 1)},
       {RLIMIT_NPROC,
        limitAt(RLIMIT_NPROC, userTaskCount() + options.maxProcesses)},
       {RLIMIT_FSIZE, limitAt(RLIMIT_FSIZE, options.fileBytes)},
       {RLIMIT_CORE, limitAt(RLIMIT_CORE, 0)}}};

  pid_t pid = fork();
  if (pid == 0)
    runChild(plan);
  int forkError = errno;
  close(stdinFd);
  out.closeWrite();
  err.closeWrite();
  status.closeWrite();
  if (pid < 0)
    return makeError("cannot start " + name + ": " + std::strerror(forkError));
  setpgid(pid, pid);

  // The status pipe closes on exec; a failure before it arrives as a
  // ChildFailure.
  ChildFailure failure{-1, 0};
  ssize_t got;
  do
    got = read(status.readFd(), &failure, sizeof failure);
  while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof failure))
    return pid;
  waitpid(pid, nullptr, 0);
  std::string reason = std::strerror(failure.error);
  switch (failure.stage) {
  case 1:
    return makeError("cannot run " + name + ": working directory " +
                     options.workingDirectory + ": " + reason);
  case 2:
    return makeError("cannot set the limits of " + name + ": " + reason);
  case 3:
    return makeError("cannot run " + name + ": " + reason);
  default:
    return makeError("cannot start " + name + ": " + reason);
  }
}

/// Waits for the child while reading its output, until it exits, times out
/// or writes more than the cap; then kills its group and reaps it. Returns
/// the stream that went over the cap, or nullptr.
const char *superviseChild(pid_t pid, const ProcessOptions &options, Pipe &out,
                           Pipe &err, ProcessResult &result) {
  auto start = Clock::now();
  auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(options.timeoutSeconds));
  // A pidfd wakes poll() the moment the child exits, even while processes
  // it left behind hold the pipes open; timing depends on it.
#ifdef SYS_pidfd_open
  int pidFd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  int pidFd = -1;
#endif
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  bool exited = false;
  const char *overflow = nullptr;
  int waitStatus = 0;
  rusage usage{};
  while (!overflow && (!exited || out.readFd() >= 0 || err.readFd() >= 0)) {
    auto now = Clock::now();
    if (now >= deadline) {
      result.timedOut = !exited;
      break;
    }
    pollfd fds[3];
    nfds_t count = 0;
    for (int fd : {out.readFd(), err.readFd(), exited ? -1 : pidFd})
      if (fd >= 0)
        fds[count++] = pollfd{fd, POLLIN, 0};
    int64_t leftMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
            .count() +
        1;
    // Without a pidfd, exit is noticed by polling every 10 ms.
    if (pidFd < 0 && !exited)
      leftMs = std::min<int64_t>(leftMs, 10);
    int waitMs = static_cast<int>(std::min<int64_t>(leftMs, INT_MAX));
    if (poll(fds, count, waitMs) < 0 && errno != EINTR)
      break;
    for (nfds_t i = 0; i < count; ++i) {
      if (!fds[i].revents)
        continue;
      if (fds[i].fd == out.readFd())
        drain(out, result.out);
      else if (fds[i].fd == err.readFd())
        drain(err, result.err);
    }
    if (static_cast<int64_t>(result.out.size()) > options.outputBytes)
      overflow = "stdout";
    else if (static_cast<int64_t>(result.err.size()) > options.outputBytes)
      overflow = "stderr";
    if (exited)
      continue;
    siginfo_t info{};
    int waited = waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT);
    if (waited < 0 && errno == ECHILD) {
      // SIGCHLD is ignored here, so the kernel reaped it: how it ended is
      // lost, and only its group is left to kill.
      result.seconds = elapsed();
      kill(-pid, SIGKILL);
      exited = true;
      waitStatus = -1;
    } else if (waited == 0 && info.si_pid == pid) {
      result.seconds = elapsed();
      // The child is a zombie until reaped, so its pid (the group's id)
      // cannot be reused yet: kill what it left behind, then reap it.
      kill(-pid, SIGKILL);
      wait4(pid, &waitStatus, 0, &usage);
      exited = true;
    }
  }
  if (!exited) {
    result.seconds = elapsed();
    kill(-pid, SIGKILL);
    while (wait4(pid, &waitStatus, 0, &usage) < 0 && errno == EINTR) {
    }
  }
  killGroup(pid);
  if (pidFd >= 0)
    close(pidFd);

  if (waitStatus != -1 && WIFEXITED(waitStatus))
    result.exitCode = WEXITSTATUS(waitStatus);
  else if (result.timedOut)
    result.signal = SIGKILL;
  else if (waitStatus != -1 && WIFSIGNALED(waitStatus) && !overflow)
    result.signal = WTERMSIG(waitStatus);
  result.peakMemoryBytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  return overflow;
}

} // namespace

Result<ProcessResult> runProcess(const std::vector<std::string> &argv,
                                 const ProcessOptions &options) {
  if (argv.empty())
    return makeError("no program given");
  if (Status valid = validateProcessOptions(options); !valid)
    return valid.error();
  auto path = findProgram(argv[0]);
  if (!path)
    return path.error();
  Pipe out, err;
  auto pid = startChild(argv, *path, options, out, err);
  if (!pid)
    return pid.error();
  ProcessResult result;
  result.pid = *pid;
  if (const char *overflow = superviseChild(*pid, options, out, err, result))
    return makeError(argv[0] + ": wrote more than " +
                     formatBytes(options.outputBytes) + " to " + overflow +
                     ", so it was stopped");
  return result;
}

std::string describeFailure(const ProcessResult &result,
                            const ProcessOptions &options) {
  if (result.timedOut)
    return "did not finish within " + formatSeconds(options.timeoutSeconds) +
           " s (it and the processes it started were killed)";
  std::string what;
  if (result.signal == SIGXCPU)
    what = "used up its " + std::to_string(cpuSecondsOf(options)) +
           " s of CPU time";
  else if (result.signal == SIGXFSZ)
    what = "tried to write a file over the limit of " +
           formatBytes(options.fileBytes);
  else if (result.signal != 0)
    what = "was killed by signal " + std::to_string(result.signal) + " (" +
           strsignal(result.signal) + ")";
  else if (result.exitCode != 0)
    what = "exited with code " + std::to_string(result.exitCode);
  else
    return "succeeded";
  // Past the address-space limit allocations fail, and the program crashes
  // or gives up; a resident set near the limit says that is what happened.
  if (result.peakMemoryBytes * 2 >= options.memoryBytes)
    return "ran out of memory (it reached " +
           formatBytes(result.peakMemoryBytes) + " of its " +
           formatBytes(options.memoryBytes) + " memory limit) and " + what;
  return what;
}

} // namespace rlopt
