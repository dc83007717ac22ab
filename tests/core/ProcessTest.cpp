// Running a child process: what it printed, how it ended, and that nothing
// it started outlives it. Shells appear here only as test programs.
#include "rlopt/core/Process.h"
#include "rlopt/core/TempDir.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

using namespace rlopt;
namespace fs = std::filesystem;

namespace {

/// No process of the child's group is alive. Zombies are dead: orphans wait
/// for init to reap them, which can take seconds.
bool groupIsGone(int pid) {
  if (kill(-pid, 0) != 0 && errno == ESRCH)
    return true;
  for (const auto &entry : fs::directory_iterator("/proc")) {
    if (!std::isdigit(entry.path().filename().string()[0]))
      continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    size_t close = text.rfind(')');
    if (close == std::string::npos)
      continue;
    std::istringstream fields(text.substr(close + 1));
    char state = 0;
    long parent = 0, group = 0;
    if (fields >> state >> parent >> group && group == pid && state != 'Z')
      return false;
  }
  return true;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Restores TMPDIR when it goes out of scope.
class ScopedTmpdir {
public:
  explicit ScopedTmpdir(const std::string &value) {
    if (const char *old = std::getenv("TMPDIR"))
      saved = old;
    setenv("TMPDIR", value.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (saved)
      setenv("TMPDIR", saved->c_str(), 1);
    else
      unsetenv("TMPDIR");
  }

private:
  std::optional<std::string> saved;
};

} // namespace

TEST(Process, CapturesStdoutStderrAndTheExitCode) {
  auto run = runProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->out, "out\n");
  EXPECT_EQ(run->err, "err\n");
  EXPECT_EQ(run->exitCode, 3);
  EXPECT_EQ(run->signal, 0);
  EXPECT_FALSE(run->timedOut);
  EXPECT_FALSE(run->succeeded());
  EXPECT_EQ(describeFailure(*run, {}), "exited with code 3");
}

TEST(Process, ArgumentsReachTheProgramUnchanged) {
  std::string tricky = "a'; touch x; 'b $(echo no) \"c\" *";
  auto run = runProcess({"printf", "%s", tricky});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->out, tricky);
  EXPECT_TRUE(run->succeeded());
}

TEST(Process, StdinIsEmpty) {
  auto run = runProcess({"cat"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->out, "");
  EXPECT_TRUE(run->succeeded());
}

TEST(Process, StdinReadsTheFileGiven) {
  auto dir = TempDir::create("rlopt-process-test");
  ASSERT_TRUE(dir.ok()) << dir.error().message;
  std::ofstream(dir->file("in.txt")) << "line one\nline two\n";
  ProcessOptions options;
  options.stdinPath = dir->file("in.txt");
  auto run = runProcess({"cat"}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->out, "line one\nline two\n");

  options.stdinPath = dir->file("missing.txt");
  auto missing = runProcess({"cat"}, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error().message, "stdin"))
      << missing.error().message;
  EXPECT_TRUE(contains(missing.error().message, "missing.txt"))
      << missing.error().message;
}

TEST(Process, RunsInTheWorkingDirectoryGiven) {
  auto dir = TempDir::create("rlopt-process-test");
  ASSERT_TRUE(dir.ok()) << dir.error().message;
  ProcessOptions options;
  options.workingDirectory = dir->path();
  auto run = runProcess({"pwd", "-P"}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->out, fs::canonical(dir->path()).string() + "\n");

  options.workingDirectory = dir->file("missing");
  auto missing = runProcess({"pwd"}, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error().message, "working directory"))
      << missing.error().message;
}

TEST(Process, AMissingProgramIsAnErrorThatNamesIt) {
  auto run = runProcess({"rlopt-no-such-program", "x"});
  ASSERT_FALSE(run.ok());
  EXPECT_TRUE(contains(run.error().message, "rlopt-no-such-program"))
      << run.error().message;
  EXPECT_TRUE(contains(run.error().message, "scripts/bootstrap"))
      << run.error().message;
  EXPECT_EQ(run.error().message.find('\n'), std::string::npos);

  auto byPath = runProcess({"/nonexistent/rlopt-tool"});
  ASSERT_FALSE(byPath.ok());
  EXPECT_TRUE(contains(byPath.error().message, "/nonexistent/rlopt-tool"));
}

TEST(Process, LimitsMustBePositive) {
  for (auto change : std::vector<void (*)(ProcessOptions &)>{
           [](ProcessOptions &o) { o.timeoutSeconds = 0; },
           [](ProcessOptions &o) { o.memoryBytes = 0; },
           [](ProcessOptions &o) { o.cpuSeconds = -1; },
           [](ProcessOptions &o) { o.maxProcesses = 0; },
           [](ProcessOptions &o) { o.outputBytes = -5; },
           [](ProcessOptions &o) { o.fileBytes = 0; }}) {
    ProcessOptions options;
    change(options);
    auto run = runProcess({"true"}, options);
    ASSERT_FALSE(run.ok());
    EXPECT_TRUE(contains(run.error().message, "must be positive"))
        << run.error().message;
  }
}

