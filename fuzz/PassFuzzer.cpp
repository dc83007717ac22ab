// A module that parses and verifies, through every graph pass in action
// order: a pass may refuse with an error, but one that succeeds leaves a
// module that verifies and prints to text that parses again, which is what
// the graph environment relies on at every step.
#include "FuzzInput.h"

#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/Module.h"
#include "rlopt/graph/Parser.h"
#include "rlopt/graph/Printer.h"
#include "rlopt/graph/Verifier.h"

#include <cstdio>
#include <cstdlib>

namespace {

/// Constant folding materializes what it folds, so arrays of millions of
/// elements would measure the allocator, not the passes.
bool small(const rlopt::graph::Module &module) {
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->shape().elementCountRecursive() > (1 << 16))
        return false;
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace rlopt::graph;
  auto module = parseModule(rlopt::fuzz::asText(data, size), "fuzz.hlo");
  if (!module || !verifyModule(*module) || !small(*module))
    return 0;
  for (const GraphPass &pass : graphPasses()) {
    auto changed = pass.run(*module);
    if (!changed)
      return 0;
    if (rlopt::Status valid = verifyModule(*module); !valid) {
      std::fprintf(stderr, "%s left an invalid module: %s\n", pass.name.c_str(),
                   valid.error().message.c_str());
      std::abort();
    }
  }
  if (!parseModule(printModule(*module), "printed.hlo"))
    std::abort();
  return 0;
}
