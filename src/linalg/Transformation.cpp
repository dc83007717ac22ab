#include "rlopt/linalg/Transformation.h"
#include "rlopt/measure/MachineInfo.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace rlopt::linalg {

// Each entry lives in its own file under transforms/.
Transformation tileTransformation();
Transformation parallelizeTransformation();
Transformation fuseTransformation();
Transformation interchangeTransformation();
Transformation vectorizeTransformation();
Transformation img2colTransformation();
Transformation stopTransformation();
Transformation splitReductionTransformation();
Transformation peelTransformation();
Transformation packTransformation();
Transformation flattenTransformation();
Transformation unrollTransformation();
Transformation padTransformation();
Transformation promoteTransformation();

const std::vector<Transformation> &transformations() {
  static const std::vector<Transformation> all = {
      tileTransformation(),
      parallelizeTransformation(),
      fuseTransformation(),
      interchangeTransformation(),
      vectorizeTransformation(),
      img2colTransformation(),
      stopTransformation(),
      // Opt-in (EnvConfig::extraTransformations):
      splitReductionTransformation(),
      peelTransformation(),
      packTransformation(),
      flattenTransformation(),
      unrollTransformation(),
      padTransformation(),
      promoteTransformation(),
  };
  return all;
}

const Transformation *findTransformation(const std::string &name) {
  for (const Transformation &t : transformations())
    if (name == t.name)
      return &t;
  return nullptr;
}

std::vector<const Transformation *>
actionTransformations(const std::vector<std::string> &extras) {
  std::vector<const Transformation *> types;
  for (const Transformation &t : transformations())
    if (!t.extra)
      types.push_back(&t);
  for (const std::string &name : extras)
    if (const Transformation *t = findTransformation(name); t && t->extra)
      types.push_back(t);
  return types;
}

std::vector<std::string> allExtraTransformations() {
  std::vector<std::string> names;
  for (const Transformation &t : transformations())
    if (t.extra)
      names.push_back(t.name);
  return names;
}

std::string extraTransformationNames() {
  std::string text;
  for (const std::string &name : allExtraTransformations())
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool OpState::hasPartialTiles() const {
  return std::find(partial.begin(), partial.end(), true) != partial.end();
}

const ForLoop *OpState::forLoop(unsigned loop) const {
  if (forLoops.size() != numLoops() || loop >= forLoops.size() ||
      forLoops[loop].handle.empty())
    return nullptr;
  return &forLoops[loop];
}

int64_t OpState::iterationCount() const {
  int64_t n = 1;
  for (int64_t r : ranges)
    n *= r;
  return n;
}

ScheduleState::ScheduleState(const std::vector<OpInfo> &infos,
                             TransformLimits limits)
    : limits(limits) {
  for (const OpInfo &info : infos) {
    OpState op;
    op.info = &info;
    op.handle = "%op" + std::to_string(info.index);
    op.kind = info.kind;
    op.opClass = info.opClass;
    op.ranges = info.loopRanges;
    op.isReduction = info.isReduction;
    op.partial.assign(info.loopRanges.size(), false);
    op.rests.assign(info.loopRanges.size(), 0);
    op.forLoops.assign(info.loopRanges.size(), {});
    ops.push_back(std::move(op));
  }
}

std::string ScheduleState::transformScript() const {
  return script.finish(ops.size(), lowerVectors, dropLeadingUnitDims);
}

std::vector<int64_t> tiledRanges(const OpState &op,
                                 const std::vector<int64_t> &sizes) {
  std::vector<int64_t> ranges = op.ranges;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] != 0)
      ranges[i] = sizes[i];
  return ranges;
}

std::vector<std::vector<WindowLoop>> analyzedWindows(const OpInfo &info) {
  std::vector<std::vector<WindowLoop>> windows;
  for (const AccessMatrix &load : info.loads)
    for (const std::vector<int64_t> &dim : load) {
      std::vector<WindowLoop> window;
      for (unsigned l = 0; l + 1 < dim.size(); ++l) // the last: the offset
        if (dim[l] != 0)
          window.push_back({l, dim[l]});
      if (window.size() > 1)
        windows.push_back(window);
    }
  return windows;
}

