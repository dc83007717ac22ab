// The HLO opcode vocabulary: XLA's opcodes with stable indices.
//
// The index of an opcode is its position in RLOPT_HLO_OPCODES, and the
// per-opcode op-count vector (OpCount.h) is laid out in this order: that
// vector is the observation of the graph environment, so a trained policy
// depends on these indices. Rules:
//   - entries are only ever appended, never reordered or removed;
//   - names are XLA's text spellings (HloOpcodeString): `exponential`,
//     `cosine`, `sine`, `log-plus-one`, `count-leading-zeros`, `opt-barrier`,
//     `topk`, ... exactly as they appear in HLO text.
// The 136 entries are XLA's HLO_OPCODE_LIST (xla/hlo/ir/hlo_opcode.h) in its
// order; opcodes XLA adds later go at the end. An opcode outside the
// vocabulary is a parse error, as it is in XLA's own parser.
#ifndef RLOPT_GRAPH_OPCODE_H
#define RLOPT_GRAPH_OPCODE_H

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace rlopt::graph {

/// Operand count of an opcode whose operand list has no fixed length.
constexpr int kVariadic = -1;

// X(Enumerator, "text name", arity)
#define RLOPT_HLO_OPCODES(X)                                                   \
  X(Abs, "abs", 1)                                                             \
  X(Acos, "acos", 1)                                                           \
  X(Acosh, "acosh", 1)                                                         \
  X(Add, "add", 2)                                                             \
  X(AddDependency, "add-dependency", 2)                                        \
  X(AfterAll, "after-all", kVariadic)                                          \
  X(AllGather, "all-gather", kVariadic)                                        \
  X(AllGatherDone, "all-gather-done", 1)                                       \
  X(AllGatherStart, "all-gather-start", kVariadic)                             \
  X(AllReduce, "all-reduce", kVariadic)                                        \
  X(AllReduceDone, "all-reduce-done", 1)                                       \
  X(AllReduceStart, "all-reduce-start", kVariadic)                             \
  X(AllToAll, "all-to-all", kVariadic)                                         \
  X(And, "and", 2)                                                             \
  X(Asin, "asin", 1)                                                           \
  X(Asinh, "asinh", 1)                                                         \
  X(AsyncDone, "async-done", 1)                                                \
  X(AsyncStart, "async-start", kVariadic)                                      \
  X(AsyncUpdate, "async-update", kVariadic)                                    \
  X(Atan, "atan", 1)                                                           \
  X(Atan2, "atan2", 2)                                                         \
  X(Atanh, "atanh", 1)                                                         \
  X(BatchNormGrad, "batch-norm-grad", 5)                                       \
  X(BatchNormInference, "batch-norm-inference", 5)                             \
  X(BatchNormTraining, "batch-norm-training", 3)                               \
  X(Bitcast, "bitcast", 1)                                                     \
  X(BitcastConvert, "bitcast-convert", 1)                                      \
  X(Broadcast, "broadcast", 1)                                                 \
  X(Call, "call", kVariadic)                                                   \
  X(Cbrt, "cbrt", 1)                                                           \
  X(Ceil, "ceil", 1)                                                           \
  X(Cholesky, "cholesky", 1)                                                   \
  X(Clamp, "clamp", 3)                                                         \
  X(Clz, "count-leading-zeros", 1)                                             \
  X(CollectiveBroadcast, "collective-broadcast", kVariadic)                    \
  X(CollectivePermute, "collective-permute", kVariadic)                        \
  X(CollectivePermuteDone, "collective-permute-done", 1)                       \
  X(CollectivePermuteStart, "collective-permute-start", kVariadic)             \
  X(CollectiveReduce, "collective-reduce", kVariadic)                          \
  X(Compare, "compare", 2)                                                     \
  X(Complex, "complex", 2)                                                     \
  X(Concatenate, "concatenate", kVariadic)                                     \
  X(Conditional, "conditional", kVariadic)                                     \
  X(Constant, "constant", 0)                                                   \
  X(Convert, "convert", 1)                                                     \
  X(Convolution, "convolution", kVariadic)                                     \
  X(Copy, "copy", 1)                                                           \
  X(CopyDone, "copy-done", 1)                                                  \
  X(CopyStart, "copy-start", 1)                                                \
  X(Cos, "cosine", 1)                                                          \
  X(Cosh, "cosh", 1)                                                           \
  X(CustomCall, "custom-call", kVariadic)                                      \
  X(Divide, "divide", 2)                                                       \
  X(Domain, "domain", 1)                                                       \
  X(Dot, "dot", 2)                                                             \
  X(DynamicReshape, "dynamic-reshape", kVariadic)                              \
  X(DynamicSlice, "dynamic-slice", kVariadic)                                  \
  X(DynamicUpdateSlice, "dynamic-update-slice", kVariadic)                     \
  X(Erf, "erf", 1)                                                             \
  X(Exp, "exponential", 1)                                                     \
  X(Expm1, "exponential-minus-one", 1)                                         \
  X(Fft, "fft", 1)                                                             \
  X(Floor, "floor", 1)                                                         \
  X(Fusion, "fusion", kVariadic)                                               \
  X(Gather, "gather", 2)                                                       \
  X(GetDimensionSize, "get-dimension-size", 1)                                 \
  X(GetTupleElement, "get-tuple-element", 1)                                   \
  X(Imag, "imag", 1)                                                           \
  X(Infeed, "infeed", 1)                                                       \
  X(Iota, "iota", 0)                                                           \
  X(IsFinite, "is-finite", 1)                                                  \
  X(Log, "log", 1)                                                             \
  X(Log1p, "log-plus-one", 1)                                                  \
  X(Logistic, "logistic", 1)                                                   \
  X(Map, "map", kVariadic)                                                     \
  X(Maximum, "maximum", 2)                                                     \
  X(Minimum, "minimum", 2)                                                     \
  X(Mulhi, "mulhi", 2)                                                         \
  X(Multiply, "multiply", 2)                                                   \
  X(Negate, "negate", 1)                                                       \
  X(Not, "not", 1)                                                             \
  X(OptimizationBarrier, "opt-barrier", 1)                                     \
  X(Or, "or", 2)                                                               \
  X(Outfeed, "outfeed", 2)                                                     \
  X(Pad, "pad", 2)                                                             \
  X(Parameter, "parameter", 0)                                                 \
  X(PartitionId, "partition-id", 0)                                            \
  X(PopulationCount, "popcnt", 1)                                              \
  X(Power, "power", 2)                                                         \
  X(RaggedAllToAll, "ragged-all-to-all", 6)                                    \
  X(RaggedDot, "ragged-dot", 3)                                                \
  X(Real, "real", 1)                                                           \
  X(Recv, "recv", 1)                                                           \
  X(RecvDone, "recv-done", 1)                                                  \
  X(Reduce, "reduce", kVariadic)                                               \
  X(ReducePrecision, "reduce-precision", 1)                                    \
  X(ReduceScatter, "reduce-scatter", kVariadic)                                \
  X(ReduceWindow, "reduce-window", kVariadic)                                  \
  X(Remainder, "remainder", 2)                                                 \
  X(ReplicaId, "replica-id", 0)                                                \
  X(Reshape, "reshape", 1)                                                     \
  X(Reverse, "reverse", 1)                                                     \
  X(Rng, "rng", kVariadic)                                                     \
  X(RngBitGenerator, "rng-bit-generator", 1)                                   \
  X(RngGetAndUpdateState, "rng-get-and-update-state", 0)                       \
  X(RoundNearestAfz, "round-nearest-afz", 1)                                   \
  X(RoundNearestEven, "round-nearest-even", 1)                                 \
  X(Rsqrt, "rsqrt", 1)                                                         \
  X(ScaledDot, "scaled-dot", 4)                                                \
  X(Scan, "scan", kVariadic)                                                   \
  X(Scatter, "scatter", kVariadic)                                             \
  X(Select, "select", 3)                                                       \
  X(SelectAndScatter, "select-and-scatter", 3)                                 \
  X(Send, "send", 2)                                                           \
  X(SendDone, "send-done", 1)                                                  \
  X(SetDimensionSize, "set-dimension-size", 2)                                 \
  X(ShiftLeft, "shift-left", 2)                                                \
  X(ShiftRightArithmetic, "shift-right-arithmetic", 2)                         \
  X(ShiftRightLogical, "shift-right-logical", 2)                               \
  X(Shuffle, "shuffle", 1)                                                     \
  X(Sign, "sign", 1)                                                           \
  X(Sin, "sine", 1)                                                            \
  X(Sinh, "sinh", 1)                                                           \
  X(Slice, "slice", 1)                                                         \
  X(Sort, "sort", kVariadic)                                                   \
  X(Sqrt, "sqrt", 1)                                                           \
  X(StochasticConvert, "stochastic-convert", 2)                                \
  X(Subtract, "subtract", 2)                                                   \
  X(Tan, "tan", 1)                                                             \
  X(Tanh, "tanh", 1)                                                           \
  X(TopK, "topk", 1)                                                           \
  X(Transpose, "transpose", 1)                                                 \
  X(TriangularSolve, "triangular-solve", 2)                                    \
  X(Tuple, "tuple", kVariadic)                                                 \
  X(While, "while", 1)                                                         \
  X(Xor, "xor", 2)

enum class Opcode : unsigned char {
#define RLOPT_HLO_OPCODE_ENUM(Enumerator, Name, Arity) Enumerator,
  RLOPT_HLO_OPCODES(RLOPT_HLO_OPCODE_ENUM)
#undef RLOPT_HLO_OPCODE_ENUM
};

/// Number of opcodes in the vocabulary (the op-count vector's length).
constexpr size_t kNumOpcodes = 0
#define RLOPT_HLO_OPCODE_COUNT(Enumerator, Name, Arity) +1
    RLOPT_HLO_OPCODES(RLOPT_HLO_OPCODE_COUNT)
#undef RLOPT_HLO_OPCODE_COUNT
    ;

/// The opcode's stable index in the vocabulary.
constexpr size_t opcodeIndex(Opcode opcode) {
  return static_cast<size_t>(opcode);
}

/// XLA's text spelling, e.g. "get-tuple-element".
std::string_view opcodeName(Opcode opcode);

/// The opcode spelled `name`, or nothing if XLA has no such opcode.
std::optional<Opcode> parseOpcode(std::string_view name);

/// Operand count the opcode requires, or kVariadic.
int opcodeArity(Opcode opcode);

/// Every opcode name in index order: the op-count vector's labels.
const std::vector<std::string_view> &opcodeVocabulary();

/// An elementwise arithmetic or bitwise opcode of two operands whose result
/// has the operands' element type (add, shift-left, atan2, ...); compare and
/// complex, whose result type differs, are not.
bool isBinaryElementwise(Opcode opcode);

} // namespace rlopt::graph

#endif
