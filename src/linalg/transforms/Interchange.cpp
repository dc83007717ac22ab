// interchange(p0, ..., pn-1): reorder the loops so that loop i of the result
// is loop p_i of the op. Named ops are generalized to linalg.generic first
// (the transform only applies to generics).
#include "rlopt/linalg/Transformation.h"

#include <algorithm>

namespace rlopt::linalg {

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &perm) {
  const OpState &op = state.ops[index];
  std::vector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)perm.size() || seen[p])
      return std::string("not a permutation of 0..") +
             std::to_string(perm.size() - 1);
    seen[p] = true;
  }
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return std::string("the identity permutation changes nothing");
  if (op.opClass == OpClass::Conv2d || op.opClass == OpClass::Pooling)
    if (!op.img2col && op.windows.empty())
      return std::string("interchange would generalize the convolution and "
                         "rule out its vectorization; use img2col first");
  return std::nullopt;
}

template <typename T>
static std::vector<T> permute(const std::vector<T> &values,
                              const std::vector<int64_t> &perm) {
  std::vector<T> result;
  for (int64_t p : perm)
    result.push_back(values[p]);
  return result;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &perm) {
  OpState &op = state.ops[index];
  if (!op.generalized) {
    std::string generic = state.script.fresh(op.info->id + "_generic");
    state.script.line(generic + " = transform.structured.generalize " +
                      op.handle +
                      " : (!transform.any_op) -> !transform.any_op");
    op.handle = generic;
    op.generalized = true;
    op.kind = "linalg.generic";
  }
  std::string interchanged = state.script.fresh(op.info->id + "_perm");
  state.script.line(interchanged + " = transform.structured.interchange " +
                    op.handle +
                    " iterator_interchange = " + ScriptWriter::intList(perm) +
                    " : (!transform.any_op) -> !transform.any_op");
  op.handle = interchanged;
  op.ranges = permute(op.ranges, perm);
  op.isReduction = permute(op.isReduction, perm);
  op.partial = permute(op.partial, perm);
  op.rests = permute(op.rests, perm);
  op.forLoops = permute(op.forLoops, perm);
  // Loop perm[i] is now loop i.
  auto moved = [&](unsigned loop) -> unsigned {
    return std::find(perm.begin(), perm.end(), int64_t(loop)) - perm.begin();
  };
  for (std::vector<WindowLoop> &window : op.windows)
    for (WindowLoop &w : window)
      w.loop = moved(w.loop);
  for (unsigned &loop : op.peeledLoops)
    loop = moved(loop);
}

Transformation interchangeTransformation() {
  return {"interchange", ParamKind::Permutation,
          "permute the loops: loop i becomes the op's loop p_i", check, emit};
}

} // namespace rlopt::linalg
