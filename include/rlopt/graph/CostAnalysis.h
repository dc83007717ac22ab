// FLOPs and transcendentals of a module, following XLA's HloCostAnalysis.
//
// Per instruction (|x| = elements of x; an FMA is 2 flops):
//   - elementwise ops: |out| flops, or |out| transcendentals for exponential,
//     exponential-minus-one, log, log-plus-one, logistic, power, sqrt, rsqrt,
//     cbrt, tanh, sine, cosine, tan, atan2, erf and the inverse/hyperbolic
//     trigonometric ops; compare, select, clamp, convert, bitcast-convert
//     and reduce-precision are elementwise;
//   - dot: 2 * |out| * (product of the lhs contracting dimensions);
//   - convolution: 2 * (input features / feature_group_count) * output
//     features * (batch / batch_group_count) * the kernel-output position
//     pairs that land inside the input, per spatial dimension; without
//     padding or dilation that is 2 * |out| * kernel spatial size * input
//     features per group;
//   - reduce: (|input 0| - |output 0|) * cost of the reducer; reduce-window:
//     (window size - 1) * |output 0| * cost of the reducer, with XLA's
//     reduce-then-broadcast special case; map: |out| * cost of the mapped
//     computation; scatter: |updates| * cost of the combiner;
//     select-and-scatter: |source| * ((window size - 1) * select + scatter);
//   - sort: n * ceil(log2 n) flops, n = |operand 0|; fft, cholesky,
//     triangular-solve as XLA estimates them; all-reduce: |out| flops (XLA
//     assumes two replicas); rng and rng-bit-generator: |out|
//     transcendentals;
//   - call, fusion, async-start: their called computation once; while: body
//     plus condition once (the trip count is unknown statically); conditional:
//     the most expensive branch, per property;
//   - free: parameters, constants, tuples, get-tuple-element, reshape,
//     broadcast, transpose, slice, concatenate, bitcast, copy, iota, pad,
//     gather, collectives other than all-reduce, batch-norm ops (XLA leaves
//     them uncosted), topk;
//   - custom-call: unknown; it adds nothing and is counted in
//     `unknownCostInstructions`, so the totals are lower bounds.
// A module's cost is its entry computation's: called computations are
// costed through their callers, as in XLA, never on their own.
#ifndef RLOPT_GRAPH_COSTANALYSIS_H
#define RLOPT_GRAPH_COSTANALYSIS_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

#include <cstdint>
#include <unordered_map>

namespace rlopt::graph {

struct Cost {
  double flops = 0;
  double transcendentals = 0;
  /// Instructions (custom-calls) whose cost is unknown, counted once each
  /// however often they run.
  int64_t unknownCostInstructions = 0;

  Cost &operator+=(const Cost &other);
};

/// Costs instructions of a verified module (verifyModule), caching the cost
/// of each called computation.
class CostAnalysis {
public:
  /// The instruction's cost, including the computations it calls.
  Cost instructionCost(const Instruction &instruction);
  /// The sum over the computation's instructions.
  Cost computationCost(const Computation &computation);

private:
  std::unordered_map<const Computation *, Cost> computationCosts;
};

/// The cost of the module's entry computation; fails if the module does not
/// pass verifyModule.
Result<Cost> analyzeCost(const Module &module);

/// A machine's roofline, as `rlopt peak` measures it on one thread.
struct Roofline {
  double gflops = 0; ///< FP32 FMA peak, GFLOP/s
  double gbps = 0;   ///< memory bandwidth, GB/s
};

/// A transcendental counted as this many flops in time estimates: about
/// what a vectorized exp or log costs.
constexpr double kFlopsPerTranscendental = 10;

/// Bytes the instruction reads and writes: its operands and its result, as
/// XLA's cost analysis counts bytes accessed. Nothing for instructions that
/// only name or regroup values (parameter, constant, tuple,
/// get-tuple-element, bitcast, after-all).
double bytesAccessed(const Instruction &instruction);

/// The module's estimated run time in seconds on `roofline`: over the entry
/// computation's instructions, the sum of the larger of each one's FLOPs
/// over the peak and its bytes over the bandwidth. Calls, loops (one trip),
/// conditionals (the slowest branch) and async ops take the time of what
/// they call. Unlike the op count, it does not reward leaving out a
/// lowering whose ops are cheap, nor count a free reshape like a dot.
/// Fails if the module does not verify or the roofline is not positive.
Result<double> estimateSeconds(const Module &module, const Roofline &roofline);

} // namespace rlopt::graph

#endif
