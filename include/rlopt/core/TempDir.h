#ifndef RLOPT_CORE_TEMPDIR_H
#define RLOPT_CORE_TEMPDIR_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt {

/// A private scratch directory under $TMPDIR (or /tmp), removed with
/// everything in it on destruction. Its path is only ever passed as an
/// argument, never through a shell, so any characters in $TMPDIR are safe.
class TempDir {
public:
  /// Creates `<$TMPDIR>/<prefix>-XXXXXX`; `prefix` must not contain '/'.
  static Result<TempDir> create(const std::string &prefix);

  TempDir(TempDir &&other) noexcept;
  TempDir &operator=(TempDir &&other) noexcept;
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir();

  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  explicit TempDir(std::string dir) : dir(std::move(dir)) {}
  void remove();

  std::string dir;
};

} // namespace rlopt

#endif
