// Evaluation of single instructions on constant arrays, for constant
// folding, through the reference interpreter's element semantics
// (InterpreterElements.h): floating-point elements compute in double and
// round to the result type after every op; integer ops are the
// interpreter's own on exact 64-bit values, which the arrays here keep
// (the interpreter holds elements as doubles, so s64 and u64 beyond 2^53
// lose their low bits there); data movement is the interpreter's plan
// (DataMovement.h) applied to exact elements. What XLA defines but
// folding must leave alone (integer division by zero, MIN % -1, oversized
// shifts, negative integer powers, out-of-range converts) is not folded.
#ifndef RLOPT_SRC_GRAPH_PASSES_CONSTANTEVALUATION_H
#define RLOPT_SRC_GRAPH_PASSES_CONSTANTEVALUATION_H

#include "rlopt/graph/Instruction.h"

#include <optional>
#include <string>
#include <vector>

namespace rlopt::graph {

/// A constant array: floating types in `floats`, integers and predicates in
/// `integers` (u64 as its bit pattern).
struct ConstantArray {
  ElementType type = ElementType::F32;
  std::vector<int64_t> dims;
  std::vector<double> floats;
  std::vector<int64_t> integers;

  bool floating() const { return isFloating(type); }
  int64_t size() const;
};

/// Element types the evaluator computes exactly: pred, s8-s64, u8-u64,
/// f16, bf16, f32, f64.
bool isFoldableType(ElementType type);

/// The value of a constant instruction with known values.
std::optional<ConstantArray> constantValue(const Instruction &constant);

/// The value of `instruction` given its operands' values, or nothing for
/// opcodes, attributes and values it does not fold (out-of-range
/// conversions, integer division by zero, oversized shifts, ...).
std::optional<ConstantArray>
evaluateInstruction(const Instruction &instruction,
                    const std::vector<const ConstantArray *> &operands);

/// HLO literal text of `value`.
std::string literalText(const ConstantArray &value);

} // namespace rlopt::graph

#endif
