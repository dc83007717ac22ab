#ifndef RLOPT_LINALG_LOWERING_H
#define RLOPT_LINALG_LOWERING_H

#include "rlopt/core/Result.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace rlopt::linalg {

/// The pass pipeline from (transformed) Linalg on tensors to the LLVM
/// dialect: bufferization with identity layouts and results as out-params,
/// deallocation, remaining Linalg to loops, scf.forall to OpenMP, vectors
/// and everything else to LLVM. Results written into an argument are
/// dropped (see LoweredEntry). Usable with `mlir-opt --pass-pipeline`,
/// where arith-expand also turns arith.maximumf and arith.minimumf into
/// compares and selects that lowerToLLVM keeps whole (see expandArith).
std::string loweringPipeline();

/// How the lowered entry function is called: its arguments, then one
/// out-parameter per result, except the results it writes into an
/// argument (destination-passing style), which are that argument's buffer.
struct LoweredEntry {
  /// Per result: the argument it was written into, or -1.
  std::vector<int> resultArgument;
};

/// Rewrites each tensor.pad that pads nothing (`promote`'s copy of a tile)
/// as a copy into a new tensor, which bufferizes without first filling the
/// buffer with the padding value. Part of lowerToLLVM.
void copyTilesThatPadNothing(mlir::ModuleOp module);

/// Marks the entry function for the C interface and runs the pipeline.
Result<LoweredEntry> lowerToLLVM(mlir::ModuleOp module);

} // namespace rlopt::linalg

#endif
