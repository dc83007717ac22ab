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
  unsigned loops = std::count_if(sizes.begin(), sizes.end(),
                                 [](int64_t s) { return s != 0; });
  std::string tiled = state.script.fresh(op.info->id + "_tiled");
  std::string forLoops = state.script.fresh(op.info->id + "_for");
  state.script.line(tiled + ", " + forLoops + ":" + std::to_string(loops) +
                    " = transform.structured.tile_using_for " + op.handle +
                    " tile_sizes " + ScriptWriter::intList(sizes) +
                    " : (!transform.any_op) -> " +
                    ScriptWriter::anyOps(loops + 1));
  op.handle = tiled;
  recordTiling(op, sizes);
}

Transformation tileTransformation() {
  return {"tile", ParamKind::PerLoop,
          "tile each loop with scf.for by the given size (0 = untiled)", check,
          emit};
}

} // namespace rlopt::linalg
