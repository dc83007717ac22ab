// Atomic writes, checked reads, and the clean-up of temporaries a killed
// process left.
#include "rlopt/core/File.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
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

  std::string contents(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }

  std::vector<std::string> entries() {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir;
};

TEST_F(FileTest, AnAtomicWriteToADeviceWritesThroughAndKeepsTheDevice) {
  // `-o /dev/null` must not replace /dev/null with a file.
  ASSERT_TRUE(fs::is_character_file("/dev/null"));
  Status written = writeFileAtomically("/dev/null", "discarded");
  EXPECT_TRUE(written.ok()) << written.error().message;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(FileTest, WritesTheWholeTextAndNoTemporary) {
  std::string path = (dir / "a.json").string();
  ASSERT_TRUE(writeFileAtomically(path, "{\"x\": 1}\n"));
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "{\"x\": 1}\n");
  EXPECT_FALSE(fs::exists(temporaryPathFor(path)));
  EXPECT_EQ(entries(), std::vector<std::string>{"a.json"});
}

TEST_F(FileTest, PlantedSymlinkIsNeitherFollowedNorKept) {
  // Someone who can write the directory plants the names this process
  // would use for its temporary, pointing at a file of theirs.
  fs::path victim = dir / "victim.txt";
  std::ofstream(victim) << "precious";
  std::string path = (dir / "out.mlir").string();
  fs::create_symlink(victim, temporaryPathFor(path));
  fs::create_symlink(victim, path);
  ASSERT_TRUE(writeFileAtomically(path, "new contents"));
  EXPECT_EQ(contents(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(path)) << "the output is a file of its own";
  EXPECT_EQ(contents(path), "new contents");
}

TEST_F(FileTest, FailedWriteKeepsThePreviousFileAndLeavesNoTemporary) {
  std::string path = (dir / "checkpoint.pt").string();
  ASSERT_TRUE(writeFileAtomically(path, "good checkpoint"));
  // A file size limit fails the write as a full disk does; the child
  // reports through its exit code.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{4096, 4096};
    setrlimit(RLIMIT_FSIZE, &limit);
    Status status = writeFileAtomically(path, std::string(1 << 20, 'x'));
    bool named = !status && status.error().message.find(path + ": write "
                                                               "failed") == 0;
    _exit(named ? 0 : 1);
  }
  int code = -1;
  ASSERT_EQ(waitpid(child, &code, 0), child);
  ASSERT_TRUE(WIFEXITED(code));
  EXPECT_EQ(WEXITSTATUS(code), 0) << "the error names the file";
  EXPECT_EQ(contents(path), "good checkpoint");
  EXPECT_EQ(entries(), std::vector<std::string>{"checkpoint.pt"});
}

TEST_F(FileTest, NewFilesGetTheUsualPermissions) {
  std::string path = (dir / "results.json").string();
  ASSERT_TRUE(writeFileAtomically(path, "{}"));
  mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(fs::status(path).permissions(),
            static_cast<fs::perms>(0666 & ~mask));
}

TEST_F(FileTest, ReadsARegularFile) {
  fs::path path = dir / "program.mlir";
  std::ofstream(path) << "func.func @f()";
  auto text = readRegularFile(path.string());
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "func.func @f()");
}

TEST_F(FileTest, RefusesWhatIsNotARegularFile) {
  fs::path fifo = dir / "fifo.hlo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  fs::path zero = dir / "zero.ll";
  fs::create_symlink("/dev/zero", zero);
  const std::pair<fs::path, const char *> cases[] = {
      {fifo, "a FIFO"}, {zero, "a device"}, {dir, "a directory"}};
  for (const auto &[path, kind] : cases) {
    auto text = readRegularFile(path.string());
    ASSERT_FALSE(text) << path;
    EXPECT_EQ(text.error().message, path.string() + ": cannot read file: " +
                                        kind + ", not a regular file");
  }
}

TEST_F(FileTest, MissingFileAndSizeCapAreOneLineErrors) {
  std::string missing = (dir / "missing.hlo").string();
  auto absent = readRegularFile(missing);
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().message, missing + ": cannot read file");

  fs::path big = dir / "big.json";
  std::ofstream(big) << std::string(3 << 20, ' ');
  auto capped = readRegularFile(big.string(), 2 << 20);
  ASSERT_FALSE(capped);
  EXPECT_EQ(capped.error().message,
            big.string() + ": larger than 2 MiB; refusing to read it");
  EXPECT_TRUE(readRegularFile(big.string(), 4 << 20));
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
  fs::path deadWithSuffix = path + ".tmp.999999999.a1B2c3";
  fs::path liveWithSuffix =
      path + ".tmp." + std::to_string(getppid()) + ".a1B2c3";
  for (const fs::path &p : {dead, earlierSamePid, live, other, notOurs,
                            outOfRange, deadWithSuffix, liveWithSuffix})
    touch(p);
  removeLeftoverTemporaries(path);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(earlierSamePid))
      << "this process has not written it yet";
  EXPECT_TRUE(fs::exists(live)) << "a live process may still rename it";
  EXPECT_TRUE(fs::exists(other)) << "another file's temporary";
  EXPECT_TRUE(fs::exists(notOurs));
  EXPECT_TRUE(fs::exists(outOfRange));
  EXPECT_FALSE(fs::exists(deadWithSuffix));
  EXPECT_TRUE(fs::exists(liveWithSuffix));
}

} // namespace
