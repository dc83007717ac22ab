#ifndef RLOPT_TOOLS_COMMON_H
#define RLOPT_TOOLS_COMMON_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Program.h"

#include <string>

namespace rlopt::tool {

/// Writes `text` to `path` atomically (temporary file + rename), so a failed
/// run never leaves a half-written file.
Status writeFileAtomically(const std::string &path, const std::string &text);

} // namespace rlopt::tool

#endif
