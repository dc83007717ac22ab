#include "rlopt/linalg/Heuristic.h"

#include <algorithm>

namespace rlopt::linalg {

/// The largest divisor of `range` that is at most `target` (at least 1).
static int64_t divisorAtMost(int64_t range, int64_t target) {
  for (int64_t d = std::min(range, target); d > 1; --d)
    if (range % d == 0)
      return d;
  return 1;
}

/// Positions of the parallel loops, outermost first.
static std::vector<unsigned> parallelLoops(const OpState &op) {
  std::vector<unsigned> loops;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (!op.isReduction[l])
      loops.push_back(l);
  return loops;
}

/// Appends `step` to `steps` if it passes the checks on `state`.
static bool tryStep(ScheduleState &state, unsigned index,
                    const TransformStep &step,
                    std::vector<TransformStep> &steps) {
  const Transformation *t = findTransformation(step.name);
  if (!t || checkStep(state, index, *t, step.params))
    return false;
  if (!applyStep(state, index, step))
    return false;
  steps.push_back(step);
  return true;
}

/// Matmul-like ops: (batch..., i, j, k): a cache tile, then a 4 x 16 x 1
/// register tile whose contraction lowers to outer-product FMAs.
static void scheduleContraction(ScheduleState &state, unsigned index,
                                std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  std::vector<unsigned> parallel = parallelLoops(op);
  std::vector<int64_t> cache(op.numLoops(), 0), reg(op.numLoops(), 1);
  unsigned inner = parallel.empty() ? 0 : parallel.back();
  for (unsigned l = 0; l < op.numLoops(); ++l) {
    int64_t range = op.ranges[l];
    if (op.isReduction[l]) {
      cache[l] = divisorAtMost(range, 128);
      reg[l] = 1;
    } else if (l == inner) {
      cache[l] = divisorAtMost(range, 64);
      reg[l] = divisorAtMost(cache[l], 16);
    } else if (parallel.size() >= 2 && l == parallel[parallel.size() - 2]) {
      cache[l] = divisorAtMost(range, 128);
      reg[l] = divisorAtMost(cache[l], 4);
    } else {
      cache[l] = 1; // batch loops
    }
  }
  tryStep(state, index, {"tile", cache}, steps);
  tryStep(state, index, {"tile", reg}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
}

/// Windowed ops (conv, depthwise, pooling): tile output row and window row
/// to 1 so they decompose to 1-D, keep vectors along width and channels.
static void scheduleWindowed(ScheduleState &state, unsigned index,
                             std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  const std::string &kind = op.kind;
  std::vector<int64_t> sizes(op.numLoops(), 1);
  auto set = [&](unsigned l, int64_t target) {
    sizes[l] = divisorAtMost(op.ranges[l], target);
  };
  if (kind == "linalg.conv_2d_nhwc_hwcf" ||
      kind == "linalg.conv_2d_nhwc_fhwc") {
    // (n, oh, ow, f, kh, kw, c)
    set(2, 8), set(3, 16), set(6, 8);
  } else if (kind == "linalg.depthwise_conv_2d_nhwc_hwc" ||
             kind == "linalg.pooling_nhwc_max" ||
             kind == "linalg.pooling_nhwc_sum") {
    // (n, oh, ow, c, kh, kw)
    set(2, 8), set(3, 32);
  } else {
    return;
  }
  tryStep(state, index, {"tile", sizes}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
}

/// Everything else: tile the two innermost loops to a vector-sized block.
static void scheduleGeneric(ScheduleState &state, unsigned index,
                            std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  std::vector<int64_t> sizes(op.numLoops(), 1);
  unsigned n = op.numLoops();
  if (n >= 1)
    sizes[n - 1] = divisorAtMost(op.ranges[n - 1], 64);
  if (n >= 2)
    sizes[n - 2] = divisorAtMost(op.ranges[n - 2], 8);
  tryStep(state, index, {"tile", sizes}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
}

Schedule heuristicSchedule(const Program &program,
                           const HeuristicOptions &options) {
  ScheduleState state(program.ops, options.limits);
  Schedule schedule;
  for (unsigned index = program.ops.size(); index-- > 0;) {
    std::vector<TransformStep> steps;
    const OpState &op = state.ops[index];
    if (options.threads > 1) {
      std::vector<unsigned> parallel = parallelLoops(op);
      for (unsigned l : parallel) {
        if (op.ranges[l] < 2 * options.threads)
          continue;
        std::vector<int64_t> sizes(op.numLoops(), 0);
        sizes[l] = (op.ranges[l] + options.threads - 1) / options.threads;
        sizes[l] = divisorAtMost(op.ranges[l], sizes[l]);
        tryStep(state, index, {"parallelize", sizes}, steps);
        break;
      }
    }
    if (op.kind == "linalg.conv_2d_nchw_fchw")
      tryStep(state, index, {"img2col", {}}, steps);
    switch (state.ops[index].opClass) {
    case OpClass::Matmul:
      scheduleContraction(state, index, steps);
      break;
    case OpClass::Conv2d:
    case OpClass::Pooling:
      scheduleWindowed(state, index, steps);
      break;
    default:
      scheduleGeneric(state, index, steps);
      break;
    }
    if (!steps.empty())
      schedule.ops.push_back({program.ops[index].id, steps});
  }
  return schedule;
}

} // namespace rlopt::linalg
