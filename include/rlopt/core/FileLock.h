// An exclusive lock on a file for as long as one process works on what it
// guards (a run directory): a second process that asks gets an error naming
// the holder instead of writing the same files. The kernel drops the lock
// when its holder exits, kill -9 included, so no stale lock is ever left.
#ifndef RLOPT_CORE_FILELOCK_H
#define RLOPT_CORE_FILELOCK_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt {

class FileLock {
public:
  /// Takes the lock on `path` (created if missing) without waiting, and
  /// writes this process's pid into it. Fails when another process holds it:
  /// "`what` is in use by process N".
  static Result<FileLock> acquire(const std::string &path,
                                  const std::string &what);

  FileLock(FileLock &&other) noexcept : fd(other.fd) { other.fd = -1; }
  FileLock &operator=(FileLock &&other) noexcept;
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  ~FileLock();

private:
  explicit FileLock(int fd) : fd(fd) {}
  void release();
  int fd = -1;
};

} // namespace rlopt

#endif
