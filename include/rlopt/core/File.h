#ifndef RLOPT_CORE_FILE_H
#define RLOPT_CORE_FILE_H

#include "rlopt/core/Result.h"

#include <cstddef>
#include <string>

namespace rlopt {

/// Inputs larger than this are refused unless a caller allows more: a
/// program, graph or config of a gigabyte is a mistake, not a workload.
constexpr size_t kMaxInputBytes = size_t(1) << 30;

/// Reads a regular file of at most `maxBytes`. FIFOs, devices and
/// directories are refused before anything is read: a FIFO would block
/// forever and /dev/zero never ends.
Result<std::string> readRegularFile(const std::string &path,
                                    size_t maxBytes = kMaxInputBytes);

/// Writes `text` to `path` atomically: a new temporary file beside `path`
/// (created exclusively, so a planted file or symlink is never followed),
/// flushed to disk, then renamed over `path`. On any failure, a full disk
/// among them, `path` keeps its previous contents and no temporary is left.
Status writeFileAtomically(const std::string &path, const std::string &text);

/// The prefix of the temporary files this process writes beside `path`:
/// `path.tmp.<pid>`, followed by a random suffix.
std::string temporaryPathFor(const std::string &path);

/// Removes the temporary files of `path` left by processes that are gone (a
/// run killed while saving); those of other live processes are kept. Call it
/// before this process writes `path`: a file with this process's pid is
/// taken as left by an earlier process with the same pid.
void removeLeftoverTemporaries(const std::string &path);

} // namespace rlopt

#endif
