// Helpers shared by the graph passes: constant matching, literal and
// attribute text, small builders. Opcode classes are traits in Opcode.h.
#ifndef RLOPT_SRC_GRAPH_PASSES_PASSSUPPORT_H
#define RLOPT_SRC_GRAPH_PASSES_PASSSUPPORT_H

#include "rlopt/graph/GraphEdit.h"

#include <optional>
#include <string>
#include <vector>

namespace rlopt::graph {

/// Every value of `from` is a value of `to` (pred -> anything, narrow
/// integers widened, bf16/f16 -> f32/f64, f32 -> f64).
bool holdsEveryValue(ElementType from, ElementType to);

/// An array whose dimensions are all static.
bool isStaticArray(const Shape &shape);

/// The value every element of `instruction` has, if it is a constant with
/// known values all equal, or a broadcast of one; integers and predicates
/// as exact doubles.
std::optional<double> uniformConstantValue(const Instruction *instruction);
/// True if `instruction` is uniformly `value`.
bool isUniformConstant(const Instruction *instruction, double value);
/// A constant instruction with known values (never an elided one).
bool isKnownConstant(const Instruction *instruction);
/// The row-major values of an integer array that is a known constant or a
/// broadcast of a known scalar constant.
std::optional<std::vector<int64_t>>
knownIntegerValues(const Instruction *instruction);

/// `value` as HLO literal text for `type`: `true`, `-3`, `0.5`, `-inf`, ...
std::string formatScalar(ElementType type, double value);
/// Row-major values as nested-brace literal text for `shape`.
std::string formatLiteral(const Shape &shape,
                          const std::vector<double> &values);
/// A literal's values as doubles (integers exactly up to 2^53).
std::vector<double> literalValues(const Literal &literal);

/// `{1,2,3}`.
std::string formatIntList(const std::vector<int64_t> &values);
/// The integer list attribute `key`: empty when absent, nullopt when it
/// does not parse.
std::optional<std::vector<int64_t>> intListAttribute(const Instruction &op,
                                                     const char *key);
/// The integer attribute `key`, `fallback` when absent, nullopt when it
/// does not parse.
std::optional<int64_t> intAttribute(const Instruction &op, const char *key,
                                    int64_t fallback);
/// `{[0:2], [1:4:2]}`.
std::string formatSlice(const std::vector<SliceDim> &slice);
/// `0_1x2_3` (with `_interior` when non-zero).
std::string formatPadding(const std::vector<PadDim> &padding);
/// `b01f_01io->b01f`.
std::string formatConvDims(const ConvDims &dims);

/// A scalar constant of `type`.
Instruction *addScalar(ModuleEditor &editor, Computation &computation,
                       ElementType type, double value);
/// `value` broadcast to `shape` (just the scalar for a rank-0 shape).
Instruction *addFilled(ModuleEditor &editor, Computation &computation,
                       const Shape &shape, double value);
/// broadcast(operand) into `shape` with operand dimension i going to
/// dims[i].
Instruction *addBroadcast(ModuleEditor &editor, Computation &computation,
                          Instruction *operand, const Shape &shape,
                          const std::vector<int64_t> &dims);
Instruction *addReshape(ModuleEditor &editor, Computation &computation,
                        Instruction *operand, std::vector<int64_t> dims);
Instruction *addTranspose(ModuleEditor &editor, Computation &computation,
                          Instruction *operand,
                          const std::vector<int64_t> &permutation);
Instruction *addConvert(ModuleEditor &editor, Computation &computation,
                        Instruction *operand, ElementType type);
Instruction *addBinary(ModuleEditor &editor, Computation &computation,
                       Opcode opcode, Instruction *lhs, Instruction *rhs);
Instruction *addUnary(ModuleEditor &editor, Computation &computation,
                      Opcode opcode, Instruction *operand);
Instruction *addCompare(ModuleEditor &editor, Computation &computation,
                        Instruction *lhs, Instruction *rhs,
                        ComparisonDirection direction);
Instruction *addSlice(ModuleEditor &editor, Computation &computation,
                      Instruction *operand, const std::vector<SliceDim> &slice);

/// A computation `(a, b) -> a op b` over scalars of `type`, shared by every
/// caller of one pass run.
Computation *scalarReducer(ModuleEditor &editor, Opcode opcode,
                           ElementType type);

/// Whether a gather's or scatter's `indices` hold exactly one start vector
/// (every dimension but `vectorDim` has size 1) whose components map
/// through `toOperandDims` to distinct dimensions of a rank-`operandRank`
/// operand.
bool isSingleWindow(const Shape &indices, int64_t vectorDim,
                    const std::vector<int64_t> &toOperandDims,
                    int64_t operandRank);
/// The start of that one window as a scalar per operand dimension: the
/// index vector's components (constants when the indices are known, sliced
/// out otherwise), zero for dimensions the vector does not name.
std::vector<Instruction *>
addWindowStarts(ModuleEditor &editor, Computation &computation,
                Instruction *indices, int64_t vectorDim,
                const std::vector<int64_t> &toOperandDims, int64_t operandRank);

/// The dims of `shape` after removing dimension indices in `removed`.
std::vector<int64_t> dimsWithout(const std::vector<int64_t> &dims,
                                 const std::vector<int64_t> &removed);
int64_t product(const std::vector<int64_t> &dims);
bool isIdentityPermutation(const std::vector<int64_t> &permutation);

/// Whether the computation is `(p0, p1) -> p0 op p1` (either operand order)
/// over scalars; returns op.
std::optional<Opcode> binaryReducerOpcode(const Computation *computation);

} // namespace rlopt::graph

#endif
