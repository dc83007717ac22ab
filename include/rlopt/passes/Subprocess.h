#ifndef RLOPT_PASSES_SUBPROCESS_H
#define RLOPT_PASSES_SUBPROCESS_H

#include "rlopt/core/Result.h"

#include <string>
#include <vector>

namespace rlopt::passes {

struct ProcessResult {
  int exitCode = 0;
  std::string out, err;
  double seconds = 0; ///< wall time from spawn to exit
};

/// Runs `program` with `args` (args[0] is not the program), capturing stdout
/// and stderr. A missing program, a crash or a timeout is an Error.
Result<ProcessResult> runProcess(const std::string &program,
                                 const std::vector<std::string> &args,
                                 unsigned timeoutSeconds = 60);

/// A scratch directory removed with everything in it on destruction.
class TempDir {
public:
  static Result<TempDir> create(const std::string &prefix);
  TempDir(TempDir &&other) noexcept : dir(std::move(other.dir)) {
    other.dir.clear();
  }
  TempDir(const TempDir &) = delete;
  ~TempDir();
  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  explicit TempDir(std::string dir) : dir(std::move(dir)) {}
  std::string dir;
};

} // namespace rlopt::passes

#endif
