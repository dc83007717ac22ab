// tile(s0, ..., sn-1): tile loop i by s_i with scf.for (0 = untiled). A size
// that does not divide its loop leaves a partial last tile; vectorize then
// masks it.
#include "rlopt/linalg/Transformation.h"

#include <algorithm>

namespace rlopt::linalg {

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  return checkTileSizes(state.ops[index], sizes);
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  OpState &op = state.ops[index];
  std::string loops;
  op.handle = state.script.tileUsingFor(op.handle, sizes, op.info->id,
                                        "!transform.any_op", &loops);
  recordTiling(op, sizes, loops);
}

Transformation tileTransformation() {
  return {"tile", ParamKind::PerLoop,
          "tile each loop with scf.for by the given size (0 = untiled)", check,
          emit};
}

} // namespace rlopt::linalg
