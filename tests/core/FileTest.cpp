// Atomic writes and the clean-up of temporaries a killed process left.
#include "rlopt/core/File.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
  // Above any pid_max: no such process.
  fs::path dead = path + ".tmp.999999999";
  fs::path earlierSamePid = temporaryPathFor(path);
  fs::path live = path + ".tmp." + std::to_string(getppid());
  fs::path other = dir / "policy.pt.tmp.999999999";
  fs::path notOurs = path + ".tmp.backup";
  fs::path outOfRange = path + ".tmp.99999999999999";
  for (const fs::path &p :
       {dead, earlierSamePid, live, other, notOurs, outOfRange})
    touch(p);
  removeLeftoverTemporaries(path);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(earlierSamePid))
      << "this process has not written it yet";
  EXPECT_TRUE(fs::exists(live)) << "a live process may still rename it";
  EXPECT_TRUE(fs::exists(other)) << "another file's temporary";
  EXPECT_TRUE(fs::exists(notOurs));
  EXPECT_TRUE(fs::exists(outOfRange));
}

} // namespace
