#include "rlopt/linalg/ScheduleFeatures.h"

#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Features.h"
#include "rlopt/linalg/Transformation.h"

#include <algorithm>
#include <cmath>

namespace rlopt::linalg {

namespace {

/// Tiling steps whose sizes are recorded, in schedule order.
constexpr unsigned kTileSlots = 4;
/// Steps whose type is recorded, in schedule order.
constexpr unsigned kStepSlots = 8;
/// Per tile slot: the log sizes, and the log bytes the tile touches.
unsigned tileSlotSize(const EnvConfig &c) { return c.maxLoops + 1; }

size_t opBlockSize(const EnvConfig &c) {
  return opFeatureSize(c) + kTileSlots * tileSlotSize(c) + c.maxLoops +
         kStepSlots + 2;
}

/// The opt-in transformations feature version 1 has a type slot for. Later
/// ones (pack) count as an untyped step, so that cost models trained
/// before them still load.
EnvConfig featureConfig() {
  EnvConfig config;
  config.extraTransformations = {"split_reduction", "peel"};
  return config;
}

float logSize(double value) {
  return static_cast<float>(std::log2(1.0 + std::max(0.0, value)));
}

/// Bytes (4 per element) of every operand's part an iteration box of
/// `extent` per loop touches: each access row spans sum |c_l| (extent_l - 1)
/// + 1 elements.
double footprintBytes(const OpInfo &info, const std::vector<int64_t> &extent) {
  double bytes = 0;
  auto add = [&](const AccessMatrix &matrix) {
    double elements = 1;
    for (const std::vector<int64_t> &row : matrix)
      elements *= static_cast<double>(accessSpan(row, extent));
    bytes += 4 * elements;
  };
  for (const AccessMatrix &m : info.loads)
    add(m);
  for (const AccessMatrix &m : info.stores)
    add(m);
  return bytes;
}

void appendOpBlock(const EnvConfig &c,
                   const std::vector<const Transformation *> &types,
                   const OpState &op, std::vector<float> &out) {
  appendOpFeatures(c, types, &op, out);
  const OpInfo &info = *op.info;
  unsigned loops = info.numLoops();
  // The box each tiling step leaves per iteration of its loops: 0 keeps the
  // loop whole. Sizes are in the op's loop order as written.
  std::vector<int64_t> box = info.loopRanges;
  std::vector<float> slots(kTileSlots * tileSlotSize(c), 0.0f);
  std::vector<float> order(c.maxLoops, 0.0f);
  std::vector<float> steps(kStepSlots, 0.0f);
  unsigned tile = 0;
  for (size_t s = 0; s < op.history.size(); ++s) {
    const TransformStep &step = op.history[s];
    if (s < kStepSlots)
      for (size_t t = 0; t < types.size(); ++t)
        if (types[t]->name == step.name)
          steps[s] = static_cast<float>(t + 1);
    const Transformation *transformation = findTransformation(step.name);
    if (!transformation)
      continue;
    if (transformation->params == ParamKind::Permutation) {
      for (size_t p = 0; p < step.params.size() && p < c.maxLoops; ++p)
        order[p] = static_cast<float>(step.params[p] + 1);
      continue;
    }
    // Parameters the heads only pick loops for are no tile sizes; the step
    // slots show the step.
    if (!isPerLoop(transformation->params) || tile >= kTileSlots ||
        transformation->headsPickLoops)
      continue;
    float *slot = slots.data() + tile * tileSlotSize(c);
    for (unsigned l = 0; l < loops && l < step.params.size(); ++l)
      if (step.params[l] > 0 && step.params[l] < box[l])
        box[l] = step.params[l];
    for (unsigned l = 0; l < loops && l < c.maxLoops; ++l)
      slot[l] = logSize(box[l]);
    slot[c.maxLoops] = logSize(footprintBytes(info, box));
    ++tile;
  }
  out.insert(out.end(), slots.begin(), slots.end());
  out.insert(out.end(), order.begin(), order.end());
  out.insert(out.end(), steps.begin(), steps.end());
  out.push_back(logSize(footprintBytes(info, info.loopRanges)));
  out.push_back(logSize(static_cast<double>(info.iterationCount())));
}

} // namespace

size_t scheduleFeatureSize() { return 2 * opBlockSize(featureConfig()) + 2; }

Result<std::vector<float>> scheduleFeatures(const Program &program,
                                            const Schedule &schedule) {
  static const EnvConfig config = featureConfig();
  static const std::vector<const Transformation *> types =
      actionTransformations(config.extraTransformations);
  ScheduleState state(program.ops);
  if (Status applied = applySchedule(state, schedule); !applied)
    return applied.error();

  size_t block = opBlockSize(config);
  std::vector<float> out;
  out.reserve(scheduleFeatureSize());
  std::vector<float> mean(block, 0.0f);
  size_t dominant = 0;
  double total = 0;
  for (size_t i = 0; i < state.ops.size(); ++i) {
    std::vector<float> features;
    appendOpBlock(config, types, state.ops[i], features);
    for (size_t k = 0; k < block; ++k)
      mean[k] += features[k] / state.ops.size();
    int64_t iterations = state.ops[i].info->iterationCount();
    total += iterations;
    if (iterations > state.ops[dominant].info->iterationCount())
      dominant = i;
  }
  if (state.ops.empty()) {
    out.assign(scheduleFeatureSize(), 0.0f);
    return out;
  }
  appendOpBlock(config, types, state.ops[dominant], out);
  out.insert(out.end(), mean.begin(), mean.end());
  out.push_back(static_cast<float>(state.ops.size()));
  out.push_back(logSize(total));
  return out;
}

} // namespace rlopt::linalg
