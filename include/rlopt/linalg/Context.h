#ifndef RLOPT_LINALG_CONTEXT_H
#define RLOPT_LINALG_CONTEXT_H

#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace rlopt::linalg {

/// An MLIRContext with every dialect, interface model and translation rlopt
/// needs. Multithreading is disabled: the measurement worker forks from this
/// process, and forking is only safe without thread pools.
std::unique_ptr<mlir::MLIRContext> createContext();

} // namespace rlopt::linalg

#endif
