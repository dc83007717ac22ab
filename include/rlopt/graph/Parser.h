// HLO text -> Module.
#ifndef RLOPT_GRAPH_PARSER_H
#define RLOPT_GRAPH_PARSER_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

#include <string>
#include <string_view>

namespace rlopt::graph {

/// Parses an HLO module in either of XLA's text styles (see TextStyle).
/// Malformed text gives an Error `source:line:col: message`, never a crash.
/// Accepted as XLA writes it: `/*...*/` and `// ...` comments anywhere,
/// operands before or after their definition, ROOT defaulting to the last
/// instruction, no `HloModule` line (the module takes the entry
/// computation's name). Rejected, as XLA rejects them: unknown opcodes, unknown
/// operands or computations, duplicate names, a missing ENTRY, operand
/// counts an opcode cannot take, and the structural problems verifyModule
/// finds. The parsed module passes verifyModule.
Result<Module> parseModule(std::string_view text,
                           std::string_view sourceName = "<text>");

/// Reads and parses `path`; errors are prefixed with the path.
Result<Module> parseModuleFile(const std::string &path);

} // namespace rlopt::graph

#endif