bool inWindow(const std::vector<std::vector<WindowLoop>> &windows,
              unsigned loop) {
  return llvm::any_of(windows, [&](const std::vector<WindowLoop> &window) {
    return llvm::any_of(window, [&](WindowLoop w) { return w.loop == loop; });
  });
}

int64_t elementBytes(const OpState &op) {
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  mlir::Type type = linalgOp.getDpsInits()[0].getType();
  auto shaped = mlir::cast<mlir::ShapedType>(type);
  return std::max<int64_t>(1, shaped.getElementTypeBitWidth() / 8);
}

int64_t lanesOf(const OpState &op, const measure::CpuTarget &target) {
  return std::max<int64_t>(1, target.f32Lanes * 4 / elementBytes(op));
}

void forgetForLoops(OpState &op) { op.forLoops.assign(op.ranges.size(), {}); }

void recordTiling(OpState &op, const std::vector<int64_t> &sizes,
                  const std::string &forLoops) {
  if (op.forLoops.size() != op.ranges.size())
    forgetForLoops(op);
  unsigned result = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0)
      continue;
    ForLoop &loop = op.forLoops[i];
    loop = {};
    if (!forLoops.empty())
      loop = {forLoops + "#" + std::to_string(result++),
              (op.ranges[i] + sizes[i] - 1) / sizes[i], op.loopsMade};
    ++op.loopsMade;
    if (op.ranges[i] % sizes[i] != 0)
      op.partial[i] = true;
    op.ranges[i] = sizes[i];
    // A remainder no larger than the tile is one tile of its own size.
    if (op.rests[i] > sizes[i]) {
      if (op.rests[i] % sizes[i] != 0)
        op.partial[i] = true;
      op.rests[i] = sizes[i];
    }
  }
}

/// A zero of each operand's element type: `0.0 : f32, 0.0 : f32, ...`.
static std::string zeroPaddingValues(const OpState &op) {
  auto linalgOp = mlir::cast<mlir::linalg::LinalgOp>(op.info->op);
  std::string values;
  llvm::raw_string_ostream os(values);
  for (mlir::OpOperand &operand : linalgOp->getOpOperands()) {
    mlir::Type type = mlir::getElementTypeOrSelf(operand.get().getType());
    os << (values.empty() ? "" : ", ")
       << (mlir::isa<mlir::FloatType>(type) ? "0.0 : " : "0 : ") << type;
  }
  return values;
}

PaddedHandles emitStructuredPad(ScheduleState &state, unsigned index,
                                const std::vector<bool> &packPaddings,
                                const std::string &copyBackOp) {
  const OpState &op = state.ops[index];
  std::vector<int64_t> dimensions;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    dimensions.push_back(l);
  std::string attributes =
      "padding_values = [" + zeroPaddingValues(op) +
      "], padding_dimensions = " + ScriptWriter::intList(dimensions);
  if (!packPaddings.empty()) {
    std::string flags;
    for (bool pack : packPaddings)
      flags += std::string(flags.empty() ? "" : ", ") + (pack ? "1" : "0");
    attributes += ", pack_paddings = [" + flags + "]";
  }
  attributes += ", copy_back_op = \"" + copyBackOp + "\"";

  PaddedHandles handles{state.script.fresh(op.info->id + "_padded"),
                        state.script.fresh(op.info->id + "_pads")};
  std::string copyBack = state.script.fresh(op.info->id + "_copy_back");
  state.script.line(handles.padded + ", " + handles.copies + ", " + copyBack +
                    " = transform.structured.pad " + op.handle + " {" +
                    attributes + "} : (!transform.any_op) -> " +
                    ScriptWriter::anyOps(3));
  return handles;
}

std::optional<std::string> fusionRefusal(const ScheduleState &state,
                                         unsigned index,
                                         const std::string &step) {
  if (state.ops[index].fusedInto >= 0)
    return step + " the op before fusing it into its consumer";
  for (const OpState &other : state.ops)
    if (other.fusedInto == int(index))
      return step + " before fusing producers into the op: their results "
                    "are computed inside its loops";
  return std::nullopt;
}