TEST(Process, ATimeoutKillsTheChildAndItsChildren) {
  ProcessOptions options;
  options.timeoutSeconds = 0.5;
  auto run = runProcess(
      {"sh", "-c", "sleep 100 & sleep 100 & echo started; wait"}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->timedOut);
  EXPECT_FALSE(run->succeeded());
  EXPECT_EQ(run->out, "started\n");
  EXPECT_TRUE(groupIsGone(run->pid));
  EXPECT_TRUE(contains(describeFailure(*run, options), "within 0.5 s"))
      << describeFailure(*run, options);
}

TEST(Process, WhatTheChildLeavesBehindIsKilledWhenItExits) {
  // The background sleep holds stdout open: waiting for end of file alone
  // would wait for it.
  auto run = runProcess({"sh", "-c", "sleep 100 & echo started"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->succeeded());
  EXPECT_FALSE(run->timedOut);
  EXPECT_EQ(run->out, "started\n");
  EXPECT_TRUE(groupIsGone(run->pid));
}

TEST(Process, ForkingRepeatedlyDoesNotOutliveTheTimeout) {
  // Each shell starts another in the background and keeps running: the
  // group grows until it is killed.
  ProcessOptions options;
  options.timeoutSeconds = 0.5;
  auto run = runProcess(
      {"sh", "-c", "f() { sleep 0.01; f & wait; }; f & f & wait"}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->timedOut);
  EXPECT_TRUE(groupIsGone(run->pid));
}

TEST(Process, OutputOverTheCapIsAnError) {
  ProcessOptions options;
  options.outputBytes = 1 << 20;
  auto run = runProcess({"yes"}, options);
  ASSERT_FALSE(run.ok());
  EXPECT_TRUE(contains(run.error().message, "yes: wrote more than 1 MiB to "
                                            "stdout"))
      << run.error().message;

  auto quiet = runProcess({"sh", "-c", "head -c 1000 /dev/zero >&2"}, options);
  ASSERT_TRUE(quiet.ok()) << quiet.error().message;
  EXPECT_EQ(quiet->err.size(), 1000u);
}

TEST(Process, AMemoryHogIsStoppedByTheMemoryLimit) {
  auto dir = TempDir::create("rlopt-process-test");
  ASSERT_TRUE(dir.ok()) << dir.error().message;
  // Allocates and touches 16 MiB at a time, up to 4 GiB; a refused
  // allocation is dereferenced and crashes it.
  std::ofstream(dir->file("hog.c")) << R"(
#include <stdlib.h>
#include <string.h>
int main(void) {
  for (int i = 0; i < 256; ++i) {
    volatile char *block = malloc(16 << 20);
    memset((char *)block, 1, 16 << 20);
  }
  return 0;
}
)";
  auto built = runProcess(
      {"clang-19", "-O0", dir->file("hog.c"), "-o", dir->file("hog")});
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_TRUE(built->succeeded()) << built->err;

  ProcessOptions options;
  options.memoryBytes = 256 << 20;
  auto run = runProcess({dir->file("hog")}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_FALSE(run->succeeded());
  EXPECT_FALSE(run->timedOut);
  EXPECT_LE(run->peakMemoryBytes, options.memoryBytes);
  std::string why = describeFailure(*run, options);
  EXPECT_TRUE(contains(why, "ran out of memory")) << why;
  EXPECT_TRUE(contains(why, "256 MiB memory limit")) << why;
}

TEST(Process, ACpuHogIsStoppedByTheCpuLimit) {
  ProcessOptions options;
  options.cpuSeconds = 1;
  auto run = runProcess({"sh", "-c", "while :; do :; done"}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_FALSE(run->timedOut);
  EXPECT_EQ(run->signal, SIGXCPU);
  EXPECT_EQ(describeFailure(*run, options), "used up its 1 s of CPU time");
}

TEST(TempDir, IsCreatedUnderTmpdirAndRemovedWithItsFiles) {
  auto parent = TempDir::create("rlopt-tempdir-test");
  ASSERT_TRUE(parent.ok()) << parent.error().message;
  // Quotes, spaces and shell syntax are just characters in a path.
  std::string odd = parent->file("a'; touch x; ' $(x) b");
  ASSERT_TRUE(fs::create_directory(odd));
  std::string path;
  {
    ScopedTmpdir tmpdir(odd);
    auto dir = TempDir::create("rlopt-inner");
    ASSERT_TRUE(dir.ok()) << dir.error().message;
    path = dir->path();
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(odd));
    std::ofstream(dir->file("f")) << "x";
    fs::create_directory(dir->file("sub"));
    std::ofstream(dir->file("sub/g")) << "y";
    ASSERT_TRUE(fs::exists(dir->file("sub/g")));
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(TempDir, AMissingTmpdirIsAnErrorThatNamesIt) {
  ScopedTmpdir tmpdir("/nonexistent/rlopt-tmp");
  auto dir = TempDir::create("rlopt-x");
  ASSERT_FALSE(dir.ok());
  EXPECT_TRUE(contains(dir.error().message, "/nonexistent/rlopt-tmp"))
      << dir.error().message;
}
