#include "rlopt/core/File.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace rlopt {

namespace {

std::string lastSystemError() { return std::strerror(errno); }

/// Closes a descriptor on scope exit.
class Descriptor {
public:
  explicit Descriptor(int fd) : fd(fd) {}
  ~Descriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  int get() const { return fd; }
  /// Closes now; close() is where some file systems report a full disk.
  bool close() {
    int closing = fd;
    fd = -1;
    return ::close(closing) == 0;
  }

private:
  int fd;
};

const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  return "a socket";
}

Status writeAll(int fd, const std::string &text) {
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return makeError(n < 0 ? lastSystemError() : "short write");
    written += static_cast<size_t>(n);
  }
  return Status::success();
}

mode_t newFileMode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

} // namespace

Result<std::string> readRegularFile(const std::string &path, size_t maxBytes) {
  // Non-blocking, so that opening a FIFO returns at once and fstat can
  // refuse it; the flag does not change how a regular file reads.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0)
    return makeError(path + ": cannot read file" +
                     (errno == ENOENT ? "" : " (" + lastSystemError() + ")"));
  struct stat info;
  if (::fstat(fd.get(), &info) != 0)
    return makeError(path + ": cannot read file (" + lastSystemError() + ")");
  if (!S_ISREG(info.st_mode))
    return makeError(path + ": cannot read file: " + kindOf(info.st_mode) +
                     ", not a regular file");
  if (static_cast<uint64_t>(info.st_size) > maxBytes)
    return makeError(path + ": larger than " + std::to_string(maxBytes >> 20) +
                     " MiB; refusing to read it");
  std::string text;
  text.reserve(static_cast<size_t>(info.st_size));
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd.get(), chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return makeError(path + ": read failed (" + lastSystemError() + ")");
    if (n == 0)
      return text;
    // A file that grows while it is read is held to the same cap.
    if (text.size() + static_cast<size_t>(n) > maxBytes)
      return makeError(path + ": larger than " +
                       std::to_string(maxBytes >> 20) +
                       " MiB; refusing to read it");
    text.append(chunk, static_cast<size_t>(n));
  }
}

std::string temporaryPathFor(const std::string &path) {
  return path + ".tmp." + std::to_string(getpid());
}

void removeLeftoverTemporaries(const std::string &path) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  std::vector<fs::path> leftovers;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    char *rest = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &rest, 10);
    // `<pid>` alone (older versions) or `<pid>.<random suffix>`.
    bool suffixOk = *rest == '\0' || (*rest == '.' && rest[1] != '\0');
    if (pid <= 0 || pid > INT_MAX || !suffixOk)
      continue;
    // This process has written nothing yet: a file with its pid is from an
    // earlier process that had the same pid.
    bool gone = pid == getpid() ||
                (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
    if (gone)
      leftovers.push_back(it->path());
  }
  for (const fs::path &path : leftovers)
    fs::remove(path, ec);
}

Status writeFileAtomically(const std::string &path, const std::string &text) {
  // A device or FIFO (`-o /dev/null`, `/dev/stdout`) is written to as it
  // is: renaming a file over it would replace the device itself.
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      !S_ISDIR(existing.st_mode)) {
    Descriptor fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.get() < 0)
      return makeError(path + ": cannot write (" + lastSystemError() + ")");
    if (Status s = writeAll(fd.get(), text); !s)
      return makeError(path + ": write failed (" + s.error().message + ")");
    return Status::success();
  }
  // mkostemp creates the file with O_EXCL: a name someone planted, symlink
  // or not, makes it pick another name instead of writing through it.
  std::string temporary = temporaryPathFor(path) + ".XXXXXX";
  Descriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (fd.get() < 0)
    return makeError(path + ": cannot write (" + lastSystemError() + ")");
  auto fail = [&](const std::string &what) -> Status {
    std::string reason = lastSystemError();
    ::unlink(temporary.c_str());
    return makeError(path + ": " + what + " (" + reason + ")");
  };
  if (::fchmod(fd.get(), newFileMode()) != 0)
    return fail("cannot write");
  if (Status s = writeAll(fd.get(), text); !s) {
    ::unlink(temporary.c_str());
    return makeError(path + ": write failed (" + s.error().message + ")");
  }
  // Renaming unflushed data could leave an empty file after a crash.
  if (::fsync(fd.get()) != 0)
    return fail("write failed");
  if (!fd.close())
    return fail("write failed");
  if (::rename(temporary.c_str(), path.c_str()) != 0)
    return fail("cannot replace the file");
  return Status::success();
}

} // namespace rlopt