std::optional<std::string> checkTileSizes(const OpState &op,
                                          const std::vector<int64_t> &sizes) {
  bool any = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      return "negative size " + std::to_string(sizes[i]) + " for loop " +
             std::to_string(i);
    if (sizes[i] > op.ranges[i])
      return "size " + std::to_string(sizes[i]) + " exceeds loop " +
             std::to_string(i) + " of range " + std::to_string(op.ranges[i]);
    if (sizes[i] != 0 && sizes[i] != op.ranges[i])
      any = true;
  }
  if (!any)
    return std::string("tiles nothing (all sizes are 0 or the full range)");
  return std::nullopt;
}

static std::string stepText(const Transformation &t,
                            const std::vector<int64_t> &params) {
  Schedule single{{OpSchedule{"", {TransformStep{t.name, params}}}}};
  std::string text = single.str(); // ": name(params)"
  return text.substr(text.find(' ') + 1);
}

std::optional<std::string> checkStep(const ScheduleState &state, unsigned index,
                                     const Transformation &transformation,
                                     const std::vector<int64_t> &params) {
  const OpState &op = state.ops[index];
  if (op.stopped)
    return std::string("the op's schedule already ended with stop");
  if (op.vectorized)
    return std::string("the op is already vectorized (vectorize comes last)");
  if (op.fusedOpaque && std::string(transformation.name) != "stop")
    return std::string(
        "the op was fused and its tile shape is not static; only stop applies");
  std::string name = transformation.name;
  if (op.peeled && name != "tile" && name != "interchange" &&
      name != "unroll" && name != "vectorize" && name != "stop")
    return std::string("after peel only tile, interchange, unroll, vectorize "
                       "and stop apply");
  size_t expected = 0;
  switch (transformation.params) {
  case ParamKind::None:
    expected = 0;
    break;
  case ParamKind::PerLoop:
  case ParamKind::PerParallelLoop:
  case ParamKind::PerReductionLoop:
  case ParamKind::Permutation:
    expected = op.numLoops();
    break;
  }
  if (params.size() != expected)
    return "expects " + std::to_string(expected) + " parameter" +
           (expected == 1 ? "" : "s") + " (" +
           (expected == op.numLoops() && expected ? "one per loop of " : "") +
           op.kind + ", " + std::to_string(op.numLoops()) + " loops), got " +
           std::to_string(params.size());
  return transformation.check(state, index, params);
}

Status applyStep(ScheduleState &state, unsigned index,
                 const TransformStep &step) {
  const Transformation *t = findTransformation(step.name);
  std::string where = state.ops[index].info->id + ": " + step.name;
  if (!t) {
    std::string known;
    for (const Transformation &k : transformations())
      known += (known.empty() ? "" : ", ") + std::string(k.name);
    return makeError(where + ": unknown transformation (known: " + known + ")");
  }
  where = state.ops[index].info->id + ": " + stepText(*t, step.params);
  if (auto problem = checkStep(state, index, *t, step.params))
    return makeError(where + ": " + *problem);
  t->emit(state, index, step.params);
  state.ops[index].history.push_back(step);
  return Status::success();
}

Status applySchedule(ScheduleState &state, const Schedule &schedule) {
  for (const OpSchedule &opSchedule : schedule.ops) {
    auto it = std::find_if(
        state.ops.begin(), state.ops.end(),
        [&](const OpState &op) { return op.info->id == opSchedule.opId; });
    if (it == state.ops.end())
      return makeError("schedule names " + opSchedule.opId +
                       ", but the program has op0.." + "op" +
                       std::to_string(state.ops.size() - 1));
    for (const TransformStep &step : opSchedule.steps) {
      Status status = applyStep(state, it - state.ops.begin(), step);
      if (!status)
        return status;
    }
  }
  return Status::success();
}

} // namespace rlopt::linalg
