// Dense linear algebra for the interpreter: the triangular-solve and
// cholesky opcodes and the LAPACK-style custom calls JAX emits (potrf,
// getrf, geqrf, orgqr, trsm). Matrices are the logical row-major matrices
// of the values; the custom calls' column-major layouts only make the
// library see those same matrices.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERLINALG_H
#define RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERLINALG_H

#include "InterpreterInternal.h"

#include <string_view>

namespace rlopt::graph::interp {

/// Evaluates the linear-algebra custom call `target`, or nothing when the
/// target is not one of them.
std::optional<Result<RuntimeValue>>
evaluateLinalgCustomCall(std::string_view target,
                         const Instruction &instruction, Operands &operands);

} // namespace rlopt::graph::interp

#endif
