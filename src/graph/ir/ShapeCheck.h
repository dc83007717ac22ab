// Shape inference for the verifier, after XLA's ShapeInference: the shape
// each opcode gives for its operands and attributes, compared with the
// declared one, and the attributes' ranges. Opcodes whose rules are not
// modelled here (convolution windows, custom-call, collectives) pass.
#ifndef RLOPT_SRC_GRAPH_IR_SHAPECHECK_H
#define RLOPT_SRC_GRAPH_IR_SHAPECHECK_H

#include "rlopt/graph/Instruction.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rlopt::graph {
class Computation;
}

namespace rlopt::graph::detail {

using ShapeProblem = std::optional<std::string>;

/// The parameter shapes of computations, by parameter number, found once
/// per verification: a computation may be called from many sites.
class Signatures {
public:
  const std::vector<const Shape *> &parameters(const Computation &computation);

private:
  std::unordered_map<const Computation *, std::vector<const Shape *>> cache;
};

/// Why the shape or attributes of `instruction` do not fit its operands,
/// or nothing. Operand counts, parameter numbers and the presence of called
/// computations are checked before (Verifier.cpp), so rules may rely on
/// them.
ShapeProblem checkShape(const Instruction &instruction, Signatures &signatures);

/// The rules for opcodes that call computations (reduce, map, sort, call,
/// while, conditional, ...), and for dot: ShapeCheckCalls.cpp.
ShapeProblem checkCallShape(const Instruction &instruction,
                            Signatures &signatures);
ShapeProblem checkDotShape(const Instruction &instruction);

// Shared by both files.
std::string shapeText(const Shape &shape);
std::string listText(const std::vector<int64_t> &values);
/// "shape X differs from the inferred Y" when `declared` is not `inferred`.
ShapeProblem expectShape(const Shape &declared, const Shape &inferred);
/// The integer list attribute `key` ("{}" when absent).
Result<std::vector<int64_t>> intListOf(const Instruction &instruction,
                                       const char *key);
/// How a gather's or scatter's indices are read: the number of indices per
/// point (the size of index_vector_dim, 1 when that is the indices' rank)
/// and the sizes of the other (batch) dimensions.
struct IndexDims {
  int64_t count = 1;
  std::vector<int64_t> batch;
};
/// IndexDims of `indices`, checked: index_vector_dim in range, integers.
Result<IndexDims> indexDimsOf(const Instruction &instruction,
                              const Shape &indices);
/// The first of `dims` outside [0, rank) or repeated, as a message about
/// `what` ("reduce dimension"), or nothing.
ShapeProblem checkDimensionList(const std::vector<int64_t> &dims, int64_t rank,
                                const std::string &what);

} // namespace rlopt::graph::detail

#endif
