#ifndef RLOPT_LINALG_DIAGNOSTICS_H
#define RLOPT_LINALG_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <string>

namespace rlopt::linalg {

/// While alive, keeps the first MLIR error of `context` as one line instead
/// of letting MLIR print it, so callers can return it as an Error.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  /// The first error, or `fallback` when there was none.
  std::string take(const std::string &fallback) const {
    return message.empty() ? fallback : message;
  }
  bool empty() const { return message.empty(); }

private:
  std::string message;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace rlopt::linalg

#endif
