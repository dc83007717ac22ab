// A disk that fills up during training: the checkpoint that fails to save
// is a one-line error, the last good checkpoint stays as it was, no
// temporary file is left, and the run resumes once there is room again.
#include "CounterEnv.h"
#include "TinyConfigs.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace rlopt;
using namespace rlopt::agent::discrete;
using namespace rlopt::agent::discrete::testing;

namespace {

/// A small tmpfs of its own, so that filling it touches nothing else.
class SmallDisk {
public:
  explicit SmallDisk(const fs::path &where) : path(where) {
    fs::create_directories(path);
    mounted = mount("tmpfs", path.c_str(), "tmpfs", 0, "size=16m") == 0;
    if (!mounted)
      reason = std::strerror(errno);
  }
  ~SmallDisk() {
    if (mounted)
      umount2(path.c_str(), MNT_DETACH);
  }
  /// Writes `filler` until the disk is full, then frees `keepFree` bytes.
  void fill(const fs::path &filler, size_t keepFree) {
    int fd = open(filler.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    std::string chunk(1 << 16, 'x');
    off_t size = 0;
    for (ssize_t n; (n = write(fd, chunk.data(), chunk.size())) > 0;)
      size += n;
    EXPECT_EQ(errno, ENOSPC);
    ASSERT_EQ(ftruncate(fd, size - static_cast<off_t>(keepFree)), 0);
    close(fd);
  }

  fs::path path;
  bool mounted = false;
  std::string reason;
};

std::string contents(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

bool hasTemporaries(const fs::path &dir) {
  for (const auto &entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos)
      return true;
  return false;
}

TEST(FullDiskTest, CheckpointThatDoesNotFitKeepsTheLastGoodOne) {
  ScratchDir scratch;
  SmallDisk disk(scratch / "disk");
  if (!disk.mounted)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.reason << ")";
  fs::path run = disk.path / "run";
  // A network large enough that its checkpoint is far bigger than the
  // metrics and config files written before it.
  PpoConfig config = tinyPpo();
  config.network.hidden = {256, 256};
  config.iterations = 1;
  CounterEnv env;
  ASSERT_TRUE(train({config}, env, toyBenchmarks(), run.string()).ok());
  std::string goodCheckpoint = contents(run / "checkpoint.pt");
  ASSERT_GT(goodCheckpoint.size(), 200000u);

  disk.fill(disk.path / "filler", goodCheckpoint.size() / 2);
  config.iterations = 3;
  TrainOptions resume;
  resume.resume = true;
  Status full = train({config}, env, toyBenchmarks(), run.string(), resume);
  ASSERT_FALSE(full.ok());
  const std::string &message = full.error().message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("checkpoint.pt"), std::string::npos) << message;
  EXPECT_NE(message.find("No space left on device"), std::string::npos)
      << message;
  EXPECT_EQ(contents(run / "checkpoint.pt"), goodCheckpoint);
  EXPECT_FALSE(hasTemporaries(run));

  fs::remove(disk.path / "filler");
  Status resumed = train({config}, env, toyBenchmarks(), run.string(), resume);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(metrics[i]["iteration"], i + 1);
}

} // namespace
