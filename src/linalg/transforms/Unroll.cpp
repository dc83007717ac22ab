// unroll(f0, ..., fn-1): unroll the innermost scf.for that tiles loop i by
// f_i (0 = leave it). Unrolling the reduction loop of a register tile puts
// several vector contractions in one iteration, so the accumulators stay in
// registers across them and the loads of the next steps can issue early.
// The unroll runs after the schedule's last step: unrolling clones the op,
// and the op's later steps (vectorize) must reach every copy. Unroll-and-jam
// of an outer loop is what a larger register tile already does; MLIR 19's
// loop.unroll_and_jam also refuses loops that carry tensors.
#include "rlopt/linalg/Transformation.h"

#include <algorithm>

namespace rlopt::linalg {

/// More copies add code without hiding more latency than the 32 vector
/// registers can hold.
constexpr int64_t kMaxFactor = 8;

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &factors) {
  const OpState &op = state.ops[index];
  if (op.unrolled)
    return std::string("the op's loops are already unrolled");
  bool any = false;
  for (unsigned l = 0; l < factors.size(); ++l) {
    int64_t f = factors[l];
    if (f == 0)
      continue;
    std::string loop = "loop " + std::to_string(l);
    if (f < 2 || f > kMaxFactor)
      return "the factor for " + loop + " must be 0 or lie in 2.." +
             std::to_string(kMaxFactor);
    const ForLoop *tiled = op.forLoop(l);
    if (!tiled)
      return loop + " is not tiled by an scf.for (tile it first)";
    if (f > tiled->trips)
      return "factor " + std::to_string(f) + " exceeds the " +
             std::to_string(tiled->trips) + " iteration" +
             (tiled->trips == 1 ? "" : "s") + " of " + loop + "'s tile loop";
    any = true;
  }
  if (!any)
    return std::string("unrolls nothing (every factor is 0)");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &factors) {
  OpState &op = state.ops[index];
  std::vector<unsigned> loops;
  for (unsigned l = 0; l < factors.size(); ++l)
    if (factors[l] != 0)
      loops.push_back(l);
  // Inner loops first: unrolling an outer loop clones the inner ones, and
  // a handle would then reach only the first copy.
  std::sort(loops.begin(), loops.end(), [&](unsigned a, unsigned b) {
    return op.forLoops[a].depth > op.forLoops[b].depth;
  });
  for (unsigned l : loops)
    state.script.lineAtEnd("transform.loop.unroll " + op.forLoops[l].handle +
                           " { factor = " + std::to_string(factors[l]) +
                           " } : !transform.any_op");
  op.unrolled = true;
}

/// An agent's head picks which loops unroll, not by how much: a loop's
/// range often leaves its head only the size 1 (the register tile's
/// reduction loop), so each chosen loop unrolls by the largest power of two
/// the cap and its iterations allow.
static void fromHeads(const OpState &op, std::vector<int64_t> &factors) {
  for (unsigned l = 0; l < factors.size(); ++l) {
    const ForLoop *tiled = op.forLoop(l);
    int64_t limit =
        tiled && factors[l] > 0 ? std::min(kMaxFactor, tiled->trips) : 0;
    int64_t f = 1;
    while (2 * f <= limit)
      f *= 2;
    factors[l] = f >= 2 ? f : 0;
  }
}

Transformation unrollTransformation() {
  return {"unroll",
          ParamKind::PerLoop,
          "unroll the innermost scf.for tiling each loop by its factor "
          "(0 = leave it; 2..8) after the op's last step; an agent picks "
          "the loops, each unrolled by up to 8",
          check,
          emit,
          /*extra=*/true,
          fromHeads,
          /*headsPickLoops=*/true};
}

} // namespace rlopt::linalg
