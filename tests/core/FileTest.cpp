// Atomic writes and the clean-up of temporaries a killed process left.
#include "rlopt/core/File.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace rlopt;
namespace fs = std::filesystem;

namespace {

class FileTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("rlopt-file-test-" + std::to_string(getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  void touch(const fs::path &path) { std::ofstream(path) << "x"; }

  /// The pid of a child that has exited and been reaped.
  pid_t deadPid() {
    pid_t child = fork();
    if (child == 0)
      _exit(0);
    waitpid(child, nullptr, 0);
    return child;
  }

  fs::path dir;
};

TEST_F(FileTest, WritesTheWholeTextAndNoTemporary) {
  std::string path = (dir / "a.json").string();
  ASSERT_TRUE(writeFileAtomically(path, "{\"x\": 1}\n"));
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "{\"x\": 1}\n");
  EXPECT_FALSE(fs::exists(temporaryPathFor(path)));
}

TEST_F(FileTest, MissingDirectoryIsAnErrorNamingThePath) {
  std::string path = (dir / "missing" / "a.json").string();
  Status status = writeFileAtomically(path, "x");
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find(path), std::string::npos);
}

TEST_F(FileTest, RemovesOnlyTemporariesOfProcessesThatAreGone) {
  std::string path = (dir / "checkpoint.pt").string();
  fs::path dead = path + ".tmp." + std::to_string(deadPid());
  fs::path alive = temporaryPathFor(path);
  fs::path other = dir / ("policy.pt.tmp." + std::to_string(deadPid()));
  fs::path notOurs = path + ".tmp.backup";
  for (const fs::path &p : {dead, alive, other, notOurs})
    touch(p);
  removeLeftoverTemporaries(path);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive)) << "a live process may still rename it";
  EXPECT_TRUE(fs::exists(other)) << "another file's temporary";
  EXPECT_TRUE(fs::exists(notOurs));
}

} // namespace
