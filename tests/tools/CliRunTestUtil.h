// Helpers for the train/optimize/eval CLI tests: small suites made of the
// tests/data fixtures, tiny training configs, and an rlopt process started
// in its own process group so that a test can signal or kill it (and its
// environment workers) while it runs.
#ifndef RLOPT_TESTS_TOOLS_CLIRUNTESTUTIL_H
#define RLOPT_TESTS_TOOLS_CLIRUNTESTUTIL_H

#include "ToolTestUtil.h"

#include "rlopt/data/Suite.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

namespace rlopt::tool::testing {

struct SuiteEntry {
  std::string fixture, split;
};

/// Writes a suite of tests/data fixtures to `dir` with data::writeSuite.
inline void writeFixtureSuite(const fs::path &dir,
                              const std::vector<SuiteEntry> &entries) {
  std::vector<data::BenchmarkSpec> benchmarks;
  for (const SuiteEntry &e : entries) {
    data::BenchmarkSpec b;
    b.name = e.fixture;
    b.opClass = e.fixture;
    b.split = e.split;
    b.shapeKey = e.fixture;
    b.source = "tests/data";
    b.flops = 2.0 * 64 * 64 * 64;
    b.bytes = 3.0 * 64 * 64 * 4;
    b.mlir = readFile(fixturePath(e.fixture));
    ASSERT_FALSE(b.mlir.empty()) << e.fixture;
    benchmarks.push_back(b);
  }
  Status status = data::writeSuite(benchmarks, dir.string());
  ASSERT_TRUE(status.ok()) << status.error().message;
}

/// A training config with a tiny policy and a one-repetition timing
/// protocol that measures into `cache`.
inline nlohmann::json tinyTrainConfig(int iterations, int programs,
                                      const fs::path &cache) {
  return {{"iterations", iterations},
          {"programs_per_iteration", programs},
          {"workers", 1},
          {"checkpoint_every", 1},
          {"eval_every", 0},
          {"epochs", 2},
          {"policy", {{"embedding", 16}, {"lstm", 16}, {"dense", {16}}}},
          {"env",
           {{"repetitions", 1}, {"max_rounds", 1}, {"cache", cache.string()}}}};
}

inline size_t countLines(const fs::path &path) {
  std::ifstream in(path);
  size_t n = 0;
  std::string line;
  while (std::getline(in, line))
    ++n;
  return n;
}

/// `rlopt args...` running in its own process group, with stdout and
/// stderr going to files in `dir`. Killed (with its group) if still running
/// when destroyed.
class RloptProcess {
public:
  /// `launcher` goes in front of rlopt, e.g. {"mpirun", "-np", "3"}.
  RloptProcess(const std::vector<std::string> &args, const fs::path &dir,
               const std::vector<std::string> &launcher = {})
      : outPath(dir / "process.stdout"), errPath(dir / "process.stderr") {
    std::vector<std::string> argv = launcher;
    argv.push_back(RLOPT_BINARY);
    argv.insert(argv.end(), args.begin(), args.end());
    pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      int in = ::open("/dev/null", O_RDONLY);
      int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in < 0 || out < 0 || err < 0)
        ::_exit(126);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      std::vector<char *> cargv;
      for (std::string &a : argv)
        cargv.push_back(a.data());
      cargv.push_back(nullptr);
      ::execv(cargv[0], cargv.data());
      ::_exit(127);
    }
    if (pid > 0)
      ::setpgid(pid, pid); // Also here, so that it holds before we signal.
    else
      ADD_FAILURE() << "fork failed";
  }
  ~RloptProcess() {
    if (running())
      killGroup(SIGKILL);
    waitExit(30);
  }

  bool running() {
    if (pid <= 0 || exited)
      return false;
    int s;
    pid_t r = ::waitpid(pid, &s, WNOHANG);
    if (r == pid) {
      exited = true;
      status = s;
      return false;
    }
    return true;
  }

  /// Signals the whole process group, as a terminal's Ctrl-C does.
  void killGroup(int signal) {
    if (pid > 0)
      ::kill(-pid, signal);
  }

  /// Waits up to `seconds` for the exit; the exit code, 128 + signal when
  /// signalled, or -1 on timeout.
  int waitExit(double seconds) {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration<double>(seconds);
    while (running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!exited)
      return -1;
    if (WIFEXITED(status))
      return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
      return 128 + WTERMSIG(status);
    return -1;
  }

  /// Waits until `path` has at least `lines` lines; false when the process
  /// ends first or the time runs out.
  bool waitForLines(const fs::path &path, size_t lines, double seconds) {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      if (countLines(path) >= lines)
        return true;
      if (!running())
        return countLines(path) >= lines;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  pid_t processId() const { return pid; }
  std::string err() const { return readFile(errPath); }
  std::string out() const { return readFile(outPath); }

private:
  fs::path outPath, errPath;
  pid_t pid = -1;
  bool exited = false;
  int status = 0;
};

} // namespace rlopt::tool::testing

#endif
