// stop: end the op's schedule; the environment then moves to the next op.
#include "rlopt/linalg/Transformation.h"

namespace rlopt::linalg {

static std::optional<std::string> check(const ScheduleState &, unsigned,
                                        const std::vector<int64_t> &) {
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  state.ops[index].stopped = true;
}

Transformation stopTransformation() {
  return {"stop", ParamKind::None, "end the op's schedule", check, emit};
}

} // namespace rlopt::linalg
