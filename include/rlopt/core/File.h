#ifndef RLOPT_CORE_FILE_H
#define RLOPT_CORE_FILE_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt {

/// Writes `text` to `path` atomically (temporary file + rename), so a failed
/// run never leaves a half-written file.
Status writeFileAtomically(const std::string &path, const std::string &text);

} // namespace rlopt

#endif
