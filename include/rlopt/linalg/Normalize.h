#ifndef RLOPT_LINALG_NORMALIZE_H
#define RLOPT_LINALG_NORMALIZE_H

#include "mlir/IR/BuiltinOps.h"

namespace rlopt::linalg {

/// Rewrites a 1 x 1 NCHW convolution over at least 64 output pixels (9 with
/// a stride) into the contraction it is: the input collapsed to N x C x HW (with strides,
/// the pixels read first copied out by a generic of their own), the filter
/// to F x C, a generic matmul over them and the result expanded back. The
/// pixels then form one long loop that vectors divide, where rows of 14 to
/// 56 pixels would leave remainders, the contraction rules of the heuristic
/// apply, and img2col's copy of the image is gone. IREE's preprocessing
/// does the same. A fill that only this convolution reads is recreated at
/// the collapsed shape, so it can still be fused. Returns how many
/// convolutions it rewrote.
unsigned convolutionsAsMatmuls(mlir::ModuleOp module);

} // namespace rlopt::linalg

#endif
