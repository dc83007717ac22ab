// Data-movement ops (transpose, slice, reverse, pad, concatenate) as strided
// box copies planned from shapes alone. The interpreter applies a plan to
// its doubles and constant folding to exact 64-bit integers, so both move
// elements by one definition of each op.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_DATAMOVEMENT_H
#define RLOPT_SRC_GRAPH_EVALUATOR_DATAMOVEMENT_H

#include "InterpreterIndexing.h"

#include "rlopt/core/Result.h"
#include "rlopt/graph/Instruction.h"

#include <string>
#include <vector>

namespace rlopt::graph::interp {

/// Operand `operand`'s elements from `inBase` with `inStrides` land at
/// `outBase` with `outStrides`, over the box `dims`.
struct BoxCopy {
  size_t operand = 0;
  int64_t inBase = 0, outBase = 0;
  std::vector<int64_t> inStrides, outStrides, dims;
};

struct MovementPlan {
  std::vector<BoxCopy> copies;
  /// Pad: every element no box reaches is operand 1's single element.
  bool padded = false;
  /// A transpose that keeps the order: the result is the operand's elements.
  bool identity = false;
};

/// "{2,3}": dimension lists in error messages.
std::string dimsText(const std::vector<int64_t> &dims);

/// The copies that compute `instruction` from operands of `operandDims`, or
/// a one-line error naming what does not fit.
Result<MovementPlan>
planMovement(const Instruction &instruction,
             const std::vector<std::vector<int64_t>> &operandDims);

/// Carries out `plan` into `out` (the result's row-major elements, already
/// sized) from each operand's row-major elements.
template <typename T>
void applyMovement(const MovementPlan &plan,
                   const std::vector<const T *> &operands,
                   std::vector<T> &out) {
  if (plan.padded)
    std::fill(out.begin(), out.end(), operands[1][0]);
  for (const BoxCopy &box : plan.copies)
    copyBox(operands[box.operand] + box.inBase, box.inStrides,
            out.data() + box.outBase, box.outStrides, box.dims);
}

} // namespace rlopt::graph::interp

#endif
