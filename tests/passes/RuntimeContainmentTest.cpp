// The Runtime observation runs user programs: a runaway one ends its run
// with an error and leaves nothing behind, and the tools that build
// programs are never handed to a shell.
#include "rlopt/passes/PassRunner.h"
#include "rlopt/passes/PassesEnv.h"
#include "rlopt/passes/Runtime.h"

#include "rlopt/core/TempDir.h"

#include "PassesTestUtil.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

using namespace rlopt;
using namespace rlopt::passes;
using namespace rlopt::passes::testing;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Live processes whose name is `name`. Zombies are dead: orphans wait for
/// init to reap them, which can take seconds.
int processesNamed(const std::string &name) {
  int count = 0;
  for (const auto &entry : fs::directory_iterator("/proc")) {
    if (!std::isdigit(entry.path().filename().string()[0]))
      continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    size_t open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos ||
        close + 2 >= text.size())
      continue;
    if (text.substr(open + 1, close - open - 1) == name &&
        text[close + 2] != 'Z')
      ++count;
  }
  return count;
}

/// A name no other process has: this test's pid in it.
std::string uniqueProcessName() { return "rlfk" + std::to_string(getpid()); }

/// A PassesEnv on a C program written to a scratch directory; one timed run.
class RuntimeContainmentTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto created = TempDir::create("rlopt-runtime-test");
    ASSERT_TRUE(created.ok()) << created.error().message;
    dir.emplace(created.takeValue());
    config.runtime.warmupRuns = 0;
    config.runtime.timedRuns = 1;
  }

  std::unique_ptr<PassesEnv> envOn(const std::string &source) {
    std::string path = dir->file("program.c");
    std::ofstream(path) << source;
    auto env = PassesEnv::create(config, bundledSources());
    EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
    if (!env.ok())
      return nullptr;
    auto loaded = (*env)->tryReset({path}, 0);
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return loaded.ok() ? env.takeValue() : nullptr;
  }

  std::optional<TempDir> dir;
  PassesEnvConfig config;
};

} // namespace

TEST_F(RuntimeContainmentTest, ChildrenLeftBehindByTheProgramAreKilled) {
  std::string name = uniqueProcessName();
  auto env = envOn(R"(
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
  int ready[2];
  if (pipe(ready) != 0)
    return 1;
  for (int i = 0; i < 8; ++i)
    if (fork() == 0) {
      prctl(PR_SET_NAME, ")" +
                   name + R"(");
      write(ready[1], "x", 1);
      for (;;)
        pause();
    }
  // Exits once every child has its name, so a survivor would be counted.
  char byte;
  for (int i = 0; i < 8; ++i)
    read(ready[0], &byte, 1);
  printf("done\n");
  return 0;
}
)");
  ASSERT_NE(env, nullptr);
  auto runtime = env->observe("Runtime");
  ASSERT_TRUE(runtime.ok()) << runtime.error().message;
  EXPECT_EQ(processesNamed(name), 0);
}

TEST_F(RuntimeContainmentTest, AForkingProgramIsGoneAfterTheTimeout) {
  std::string name = uniqueProcessName();
  config.runtime.timeoutSeconds = 1;
  // Starts a child every 10 ms, each of which starts another, until killed.
  auto env = envOn(R"(
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
  for (;;) {
    if (fork() == 0) {
      fork();
      prctl(PR_SET_NAME, ")" +
                   name + R"(");
      for (;;)
        pause();
    }
    usleep(10000);
  }
}
)");
  ASSERT_NE(env, nullptr);
  auto runtime = env->observe("Runtime");
  ASSERT_FALSE(runtime.ok());
  EXPECT_TRUE(contains(runtime.error().message, "did not finish within 1 s"))
      << runtime.error().message;
  EXPECT_EQ(processesNamed(name), 0);
}

