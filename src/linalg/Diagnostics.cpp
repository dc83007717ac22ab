#include "rlopt/linalg/Diagnostics.h"

#include <algorithm>

namespace rlopt::linalg {

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext *context)
    : handler(context, [this](mlir::Diagnostic &diag) {
        if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
            message.empty()) {
          message = diag.str();
          std::replace(message.begin(), message.end(), '\n', ' ');
        }
        return mlir::success();
      }) {}

} // namespace rlopt::linalg
