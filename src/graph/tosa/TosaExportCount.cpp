// The count mapping between an HLO computation and its TOSA export.
#include "rlopt/graph/TosaExport.h"

namespace rlopt::graph {

int64_t countTosaComparableOps(const Computation &computation) {
  int64_t count = 0;
  for (const auto &instruction : computation.instructions())
    if (instruction->opcode() != Opcode::Parameter)
      ++count;
  // A tuple root becomes the function's results, not an op.
  const Instruction *root = computation.root();
  if (root && root->opcode() == Opcode::Tuple)
    --count;
  return count;
}

int64_t countTosaComparableOps(const Module &module) {
  return module.entry() ? countTosaComparableOps(*module.entry()) : 0;
}

int64_t countTosaOps(std::string_view mlirText) {
  int64_t count = 0;
  size_t start = 0;
  while (start < mlirText.size()) {
    size_t end = mlirText.find('\n', start);
    if (end == std::string_view::npos)
      end = mlirText.size();
    std::string_view line = mlirText.substr(start, end - start);
    start = end + 1;
    size_t first = line.find_first_not_of(" \t");
    // An op with results starts `%name = ` (or `%name:2 = `) in both the
    // pretty and the generic form; block arguments and signatures do not.
    if (first == std::string_view::npos || line[first] != '%' ||
        line.find(" = ", first) == std::string_view::npos)
      continue;
    if (line.find("rlopt.helper") != std::string_view::npos)
      continue;
    ++count;
  }
  return count;
}

} // namespace rlopt::graph
