#include "rlopt/core/Worker.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>
#include <vector>

using namespace rlopt;

namespace {

WorkerLimits quickLimits() {
  WorkerLimits limits;
  limits.timeoutSeconds = 30;
  return limits;
}

Worker spawnOrDie(const Worker::Job &job,
                  const WorkerLimits &limits = quickLimits()) {
  Result<Worker> worker = Worker::spawn(job, limits);
  if (!worker.ok())
    ADD_FAILURE() << worker.error().message;
  return worker.takeValue();
}

/// Echoes every message back with a prefix until the parent closes the pipe.
int echoJob(WorkerChannel &channel) {
  while (std::optional<std::string> message = channel.receive())
    if (!channel.send("echo:" + *message))
      return 1;
  return 0;
}

TEST(WorkerTest, ReturnsMessagesInOrder) {
  Worker worker = spawnOrDie([](WorkerChannel &channel) {
    channel.send("hello");
    channel.send("");
    channel.send("world");
    return 0;
  });
  Result<std::string> first = worker.receive();
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(*first, "hello");
  Result<std::string> second = worker.receive();
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(*second, "");
  Result<std::string> third = worker.receive();
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(*third, "world");

  // The child has exited cleanly; asking for more is an error, not a hang.
  Result<std::string> none = worker.receive();
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("without sending"), std::string::npos)
      << none.error().message;
  worker.finish();
}

TEST(WorkerTest, TwoWayMessages) {
  Worker worker = spawnOrDie(echoJob);
  // Larger than a pipe buffer, so both directions must stream.
  std::string big(3 << 20, 'x');
  big[12345] = 'y';
  for (const std::string &message : {std::string("a"), big, std::string()}) {
    ASSERT_TRUE(worker.send(message));
    Result<std::string> reply = worker.receive();
    ASSERT_TRUE(reply.ok()) << reply.error().message;
    EXPECT_EQ(*reply, "echo:" + message);
  }
  worker.finish();
}

TEST(WorkerTest, SegfaultIsReportedWithSignal) {
  Worker worker = spawnOrDie([](WorkerChannel &) {
    std::raise(SIGSEGV);
    return 0;
  });
  Result<std::string> reply = worker.receive();
  ASSERT_FALSE(reply.ok());
  const std::string &message = reply.error().message;
  EXPECT_NE(message.find("signal " + std::to_string(SIGSEGV)),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(strsignal(SIGSEGV)), std::string::npos) << message;
}

TEST(WorkerTest, ExitCodeIsReported) {
  Worker worker = spawnOrDie([](WorkerChannel &) { return 3; });
  Result<std::string> reply = worker.receive();
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().message, "worker exited with code 3");
}

TEST(WorkerTest, UncaughtExceptionStaysInTheChild) {
  Worker worker = spawnOrDie(
      [](WorkerChannel &) -> int { throw std::runtime_error("boom"); });
  Result<std::string> reply = worker.receive();
  ASSERT_FALSE(reply.ok());
  EXPECT_NE(reply.error().message.find("signal " + std::to_string(SIGABRT)),
            std::string::npos)
      << reply.error().message;
}

TEST(WorkerTest, HangIsKilledAfterTimeout) {
  WorkerLimits limits;
  limits.timeoutSeconds = 0.5;
  Worker worker = spawnOrDie(
      [](WorkerChannel &) {
        while (true)
          pause();
        return 0;
      },
      limits);
  Result<std::string> reply = worker.receive();
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().message, "worker timed out after 0.5 s");

  // The killed worker is gone; the next job gets a fresh one.
  Result<std::string> again = worker.receive();
  EXPECT_FALSE(again.ok());
  Worker next = spawnOrDie([](WorkerChannel &channel) {
    channel.send("fresh");
    return 0;
  });
  Result<std::string> fresh = next.receive();
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  EXPECT_EQ(*fresh, "fresh");
}

TEST(WorkerTest, MemoryBlowUpEndsOnlyTheChild) {
  WorkerLimits limits = quickLimits();
  limits.memoryBytes = 256ull << 20;
  Worker worker = spawnOrDie(
      [](WorkerChannel &channel) {
        std::vector<char *> blocks;
        // 64 GiB in total: far beyond the limit.
        for (int i = 0; i < 1024; ++i) {
          char *block = new char[1 << 26];
          std::memset(block, i, 1 << 26);
          blocks.push_back(block);
        }
        channel.send("survived " + std::to_string(blocks.size()) +
                     std::to_string(blocks.back()[7]));
        return 0;
      },
      limits);
  Result<std::string> reply = worker.receive();
  ASSERT_FALSE(reply.ok()) << "child allocated past its limit: " << *reply;
  EXPECT_NE(reply.error().message.find("worker crashed: signal"),
            std::string::npos)
      << reply.error().message;

  Worker next = spawnOrDie(echoJob);
  ASSERT_TRUE(next.send("still here"));
  Result<std::string> echo = next.receive();
  ASSERT_TRUE(echo.ok()) << echo.error().message;
  EXPECT_EQ(*echo, "echo:still here");
  next.finish();
}

TEST(WorkerTest, DestructorKillsAndReapsTheChild) {
  pid_t child = -1;
  {
    Worker worker = spawnOrDie([](WorkerChannel &channel) {
      channel.send(std::to_string(getpid()));
      while (true)
        pause();
      return 0;
    });
    Result<std::string> pid = worker.receive();
    ASSERT_TRUE(pid.ok()) << pid.error().message;
    child = std::stoi(*pid);
    ASSERT_EQ(kill(child, 0), 0);
  }
  // Killed and reaped: not even a zombie is left.
  errno = 0;
  EXPECT_EQ(kill(child, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(WorkerTest, MoveTransfersTheChild) {
  Worker original = spawnOrDie(echoJob);
  Worker moved(std::move(original));
  EXPECT_FALSE(original.receive().ok());
  EXPECT_FALSE(original.send("lost"));

  Worker assigned = spawnOrDie(echoJob);
  assigned = std::move(moved);
  ASSERT_TRUE(assigned.send("ping"));
  Result<std::string> reply = assigned.receive();
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(*reply, "echo:ping");
  assigned.finish();
}

TEST(WorkerTest, FinishEndsAChildWhileASiblingRuns) {
  // A sibling forked later must not keep the first worker's channel open:
  // the first child then sees the end of input and exits on its own.
  std::filesystem::path marker =
      std::filesystem::path(testing::TempDir()) /
      ("rlopt-worker-eof-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  WorkerLimits limits;
  limits.timeoutSeconds = 5;
  Worker first = spawnOrDie(
      [&marker](WorkerChannel &channel) {
        while (channel.receive()) {
        }
        std::ofstream(marker) << "eof\n";
        return 0;
      },
      limits);
  Worker sibling = spawnOrDie(echoJob, limits);
  first.finish();
  EXPECT_TRUE(std::filesystem::exists(marker))
      << "the first child never saw the end of its input";
  std::filesystem::remove(marker);

  ASSERT_TRUE(sibling.send("x"));
  Result<std::string> reply = sibling.receive();
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(*reply, "echo:x");
  sibling.finish();
}

} // namespace
