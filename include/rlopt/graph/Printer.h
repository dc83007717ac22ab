// Module -> HLO text.
#ifndef RLOPT_GRAPH_PRINTER_H
#define RLOPT_GRAPH_PRINTER_H

#include "rlopt/graph/Module.h"

#include <string>

namespace rlopt::graph {

/// The module as HLO text in its own style (the one it was parsed from).
/// Attributes and literals print as written; printing a parsed module and
/// parsing the result gives the same text again.
std::string printModule(const Module &module);
std::string printModule(const Module &module, const TextStyle &style);

/// One instruction line, without indentation or newline.
std::string printInstruction(const Instruction &instruction,
                             const TextStyle &style);

} // namespace rlopt::graph

#endif
