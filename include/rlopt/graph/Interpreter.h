#ifndef RLOPT_GRAPH_INTERPRETER_H
#define RLOPT_GRAPH_INTERPRETER_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Shape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::graph {

class Module;

/// A runtime value of the reference interpreter: an array (every element
/// type held as double, row-major; complex values as (re, im) pairs), or a
/// tuple of values. Tokens are empty arrays.
struct Value {
  Shape shape;
  std::vector<double> data;    ///< arrays
  std::vector<Value> elements; ///< tuples
};

struct InterpreterOptions {
  /// Seed for the values of elided constants (`constant({...})`): each is
  /// filled from this seed and the constant's name, so a pass that keeps the
  /// constant keeps its value.
  uint64_t constantSeed = 0x5eed;
  int64_t maxElements = int64_t(1) << 27; ///< per value; larger is an Error
  int64_t maxWhileIterations = 100000;    ///< per while loop
  /// Computations active at once (the entry, the calls, loop bodies and
  /// reducers it is inside): deeper nesting is an Error. A module that
  /// nests deeply is evaluated on a thread whose stack is sized for its
  /// depth up to this bound, so it never overflows the caller's stack.
  int64_t maxCallDepth = 10000;
  /// Round every floating-point result to its element type's precision
  /// (f32, bf16, f16, ...), as XLA stores it. When false, arithmetic stays
  /// in double and only bitcast-convert and convert to another type round
  /// (a convert to its own type is XLA's no-op): the graph's math without
  /// storage rounding, for comparing passes that legitimately reorder
  /// floating-point operations or remove no-op converts.
  bool roundToElementType = true;
};

/// Seeded random arguments for the entry computation's parameters:
/// floating point in [-1, 1), integers in a small range ([0, 8), valid as
/// small indices), predicates 0/1. Each parameter has its own stream.
Result<std::vector<Value>> randomArguments(const Module &module, uint64_t seed);
/// As above; a parameter over `options.maxElements` is an Error.
Result<std::vector<Value>> randomArguments(const Module &module, uint64_t seed,
                                           const InterpreterOptions &options);

/// Evaluates the entry computation on `arguments`. Opcodes it does not
/// implement, and values over the limits, are an Error naming them;
/// collectives act as the identity on one device.
///
/// Semantics, where XLA leaves room or the double representation limits:
///  - every floating-point result is rounded to its element type (bf16
///    through f32, which differs from direct rounding in rare ties) unless
///    roundToElementType is off; integers wrap to their width and are exact
///    up to 2^53 (u64/s64 beyond that lose low bits); float-to-integer
///    convert truncates toward zero and saturates, NaN giving 0;
///  - integer x/0 is -1 (all ones) and x%0 is x; MIN/-1 is MIN;
///  - dot and convolution accumulate in double and round once; reduce and
///    reduce-window fold in row-major order, rounding each step;
///  - dynamic-slice and gather clamp start indices into the operand;
///    scatter skips windows that do not fit;
///  - rng and rng-bit-generator are deterministic in the seed, the run
///    count and the state, but are not XLA's bit streams;
///  - custom-calls run for the targets AwsNeuronGelu(ApprxTanh, Backward),
///    AwsNeuronRmsNorm, AwsNeuronTransferWithStaticRing, cuda_threefry2x32,
///    cusolver_potrf, cusolver_getrf, cublas_getrf_batched, cusolver_geqrf,
///    cusolver_orgqr, cublas_trsm_batched and
///    cuda_lu_pivots_to_permutation; any other target is an Error naming it;
///  - complex elements are an Error in every op that reads them.
Result<Value> evaluate(const Module &module,
                       const std::vector<Value> &arguments,
                       const InterpreterOptions &options = {});

/// Compares two results element by element: |a - b| <= atol + rtol * |a|
/// (NaN equals NaN). The Error names the first mismatch (tuple path, index,
/// values).
Status compareValues(const Value &expected, const Value &actual,
                     double rtol = 1e-4, double atol = 1e-5);

} // namespace rlopt::graph

#endif
