#ifndef RLOPT_LINALG_LOWERING_H
#define RLOPT_LINALG_LOWERING_H

#include "rlopt/core/Result.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace rlopt::linalg {

/// The pass pipeline from (transformed) Linalg on tensors to the LLVM
/// dialect: bufferization with identity layouts and results as out-params,
/// deallocation, remaining Linalg to loops, scf.forall to OpenMP, vectors
/// and everything else to LLVM. Usable with `mlir-opt --pass-pipeline`.
std::string loweringPipeline();

/// Marks the entry function for the C interface and runs the pipeline.
Status lowerToLLVM(mlir::ModuleOp module);

} // namespace rlopt::linalg

#endif
