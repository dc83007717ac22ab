#include "rlopt/linalg/ScheduleMutation.h"

#include "rlopt/linalg/Transformation.h"

#include <algorithm>
#include <set>

namespace rlopt::linalg {

std::vector<Schedule> heuristicVariants(const Program &program,
                                        const HeuristicOptions &options) {
  std::vector<Schedule> variants;
  std::set<std::string> seen;
  auto add = [&](const HeuristicOptions &variant) {
    Schedule schedule = heuristicSchedule(program, variant);
    if (seen.insert(schedule.str()).second)
      variants.push_back(std::move(schedule));
  };
  add(options);
  const measure::CpuTarget &host = options.target;
  for (double cacheScale : {0.5, 1.0, 2.0, 4.0})
    for (int registers : {host.vectorRegisters / 2, host.vectorRegisters})
      for (bool extras : {true, false}) {
        HeuristicOptions variant = options;
        variant.target.vectorRegisters = std::max(4, registers);
        variant.target.l1dBytes = static_cast<long>(host.l1dBytes * cacheScale);
        variant.target.l2Bytes = static_cast<long>(host.l2Bytes * cacheScale);
        if (!extras)
          variant.extraTransformations.clear();
        add(variant);
      }
  return variants;
}

namespace {

int64_t pick(std::mt19937_64 &rng, int64_t n) {
  return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
}

/// A new size for a loop of `range` tiled by `size` (0: whole): half or
/// double, or the whole loop, kept within 1..range.
int64_t resize(int64_t size, int64_t range, std::mt19937_64 &rng) {
  int64_t current = size == 0 ? range : size;
  switch (pick(rng, 3)) {
  case 0:
    current = std::max<int64_t>(1, current / 2);
    break;
  case 1:
    current = current * 2;
    break;
  default:
    current = current == range ? std::max<int64_t>(1, range / 4) : range;
    break;
  }
  return current >= range ? 0 : current;
}

} // namespace

std::optional<Schedule> mutateSchedule(const Program &program,
                                       const Schedule &schedule,
                                       std::mt19937_64 &rng) {
  if (schedule.ops.empty())
    return std::nullopt;
  Schedule mutant = schedule;
  OpSchedule &op = mutant.ops[pick(rng, mutant.ops.size())];
  const OpInfo *info = program.findOp(op.opId);
  if (!info)
    return std::nullopt;
  std::vector<TransformStep> &steps = op.steps;
  // Steps other than the final vectorize/stop, where new ones may go.
  size_t body = steps.size();
  while (body > 0 && (steps[body - 1].name == "vectorize" ||
                      steps[body - 1].name == "stop"))
    --body;
  std::vector<size_t> sized;
  for (size_t s = 0; s < steps.size(); ++s) {
    const Transformation *t = findTransformation(steps[s].name);
    if (t &&
        (t->params == ParamKind::PerLoop ||
         t->params == ParamKind::PerParallelLoop) &&
        !steps[s].params.empty())
      sized.push_back(s);
  }
  unsigned loops = info->numLoops();
  int kind = static_cast<int>(pick(rng, 12));
  if (kind < 6) { // resize one loop of a per-loop step
    if (sized.empty())
      return std::nullopt;
    TransformStep &step = steps[sized[pick(rng, sized.size())]];
    size_t loop = pick(rng, std::min<size_t>(step.params.size(), loops));
    int64_t before = step.params[loop];
    step.params[loop] = resize(before, info->loopRanges[loop], rng);
    if (step.params[loop] == before)
      return std::nullopt;
  } else if (kind < 8) { // swap two loops of an interchange, or add one
    if (loops < 2)
      return std::nullopt;
    auto it =
        std::find_if(steps.begin(), steps.end(), [](const TransformStep &s) {
          return s.name == "interchange";
        });
    if (it == steps.end()) {
      std::vector<int64_t> order(loops);
      for (unsigned l = 0; l < loops; ++l)
        order[l] = l;
      it = steps.insert(steps.begin() + pick(rng, body + 1),
                        {"interchange", order});
    }
    size_t a = pick(rng, it->params.size()), b = pick(rng, it->params.size());
    if (a == b)
      return std::nullopt;
    std::swap(it->params[a], it->params[b]);
  } else if (kind == 8) { // one more tiling level inside an existing one
    if (sized.empty())
      return std::nullopt;
    size_t at = sized[pick(rng, sized.size())];
    if (steps[at].name != "tile")
      return std::nullopt;
    TransformStep inner = steps[at];
    size_t loop = pick(rng, std::min<size_t>(inner.params.size(), loops));
    int64_t size =
        inner.params[loop] == 0 ? info->loopRanges[loop] : inner.params[loop];
    if (size < 2)
      return std::nullopt;
    for (int64_t &p : inner.params)
      p = 0;
    inner.params[loop] = size / 2;
    steps.insert(steps.begin() + at + 1, inner);
  } else if (kind < 11) { // drop a step
    if (steps.empty())
      return std::nullopt;
    steps.erase(steps.begin() + pick(rng, steps.size()));
  } else { // end with vectorize
    if (body != steps.size())
      return std::nullopt;
    steps.push_back({"vectorize", {}});
  }
  ScheduleState state(program.ops);
  if (!applySchedule(state, mutant))
    return std::nullopt;
  return mutant;
}

} // namespace rlopt::linalg
