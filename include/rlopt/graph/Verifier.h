// Structural checks of a Module: what analyses and passes rely on.
#ifndef RLOPT_GRAPH_VERIFIER_H
#define RLOPT_GRAPH_VERIFIER_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

#include <optional>
#include <string>

namespace rlopt::graph {

/// A problem and where it is; `instruction` is null for a problem of a
/// whole computation, both are null for one of the module.
struct VerifyProblem {
  const Computation *computation = nullptr;
  const Instruction *instruction = nullptr;
  std::string message;
};

/// The first problem, checking in order: an entry exists; every
/// computation has instructions and a root of its own; parameter numbers are
/// 0..n-1 without repeats; operand counts match the opcode; the
/// computations an opcode needs are there (`to_apply` of reduce, `body` and
/// `condition` of while, ...); get-tuple-element, compare, iota and
/// convolution carry their attributes; get-tuple-element indexes in range
/// with the element's shape; dot and convolution dimension numbers fit the
/// operand ranks; operands form no cycle; computations call no cycle. Then
/// shapes, as XLA's shape inference has them: every instruction's declared
/// shape is the one its operands and attributes give, attributes are in
/// range, and called computations have the signature their caller needs.
std::optional<VerifyProblem> findProblem(const Module &module);

/// Error "computation 'c', instruction 'x': message" for the first problem.
Status verifyModule(const Module &module);

} // namespace rlopt::graph

#endif
