// peel(s0, ..., sn-1): split loop i at the largest multiple of s_i (0 =
// leave it), so that the op becomes a main part whose loop divides by s_i
// and a small remainder. Both parts take the op's later steps; tiles of the
// main part are then full and vectorize without masks, and the remainder
// vectorizes at its own sizes (masked only where they are rounded up to
// whole registers). What a size without a good divisor needs (a row of
// 1000 tiled by 32 runs 992 columns unmasked). A convolution or pooling
// splits along its channels and filters, not along a loop that slides over
// its window; vectorize then makes its rest static instead of masking it.
#include "rlopt/linalg/Transformation.h"

namespace rlopt::linalg {

/// Whether loop `loop` indexes an input together with another loop (a
/// convolution's output row and window row): splitting it would cut the
/// window's slices of the input, which the split does not do.
static bool slidesOverAWindow(const OpState &op, unsigned loop) {
  // A packed op's loops are no longer the analysed ones; it keeps its own.
  return inWindow(op.windows.empty() ? analyzedWindows(*op.info) : op.windows,
                  loop);
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  const OpState &op = state.ops[index];
  if (op.fusedInto >= 0)
    return std::string("peel the op before fusion");
  if (op.hasPartialTiles())
    return std::string("peel before tiling with sizes that do not divide");
  bool windowed =
      op.opClass == OpClass::Conv2d || op.opClass == OpClass::Pooling;
  bool any = false;
  for (size_t l = 0; l < sizes.size(); ++l) {
    if (sizes[l] == 0)
      continue;
    if (windowed && slidesOverAWindow(op, l))
      return "loop " + std::to_string(l) +
             " slides over a window and does not split";
    if (sizes[l] < 0 || sizes[l] >= op.ranges[l])
      return "the size for loop " + std::to_string(l) + " must lie in 1.." +
             std::to_string(op.ranges[l] - 1);
    any |= op.ranges[l] % sizes[l] != 0;
  }
  if (!any)
    return std::string("every size divides its loop: nothing to peel");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  OpState &op = state.ops[index];
  for (size_t l = 0; l < sizes.size(); ++l) {
    if (sizes[l] == 0 || op.ranges[l] % sizes[l] == 0)
      continue;
    int64_t main = op.ranges[l] - op.ranges[l] % sizes[l];
    std::string lower = state.script.fresh(op.info->id + "_main");
    std::string upper = state.script.fresh(op.info->id + "_rest");
    std::string both = state.script.fresh(op.info->id + "_peeled");
    // One handle to every part: the later steps transform them all.
    state.script.line(lower + ", " + upper + " = transform.structured.split " +
                      op.handle + " after " + std::to_string(main) +
                      " { dimension = " + std::to_string(l) +
                      " } : !transform.any_op");
    state.script.line(both + " = transform.merge_handles " + lower + ", " +
                      upper + " : !transform.any_op");
    op.handle = both;
    op.peeledLoops.push_back(l);
    // The ranges are the main part's; the remainder is smaller.
    op.rests[l] = op.ranges[l] - main;
    op.ranges[l] = main;
  }
  op.peeled = true;
}

/// A size that divides its loop, or spans it, peels nothing there.
static void fromHeads(const OpState &op, std::vector<int64_t> &sizes) {
  for (unsigned l = 0; l < sizes.size(); ++l)
    if (sizes[l] >= op.ranges[l] ||
        (sizes[l] > 0 && op.ranges[l] % sizes[l] == 0))
      sizes[l] = 0;
}

Transformation peelTransformation() {
  return {"peel",
          ParamKind::PerLoop,
          "split each loop at a multiple of its size into a main part that "
          "tiles without remainder and a small rest; both take the later steps",
          check,
          emit,
          /*extra=*/true,
          fromHeads};
}

} // namespace rlopt::linalg
