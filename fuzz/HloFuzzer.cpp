// Any text through the HLO parser, then the verifier and the cost analysis
// for what parses.
#include "FuzzInput.h"

#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/Parser.h"
#include "rlopt/graph/Printer.h"
#include "rlopt/graph/Verifier.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace rlopt::graph;
  auto module = parseModule(rlopt::fuzz::asText(data, size), "fuzz.hlo");
  if (!module || !verifyModule(*module))
    return 0;
  (void)analyzeCost(*module);
  // What prints parses again.
  if (!parseModule(printModule(*module), "printed.hlo"))
    std::abort();
  return 0;
}
