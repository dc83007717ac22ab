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
//
// Each entry also carries the opcode's traits (elementwise, float-only,
// commutative, ...): the one place a category of opcodes is listed. The
// interpreter, shape checks, cost analysis and passes ask the predicates
// at the end of this file.
#ifndef RLOPT_GRAPH_OPCODE_H
#define RLOPT_GRAPH_OPCODE_H

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace rlopt::graph {

/// Operand count of an opcode whose operand list has no fixed length.
constexpr int kVariadic = -1;

/// What an opcode computes whatever its operands and attributes: a set of
/// the bits below, the last column of RLOPT_HLO_OPCODES.
using OpcodeTraits = unsigned;
constexpr OpcodeTraits kNoTraits = 0;
/// Computed element by element with no attribute beyond compare's
/// direction, so it commutes with data movement: the unary and binary
/// elementwise opcodes below, convert, compare, complex, select and clamp.
constexpr OpcodeTraits kElementwise = 1u << 0;
/// One operand, each result element a function of its element alone (abs,
/// exponential, is-finite, ...); convert, whose result type is the
/// instruction's, is not.
constexpr OpcodeTraits kUnaryElementwise = kElementwise | 1u << 1;
/// Two operands and a result of their element type (add, shift-left,
/// atan2, ...); compare and complex, whose result type differs, are not.
constexpr OpcodeTraits kBinaryElementwise = kElementwise | 1u << 2;
/// Defined on floating-point (and complex) elements only.
constexpr OpcodeTraits kFloatOnly = 1u << 3;
/// Defined on integer and pred elements only.
constexpr OpcodeTraits kBitwise = 1u << 4;
/// `a op b` is `b op a`.
constexpr OpcodeTraits kCommutative = 1u << 5;
/// Priced per element as a transcendental, as XLA's HloCostAnalysis does.
constexpr OpcodeTraits kTranscendental = 1u << 6;

// X(Enumerator, "text name", arity, traits)
#define RLOPT_HLO_OPCODES(X)                                                   \
  X(Abs, "abs", 1, kUnaryElementwise)                                          \
  X(Acos, "acos", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(Acosh, "acosh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)       \
  X(Add, "add", 2, kBinaryElementwise | kCommutative)                          \
  X(AddDependency, "add-dependency", 2, kNoTraits)                             \
  X(AfterAll, "after-all", kVariadic, kNoTraits)                               \
  X(AllGather, "all-gather", kVariadic, kNoTraits)                             \
  X(AllGatherDone, "all-gather-done", 1, kNoTraits)                            \
  X(AllGatherStart, "all-gather-start", kVariadic, kNoTraits)                  \
  X(AllReduce, "all-reduce", kVariadic, kNoTraits)                             \
  X(AllReduceDone, "all-reduce-done", 1, kNoTraits)                            \
  X(AllReduceStart, "all-reduce-start", kVariadic, kNoTraits)                  \
  X(AllToAll, "all-to-all", kVariadic, kNoTraits)                              \
  X(And, "and", 2, kBinaryElementwise | kBitwise | kCommutative)               \
  X(Asin, "asin", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(Asinh, "asinh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)       \
  X(AsyncDone, "async-done", 1, kNoTraits)                                     \
  X(AsyncStart, "async-start", kVariadic, kNoTraits)                           \
  X(AsyncUpdate, "async-update", kVariadic, kNoTraits)                         \
  X(Atan, "atan", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(Atan2, "atan2", 2, kBinaryElementwise | kFloatOnly | kTranscendental)      \
  X(Atanh, "atanh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)       \
  X(BatchNormGrad, "batch-norm-grad", 5, kNoTraits)                            \
  X(BatchNormInference, "batch-norm-inference", 5, kNoTraits)                  \
  X(BatchNormTraining, "batch-norm-training", 3, kNoTraits)                    \
  X(Bitcast, "bitcast", 1, kNoTraits)                                          \
  X(BitcastConvert, "bitcast-convert", 1, kNoTraits)                           \
  X(Broadcast, "broadcast", 1, kNoTraits)                                      \
  X(Call, "call", kVariadic, kNoTraits)                                        \
  X(Cbrt, "cbrt", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(Ceil, "ceil", 1, kUnaryElementwise | kFloatOnly)                           \
  X(Cholesky, "cholesky", 1, kNoTraits)                                        \
  X(Clamp, "clamp", 3, kElementwise)                                           \
  X(Clz, "count-leading-zeros", 1, kUnaryElementwise | kBitwise)               \
  X(CollectiveBroadcast, "collective-broadcast", kVariadic, kNoTraits)         \
  X(CollectivePermute, "collective-permute", kVariadic, kNoTraits)             \
  X(CollectivePermuteDone, "collective-permute-done", 1, kNoTraits)            \
  X(CollectivePermuteStart, "collective-permute-start", kVariadic, kNoTraits)  \
  X(CollectiveReduce, "collective-reduce", kVariadic, kNoTraits)               \
  X(Compare, "compare", 2, kElementwise)                                       \
  X(Complex, "complex", 2, kElementwise)                                       \
  X(Concatenate, "concatenate", kVariadic, kNoTraits)                          \
  X(Conditional, "conditional", kVariadic, kNoTraits)                          \
  X(Constant, "constant", 0, kNoTraits)                                        \
  X(Convert, "convert", 1, kElementwise)                                       \
  X(Convolution, "convolution", kVariadic, kNoTraits)                          \
  X(Copy, "copy", 1, kNoTraits)                                                \
  X(CopyDone, "copy-done", 1, kNoTraits)                                       \
  X(CopyStart, "copy-start", 1, kNoTraits)                                     \
  X(Cos, "cosine", 1, kUnaryElementwise | kFloatOnly | kTranscendental)        \
  X(Cosh, "cosh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(CustomCall, "custom-call", kVariadic, kNoTraits)                           \
  X(Divide, "divide", 2, kBinaryElementwise)                                   \
  X(Domain, "domain", 1, kNoTraits)                                            \
  X(Dot, "dot", 2, kNoTraits)                                                  \
  X(DynamicReshape, "dynamic-reshape", kVariadic, kNoTraits)                   \
  X(DynamicSlice, "dynamic-slice", kVariadic, kNoTraits)                       \
  X(DynamicUpdateSlice, "dynamic-update-slice", kVariadic, kNoTraits)          \
  X(Erf, "erf", 1, kUnaryElementwise | kFloatOnly | kTranscendental)           \
  X(Exp, "exponential", 1, kUnaryElementwise | kFloatOnly | kTranscendental)   \
  X(Expm1, "exponential-minus-one", 1,                                         \
    kUnaryElementwise | kFloatOnly | kTranscendental)                          \
  X(Fft, "fft", 1, kNoTraits)                                                  \
  X(Floor, "floor", 1, kUnaryElementwise | kFloatOnly)                         \
  X(Fusion, "fusion", kVariadic, kNoTraits)                                    \
  X(Gather, "gather", 2, kNoTraits)                                            \
  X(GetDimensionSize, "get-dimension-size", 1, kNoTraits)                      \
  X(GetTupleElement, "get-tuple-element", 1, kNoTraits)                        \
  X(Imag, "imag", 1, kUnaryElementwise | kFloatOnly)                           \
  X(Infeed, "infeed", 1, kNoTraits)                                            \
  X(Iota, "iota", 0, kNoTraits)                                                \
  X(IsFinite, "is-finite", 1, kUnaryElementwise | kFloatOnly)                  \
  X(Log, "log", 1, kUnaryElementwise | kFloatOnly | kTranscendental)           \
  X(Log1p, "log-plus-one", 1,                                                  \
    kUnaryElementwise | kFloatOnly | kTranscendental)                          \
  X(Logistic, "logistic", 1, kUnaryElementwise | kFloatOnly | kTranscendental) \
  X(Map, "map", kVariadic, kNoTraits)                                          \
  X(Maximum, "maximum", 2, kBinaryElementwise | kCommutative)                  \
  X(Minimum, "minimum", 2, kBinaryElementwise | kCommutative)                  \
  X(Mulhi, "mulhi", 2, kNoTraits)                                              \
  X(Multiply, "multiply", 2, kBinaryElementwise | kCommutative)                \
  X(Negate, "negate", 1, kUnaryElementwise)                                    \
  X(Not, "not", 1, kUnaryElementwise | kBitwise)                               \
  X(OptimizationBarrier, "opt-barrier", 1, kNoTraits)                          \
  X(Or, "or", 2, kBinaryElementwise | kBitwise | kCommutative)                 \
  X(Outfeed, "outfeed", 2, kNoTraits)                                          \
  X(Pad, "pad", 2, kNoTraits)                                                  \
  X(Parameter, "parameter", 0, kNoTraits)                                      \
  X(PartitionId, "partition-id", 0, kNoTraits)                                 \
  X(PopulationCount, "popcnt", 1, kUnaryElementwise | kBitwise)                \
  X(Power, "power", 2, kBinaryElementwise | kTranscendental)                   \
  X(RaggedAllToAll, "ragged-all-to-all", 6, kNoTraits)                         \
  X(RaggedDot, "ragged-dot", 3, kNoTraits)                                     \
  X(Real, "real", 1, kUnaryElementwise | kFloatOnly)                           \
  X(Recv, "recv", 1, kNoTraits)                                                \
  X(RecvDone, "recv-done", 1, kNoTraits)                                       \
  X(Reduce, "reduce", kVariadic, kNoTraits)                                    \
  X(ReducePrecision, "reduce-precision", 1, kNoTraits)                         \
  X(ReduceScatter, "reduce-scatter", kVariadic, kNoTraits)                     \
  X(ReduceWindow, "reduce-window", kVariadic, kNoTraits)                       \
  X(Remainder, "remainder", 2, kBinaryElementwise)                             \
  X(ReplicaId, "replica-id", 0, kNoTraits)                                     \
  X(Reshape, "reshape", 1, kNoTraits)                                          \
  X(Reverse, "reverse", 1, kNoTraits)                                          \
  X(Rng, "rng", kVariadic, kNoTraits)                                          \
  X(RngBitGenerator, "rng-bit-generator", 1, kNoTraits)                        \
  X(RngGetAndUpdateState, "rng-get-and-update-state", 0, kNoTraits)            \
  X(RoundNearestAfz, "round-nearest-afz", 1, kUnaryElementwise | kFloatOnly)   \
  X(RoundNearestEven, "round-nearest-even", 1, kUnaryElementwise | kFloatOnly) \
  X(Rsqrt, "rsqrt", 1, kUnaryElementwise | kFloatOnly | kTranscendental)       \
  X(ScaledDot, "scaled-dot", 4, kNoTraits)                                     \
  X(Scan, "scan", kVariadic, kNoTraits)                                        \
  X(Scatter, "scatter", kVariadic, kNoTraits)                                  \
  X(Select, "select", 3, kElementwise)                                         \
  X(SelectAndScatter, "select-and-scatter", 3, kNoTraits)                      \
  X(Send, "send", 2, kNoTraits)                                                \
  X(SendDone, "send-done", 1, kNoTraits)                                       \
  X(SetDimensionSize, "set-dimension-size", 2, kNoTraits)                      \
  X(ShiftLeft, "shift-left", 2, kBinaryElementwise | kBitwise)                 \
  X(ShiftRightArithmetic, "shift-right-arithmetic", 2,                         \
    kBinaryElementwise | kBitwise)                                             \
  X(ShiftRightLogical, "shift-right-logical", 2,                               \
    kBinaryElementwise | kBitwise)                                             \
  X(Shuffle, "shuffle", 1, kNoTraits)                                          \
  X(Sign, "sign", 1, kUnaryElementwise)                                        \
  X(Sin, "sine", 1, kUnaryElementwise | kFloatOnly | kTranscendental)          \
  X(Sinh, "sinh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(Slice, "slice", 1, kNoTraits)                                              \
  X(Sort, "sort", kVariadic, kNoTraits)                                        \
  X(Sqrt, "sqrt", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(StochasticConvert, "stochastic-convert", 2, kNoTraits)                     \
  X(Subtract, "subtract", 2, kBinaryElementwise)                               \
  X(Tan, "tan", 1, kUnaryElementwise | kFloatOnly | kTranscendental)           \
  X(Tanh, "tanh", 1, kUnaryElementwise | kFloatOnly | kTranscendental)         \
  X(TopK, "topk", 1, kNoTraits)                                                \
  X(Transpose, "transpose", 1, kNoTraits)                                      \
  X(TriangularSolve, "triangular-solve", 2, kNoTraits)                         \
  X(Tuple, "tuple", kVariadic, kNoTraits)                                      \
  X(While, "while", 1, kNoTraits)                                              \
  X(Xor, "xor", 2, kBinaryElementwise | kBitwise | kCommutative)

enum class Opcode : unsigned char {
#define RLOPT_HLO_OPCODE_ENUM(Enumerator, Name, Arity, Traits) Enumerator,
  RLOPT_HLO_OPCODES(RLOPT_HLO_OPCODE_ENUM)
#undef RLOPT_HLO_OPCODE_ENUM
};

/// Number of opcodes in the vocabulary (the op-count vector's length).
constexpr size_t kNumOpcodes = 0
#define RLOPT_HLO_OPCODE_COUNT(Enumerator, Name, Arity, Traits) +1
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

/// The opcode's traits column.
OpcodeTraits opcodeTraits(Opcode opcode);

/// One predicate per trait; see the traits above for what each means.
bool isElementwise(Opcode opcode);
bool isUnaryElementwise(Opcode opcode);
bool isBinaryElementwise(Opcode opcode);
bool isFloatOnly(Opcode opcode);
bool isBitwise(Opcode opcode);
bool isCommutative(Opcode opcode);
bool isTranscendental(Opcode opcode);

} // namespace rlopt::graph

#endif
