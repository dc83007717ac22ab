#ifndef RLOPT_CORE_FILE_H
#define RLOPT_CORE_FILE_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt {

/// Writes `text` to `path` atomically (temporary file + rename), so a failed
/// run never leaves a half-written file.
Status writeFileAtomically(const std::string &path, const std::string &text);

/// The temporary file this process writes before renaming it to `path`:
/// `path.tmp.<pid>`.
std::string temporaryPathFor(const std::string &path);

/// Removes the temporary files of `path` left by processes that are gone (a
/// run killed while saving); those of other live processes are kept. Call it
/// before this process writes `path`: a file with this process's pid is
/// taken as left by an earlier process with the same pid.
void removeLeftoverTemporaries(const std::string &path);

} // namespace rlopt

#endif
