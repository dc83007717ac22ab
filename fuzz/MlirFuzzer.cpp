// Any text as a Linalg program: parsed and checked (`file:line: what`)
// before anything would run.
#include "FuzzInput.h"

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Program.h"

#include "mlir/IR/MLIRContext.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace rlopt::linalg;
  static std::unique_ptr<mlir::MLIRContext> context = createContext();
  (void)parseProgram(*context, rlopt::fuzz::asText(data, size), "fuzz.mlir");
  return 0;
}