TEST_F(RuntimeContainmentTest, AMemoryHogIsStoppedByTheMemoryLimit) {
  config.runtime.memoryMiB = 256;
  auto env = envOn(R"(
#include <stdlib.h>
#include <string.h>
int main(void) {
  for (int i = 0; i < 256; ++i) {
    volatile char *block = malloc(16 << 20);
    memset((char *)block, 1, 16 << 20);
  }
  return 0;
}
)");
  ASSERT_NE(env, nullptr);
  auto runtime = env->observe("Runtime");
  ASSERT_FALSE(runtime.ok());
  EXPECT_TRUE(contains(runtime.error().message, "ran out of memory"))
      << runtime.error().message;
  EXPECT_TRUE(contains(runtime.error().message, "256 MiB memory limit"))
      << runtime.error().message;
}

TEST_F(RuntimeContainmentTest, BadRuntimeOptionsAreOneLineErrors) {
  struct Case {
    void (*change)(RuntimeOptions &);
    const char *message;
  };
  for (const Case &c : std::vector<Case>{
           {[](RuntimeOptions &o) { o.warmupRuns = -1; }, "warm-up runs"},
           {[](RuntimeOptions &o) { o.timedRuns = 0; }, "timed runs"},
           {[](RuntimeOptions &o) { o.timeoutSeconds = 0; }, "timeout"},
           {[](RuntimeOptions &o) { o.memoryMiB = -2; }, "memory limit"},
           {[](RuntimeOptions &o) { o.maxProcesses = 0; }, "process limit"}}) {
    PassesEnvConfig bad;
    c.change(bad.runtime);
    auto env = PassesEnv::create(bad, bundledSources());
    ASSERT_FALSE(env.ok()) << c.message;
    EXPECT_TRUE(contains(env.error().message, c.message))
        << env.error().message;
    EXPECT_FALSE(contains(env.error().message, "\n"));
  }

  // Called directly, a negative warm-up count is an error, not a crash.
  auto env = envOn("int main(void) { return 0; }\n");
  ASSERT_NE(env, nullptr);
  auto runner = PassRunner::create();
  ASSERT_TRUE(runner.ok());
  RuntimeOptions negative;
  negative.warmupRuns = -3;
  auto measured =
      measureRuntime(env->module(), (*runner)->targetMachine(), {}, negative);
  ASSERT_FALSE(measured.ok());
  EXPECT_TRUE(contains(measured.error().message, "warm-up runs"))
      << measured.error().message;

  auto fromJson = PassesEnvConfig::fromJson({{"runtime_memory_mib", 0}}, "c");
  ASSERT_TRUE(fromJson.ok());
  EXPECT_FALSE(PassesEnv::create(*fromJson, bundledSources()).ok());
}

TEST(CsmithBenchmark, LoadsNormallyWhenTmpdirHoldsShellSyntax) {
  auto scratch = TempDir::create("rlopt-tmpdir-test");
  ASSERT_TRUE(scratch.ok()) << scratch.error().message;
  // Pasted into a shell command between single quotes, this TMPDIR would
  // close the quote and run `touch <scratch>/X`.
  std::string injected = scratch->file("q'; touch " + scratch->file("X; '"));
  ASSERT_TRUE(fs::create_directories(injected));
  const char *old = std::getenv("TMPDIR");
  std::optional<std::string> saved =
      old ? std::optional<std::string>(old) : std::nullopt;
  setenv("TMPDIR", injected.c_str(), 1);

  auto env = PassesEnv::create({}, bundledSources());
  ASSERT_TRUE(env.ok());
  auto loaded = (*env)->tryReset({"generator://csmith-v0/7"}, 0);
  if (saved)
    setenv("TMPDIR", saved->c_str(), 1);
  else
    unsetenv("TMPDIR");

  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE((*env)->runnable());
  EXPECT_GT((*env)->observe("IrInstructionCount")->get<int64_t>(), 100);
  EXPECT_FALSE(fs::exists(scratch->file("X")));
  // Its scratch directories are removed.
  EXPECT_TRUE(fs::is_empty(injected));
}
