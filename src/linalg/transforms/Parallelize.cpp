// parallelize(s0, ..., sn-1): tile the parallel loops with one scf.forall,
// which lowers to an OpenMP parallel loop. Reduction loops must stay 0.
#include "rlopt/linalg/Transformation.h"

namespace rlopt::linalg {

std::optional<std::string>
checkParallelTiling(const OpState &op, const std::vector<int64_t> &sizes) {
  if (op.parallelized)
    return std::string("the op is already parallelized");
  if (op.fusedInto >= 0)
    return std::string("the op is fused into a parallel loop already");
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] != 0 && op.isReduction[i])
      return "loop " + std::to_string(i) +
             " is a reduction and cannot run in parallel";
  return checkTileSizes(op, sizes);
}

/// Emits tile_using_forall; returns the forall handle.
std::string emitParallelTiling(ScheduleState &state, OpState &op,
                               const std::vector<int64_t> &sizes) {
  std::string tiled = state.script.fresh(op.info->id + "_tiled");
  std::string forall = state.script.fresh(op.info->id + "_forall");
  state.script.line(tiled + ", " + forall +
                    " = transform.structured.tile_using_forall " + op.handle +
                    " tile_sizes " + ScriptWriter::intList(sizes) +
                    " : (!transform.any_op) -> " + ScriptWriter::anyOps(2));
  op.handle = tiled;
  op.parallelized = true;
  recordTiling(op, sizes);
  return forall;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  return checkParallelTiling(state.ops[index], sizes);
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  emitParallelTiling(state, state.ops[index], sizes);
}

Transformation parallelizeTransformation() {
  return {"parallelize", ParamKind::PerParallelLoop,
          "tile the parallel loops with scf.forall (OpenMP threads)", check,
          emit};
}

} // namespace rlopt::linalg
