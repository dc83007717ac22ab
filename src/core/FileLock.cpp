#include "rlopt/core/FileLock.h"

#include "rlopt/core/Worker.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace rlopt {

namespace {

/// The pid the holder wrote, or "another process" when it cannot be read
/// (the holder may be between taking the lock and writing its pid).
std::string holderOf(int fd) {
  char text[32] = {};
  ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
  if (n <= 0)
    return "another process";
  std::string pid(text, size_t(n));
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
    pid.pop_back();
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos)
    return "another process";
  return "process " + pid;
}

} // namespace

Result<FileLock> FileLock::acquire(const std::string &path,
                                   const std::string &what) {
  // O_CLOEXEC: a child that execs must not keep the lock past its parent.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return makeError(path +
                     ": cannot open the lock file: " + std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    std::string message =
        error == EWOULDBLOCK
            ? what + " is in use by " + holderOf(fd)
            : path + ": cannot lock: " + std::string(std::strerror(error));
    close(fd);
    return makeError(message);
  }
  // A forked worker shares the lock; one that outlived a killed parent
  // would keep the directory locked, so workers close it.
  closeInWorkers(fd);
  std::string pid = std::to_string(getpid()) + "\n";
  // The pid only improves the message another process gives; a failed write
  // does not weaken the lock.
  if (ftruncate(fd, 0) == 0)
    (void)!pwrite(fd, pid.data(), pid.size(), 0);
  return FileLock(fd);
}

FileLock &FileLock::operator=(FileLock &&other) noexcept {
  if (this != &other) {
    release();
    fd = other.fd;
    other.fd = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() {
  if (fd < 0)
    return;
  stopClosingInWorkers(fd);
  close(fd);
  fd = -1;
}

} // namespace rlopt
