// Export of HLO computations to MLIR's TOSA dialect, as MLIR 19 text.
//
// The export exists to cross-check rlopt's graph passes against a real
// compiler: a graph is exported, MLIR's own passes (`cse`,
// `remove-dead-values`, `canonicalize`, `tosa-layerwise-constant-fold`) run
// on it, and their op-count reduction is compared with rlopt's on the same
// HLO. So the export maps each HLO instruction to exactly one counted TOSA
// op, the one that produces its value. Some instructions need more ops than
// that (a broadcast that adds dimensions reshapes before it tiles, a
// transpose takes its permutation as a constant, a reduce keeps the reduced
// axis); those extra ops carry the unit attribute `rlopt.helper` and are
// not counted. The attribute also keeps MLIR's CSE from merging a helper
// with a counted op, since CSE compares attributes.
//
// Mapping (HLO -> TOSA): parameter -> function argument; constant with
// known values -> tosa.const; add, subtract, multiply, maximum, minimum,
// negate, abs, exponential, log, tanh, rsqrt, select, copy (identity), and,
// or, xor, not -> their elementwise TOSA ops; divide -> reciprocal + mul
// (floats) or int_div (s32); sqrt -> pow by 0.5; power, floor, ceil,
// logistic -> pow, floor, ceil, sigmoid; compare -> equal, greater,
// greater_equal (LT and LE swap the operands, NE adds logical_not); convert
// -> cast; broadcast -> reshape and/or tile (TOSA broadcasts only between
// equal ranks); reshape -> reshape; transpose -> transpose with a constant
// permutation; slice with stride 1 -> slice; concatenate -> concat; reverse
// -> reverse, one axis at a time; reduce over one axis with an add, multiply,
// maximum or minimum reducer -> reduce_sum/prod/max/min, then reshape and
// combine with the init value; a root tuple -> the function's results. Element
// types: pred, s8, s16, s32, s64, f16, bf16, f32 (the ones TOSA's profiles
// allow).
#ifndef RLOPT_GRAPH_TOSAEXPORT_H
#define RLOPT_GRAPH_TOSAEXPORT_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rlopt::graph {

/// One exported computation.
struct TosaFunction {
  /// One `func.func` in MLIR 19's TOSA syntax, accepted by mlir-opt-19.
  std::string text;
  /// Counted ops: one per exported instruction (countTosaOps of `text`).
  int64_t opCount = 0;
  /// Ops marked `rlopt.helper`.
  int64_t helperCount = 0;
  int64_t argumentCount = 0;
  int64_t resultCount = 0;
};

/// The TOSA tensor type of an array shape (`tensor<2x3xf32>`, `tensor<i1>`),
/// or nothing for tuples, dynamic or empty dimensions and element types TOSA
/// does not allow.
std::optional<std::string> tosaTensorType(const Shape &shape);

/// The `dense<...> : tensor<...>` attribute of a constant with known values:
/// a splat when every element is equal, nested brackets otherwise;
/// infinities and NaN as bit patterns.
Result<std::string> tosaDenseAttribute(const Instruction &constant);

/// Whether `instruction` exports on its own (as a parameter, constant or
/// op; a tuple exports only as the root). The Error names the instruction,
/// its opcode and the reason.
Status checkTosaSupport(const Instruction &instruction);

/// Exports `computation` as `func.func @functionName`; fails on the first
/// instruction checkTosaSupport rejects, or when a called computation is
/// anything but a simple reducer.
Result<TosaFunction> exportTosa(const Computation &computation,
                                std::string_view functionName = "main");
/// Exports the module's entry computation.
Result<TosaFunction> exportTosa(const Module &module);

/// The largest piece of the entry that exports, as a module of its own.
///
/// The piece is chosen so that real graphs with unsupported instructions
/// still give something to check: the instructions checkTosaSupport accepts
/// are grouped into connected components, two being connected when one is
/// an operand of the other or both read the same parameter (unsupported
/// instructions separate components). The component with the most
/// instructions other than parameters wins; ties go to the one that starts
/// first in topological order. In the new module its inputs (parameters, and
/// values of instructions outside it) become parameters in order of first
/// use; the values used outside it, or by the root, become its root (a
/// tuple unless there is exactly one). Values unused in the original stay
/// unused, so dead code stays dead. Reducers are copied along. Layouts are
/// dropped: TOSA tensors have none, so instructions that differ only in
/// layout are one op there, and rlopt's layout-sensitive CSE should see them
/// as such too.
Result<Module> extractTosaSubgraph(const Module &module);

/// extractTosaSubgraph, then exportTosa.
Result<TosaFunction> exportTosaSubgraph(const Module &module);

/// The HLO side of the count mapping: the computation's instructions except
/// parameters and a tuple root, i.e. the counted ops its export would have.
int64_t countTosaComparableOps(const Computation &computation);
/// countTosaComparableOps of the entry.
int64_t countTosaComparableOps(const Module &module);

/// The MLIR side: ops with results in MLIR text (pretty or generic form,
/// one op per line as mlir-opt prints), except those marked `rlopt.helper`.
/// func.return has no result and is not counted.
int64_t countTosaOps(std::string_view mlirText);

} // namespace rlopt::graph

#endif
