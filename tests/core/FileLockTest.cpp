// The lock a training run holds on its directory: one holder at a time, an
// error naming the holder, and nothing left behind by a killed holder or by
// the workers it forked.
#include "rlopt/core/FileLock.h"
#include "rlopt/core/Worker.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

using namespace rlopt;
namespace fs = std::filesystem;

namespace {

class FileLockTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("rlopt-filelock-test-" + std::to_string(getpid()));
    fs::create_directories(dir);
    lockPath = (dir / "run.lock").string();
  }
  void TearDown() override { fs::remove_all(dir); }

  fs::path dir;
  std::string lockPath;
};

TEST_F(FileLockTest, ASecondHolderIsRefusedWithTheFirstHoldersPid) {
  Result<FileLock> first = FileLock::acquire(lockPath, "run directory d");
  ASSERT_TRUE(first.ok()) << first.error().message;
  Result<FileLock> second = FileLock::acquire(lockPath, "run directory d");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().message,
            "run directory d is in use by process " + std::to_string(getpid()));
}

TEST_F(FileLockTest, TheLockIsFreeOnceItsHolderLetsGo) {
  {
    Result<FileLock> first = FileLock::acquire(lockPath, "d");
    ASSERT_TRUE(first.ok()) << first.error().message;
  }
  EXPECT_TRUE(FileLock::acquire(lockPath, "d").ok());
}

TEST_F(FileLockTest, AHolderKilledWithSigkillLeavesNoLock) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<FileLock> held = FileLock::acquire(lockPath, "d");
    char byte = held.ok() ? 'y' : 'n';
    (void)!write(ready[1], &byte, 1);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  close(ready[0]);
  ASSERT_EQ(byte, 'y');

  Result<FileLock> whileHeld = FileLock::acquire(lockPath, "d");
  ASSERT_FALSE(whileHeld.ok());
  EXPECT_EQ(whileHeld.error().message,
            "d is in use by process " + std::to_string(child));

  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_TRUE(FileLock::acquire(lockPath, "d").ok());
}

TEST_F(FileLockTest, AWorkerForkedByTheHolderDoesNotKeepTheLock) {
  std::optional<Worker> worker;
  {
    Result<FileLock> held = FileLock::acquire(lockPath, "d");
    ASSERT_TRUE(held.ok()) << held.error().message;
    // The worker outlives the lock: it waits for a message that only comes
    // after the holder has let go.
    Result<Worker> spawned = Worker::spawn(
        [](WorkerChannel &channel) {
          channel.send("started");
          channel.receive();
          return 0;
        },
        WorkerLimits{});
    ASSERT_TRUE(spawned.ok()) << spawned.error().message;
    worker.emplace(spawned.takeValue());
    ASSERT_TRUE(worker->receive().ok());
  }
  EXPECT_TRUE(FileLock::acquire(lockPath, "d").ok());
  worker->send("done");
  worker->finish();
}

} // namespace
