#include "rlopt/linalg/LinalgEnv.h"

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Features.h"
#include "rlopt/measure/Cache.h"

#include <algorithm>
#include <cmath>

namespace rlopt::linalg {

struct LinalgEnv::Episode {
  std::shared_ptr<mlir::MLIRContext> context;
  std::shared_ptr<Program> program;
  std::shared_ptr<measure::Cache> cache;
  std::string uri;
  ScheduleState state;
  std::vector<unsigned> order; ///< op indices, last consumer first
  size_t position = 0;
  unsigned stepsOnOp = 0;
  bool inInterchange = false;
  std::vector<int64_t> placed; ///< loops chosen so far by level pointers
  double lastLogSpeedup = 0;
  bool done = false;

  Episode(std::shared_ptr<mlir::MLIRContext> context,
          std::shared_ptr<Program> program, TransformLimits limits)
      : context(std::move(context)), program(std::move(program)),
        state(this->program->ops, limits) {}
};

int LinalgEnv::typeIndex(const std::string &name) const {
  for (unsigned i = 0; i < types.size(); ++i)
    if (types[i]->name == name)
      return i;
  return -1;
}

LinalgEnv::LinalgEnv(EnvConfig config)
    : cfg(std::move(config)),
      types(actionTransformations(cfg.extraTransformations)) {
  envSpaces.observation.shape = {
      static_cast<int64_t>(2 * opFeatureSize(cfg) + cfg.maxLoops + 3)};
  envSpaces.observation.low = -64;
  envSpaces.observation.high = 64;
  auto &nvec = envSpaces.action.nvec;
  auto &names = envSpaces.action.names;
  nvec.push_back(types.size());
  names.push_back("transformation");
  for (unsigned l = 0; l < cfg.maxLoops; ++l) {
    nvec.push_back(cfg.tileSizes.size());
    names.push_back("tile" + std::to_string(l));
  }
  for (unsigned l = 0; l < cfg.maxLoops; ++l) {
    nvec.push_back(cfg.tileSizes.size());
    names.push_back("parallel" + std::to_string(l));
  }
  if (enumeratedInterchange()) {
    nvec.push_back(std::max(1u, cfg.maxLoops * (cfg.maxLoops - 1) / 2));
    names.push_back("interchange_candidate");
  } else {
    nvec.push_back(cfg.maxLoops);
    names.push_back("interchange_pointer");
  }
}

/// Candidate `c` of the enumerated interchange of `n` loops: the swap of
/// the c-th pair (i, j), i < j, in lexicographic order.
static std::vector<int64_t> swapCandidate(unsigned n, int64_t c) {
  std::vector<int64_t> permutation(n);
  for (unsigned l = 0; l < n; ++l)
    permutation[l] = l;
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j)
      if (c-- == 0) {
        std::swap(permutation[i], permutation[j]);
        return permutation;
      }
  return permutation;
}

LinalgEnv::~LinalgEnv() = default;

ActionLayout LinalgEnv::actionLayout() const {
  ActionLayout layout;
  layout.featureVersion = cfg.featureVersion;
  layout.opFeatureSize = opFeatureSize(cfg);
  layout.extraFeatures = cfg.maxLoops + 3;
  layout.interchangeFlag = 2 * layout.opFeatureSize + cfg.maxLoops;
  layout.numTypes = types.size();
  layout.maxLoops = cfg.maxLoops;
  layout.numTileSizes = cfg.tileSizes.size();
  layout.tileType = typeIndex("tile");
  layout.parallelizeType = typeIndex("parallelize");
  layout.fuseType = typeIndex("fuse");
  layout.interchangeType = typeIndex("interchange");
  for (unsigned t = 0; t < types.size(); ++t) {
    if (!types[t]->extra)
      continue;
    layout.extraTransformations.push_back(types[t]->name);
    if (types[t]->params == ParamKind::PerLoop ||
        types[t]->params == ParamKind::PerReductionLoop)
      layout.extraTileTypes.push_back(t);
    if (types[t]->params == ParamKind::PerParallelLoop)
      layout.extraParallelTypes.push_back(t);
  }
  layout.interchangeChoices = static_cast<int>(envSpaces.action.nvec.back());
  layout.enumeratedInterchange = enumeratedInterchange();
  return layout;
}

static std::string pathOf(const std::string &uri) {
  const std::string scheme = "file://";
  return uri.rfind(scheme, 0) == 0 ? uri.substr(scheme.size()) : uri;
}

Result<Observation> LinalgEnv::tryReset(const BenchmarkRef &benchmark,
                                        uint64_t seed) {
  auto obs = startEpisode(benchmark, seed);
  // A failed reset leaves no episode to step in.
  if (!obs)
    episode.reset();
  return obs;
}

Result<Observation> LinalgEnv::startEpisode(const BenchmarkRef &benchmark,
                                            uint64_t seed) {
  std::shared_ptr<mlir::MLIRContext> context;
  std::shared_ptr<Program> program;
  std::shared_ptr<measure::Cache> cache;
  if (episode) {
    context = episode->context;
    cache = episode->cache;
    if (episode->uri == benchmark.uri)
      program = episode->program;
  }
  if (!context)
    context = createContext();
  if (!program) {
    LoadOptions options;
    options.maxLoops = cfg.maxLoops;
    auto loaded = loadProgram(*context, pathOf(benchmark.uri), options);
    if (!loaded)
      return loaded.error();
    program = std::make_shared<Program>(loaded.takeValue());
  }
  if (!cache) {
    auto opened = measure::Cache::openOrDefault(cfg.cachePath);
    if (!opened)
      return opened.error();
    cache = std::move(*opened);
  }
  episode =
      std::make_unique<Episode>(context, program, cfg.measure.transformLimits);
  episode->cache = cache;
  episode->uri = benchmark.uri;
  for (unsigned i = program->ops.size(); i-- > 0;)
    episode->order.push_back(i);
  (void)seed; // the walk is deterministic; seeds the inputs via the config
  // Skip ops that admit nothing but stop.
  episode->position = 0;
  while (episode->position < episode->order.size()) {
    auto m = masks();
    if (std::count(m[0].begin(), m[0].end(), 1) > 1)
      break;
    ++episode->position;
  }
  if (episode->position >= episode->order.size())
    episode->done = true;
  return observe();
}

int LinalgEnv::currentOp() const {
  if (!episode || episode->done || episode->position >= episode->order.size())
    return -1;
  return episode->order[episode->position];
}

const Program *LinalgEnv::program() const {
  return episode ? episode->program.get() : nullptr;
}

const OpState *LinalgEnv::currentOpState() const {
  int index = currentOp();
  return index < 0 ? nullptr : &episode->state.ops[index];
}

Schedule LinalgEnv::schedule() const {
  Schedule schedule;
  if (!episode)
    return schedule;
  for (unsigned index : episode->order) {
    const OpState &op = episode->state.ops[index];
    if (!op.history.empty())
      schedule.ops.push_back({op.info->id, op.history});
  }
  return schedule;
}

/// Whether a step's sizes change nothing: each is 0 or its whole loop;
/// where the heads only pick loops, each is 0.
static bool isNoOp(const Transformation &kind, const OpState &op,
                   const std::vector<int64_t> &params) {
  if (!isPerLoop(kind.params))
    return false;
  if (kind.headsPickLoops)
    return std::all_of(params.begin(), params.end(),
                       [](int64_t p) { return p == 0; });
  return checkTileSizes(op, params).has_value();
}

/// A parameter choice that makes `kind` valid, if one exists: the largest
/// candidate below each allowed loop's range.
static std::optional<std::vector<int64_t>>
representativeParams(const EnvConfig &cfg, const OpState &op,
                     const Transformation &kind) {
  switch (kind.params) {
  case ParamKind::None:
    return std::vector<int64_t>{};
  case ParamKind::Permutation: {
    if (op.numLoops() < 2)
      return std::nullopt;
    std::vector<int64_t> perm(op.numLoops());
    for (unsigned i = 0; i < perm.size(); ++i)
      perm[i] = i;
    std::swap(perm[0], perm[1]);
    return perm;
  }
  case ParamKind::PerReductionLoop:
    // A split adds a loop, which the heads must still cover.
    if (op.numLoops() >= cfg.maxLoops)
      return std::nullopt;
    [[fallthrough]];
  case ParamKind::PerLoop:
  case ParamKind::PerParallelLoop: {
    bool parallelOnly = kind.params == ParamKind::PerParallelLoop;
    std::vector<int64_t> sizes(op.numLoops(), 0);
    for (unsigned l = 0; l < op.numLoops() && l < cfg.maxLoops; ++l) {
      if (parallelOnly && op.isReduction[l])
        continue;
      // Size 1 picks every loop, a register tile's loop of range 1 too.
      if (kind.headsPickLoops) {
        sizes[l] = 1;
        continue;
      }
      for (int64_t s : cfg.tileSizes)
        if (s > 0 && s < op.ranges[l])
          sizes[l] = std::max(sizes[l], s);
    }
    // Read the way a step reads the same head values.
    if (kind.fromHeads)
      kind.fromHeads(op, sizes);
    return sizes;
  }
  }
  return std::nullopt;
}

/// Whether some step of `kind` is valid on op `index`: the representative
/// parameters, or else sizes on one loop alone. A convolution or pooling
/// peels and packs its channels, never the loops that slide over its
/// window, which the representative also sizes.
static bool allowsSomeStep(const EnvConfig &cfg, const ScheduleState &state,
                           unsigned index, const Transformation &kind) {
  const OpState &op = state.ops[index];
  auto params = representativeParams(cfg, op, kind);
  if (!params)
    return false;
  if (!checkStep(state, index, kind, *params))
    return true;
  if (!isPerLoop(kind.params) || kind.headsPickLoops)
    return false;
  bool parallelOnly = kind.params == ParamKind::PerParallelLoop;
  for (unsigned l = 0; l < op.numLoops() && l < cfg.maxLoops; ++l) {
    if (parallelOnly && op.isReduction[l])
      continue;
    for (int64_t size : cfg.tileSizes) {
      if (size <= 0 || size > op.ranges[l])
        continue;
      std::vector<int64_t> sizes(op.numLoops(), 0);
      sizes[l] = size;
      if (kind.fromHeads)
        kind.fromHeads(op, sizes);
      if (!checkStep(state, index, kind, sizes))
        return true;
    }
  }
  return false;
}

std::vector<std::vector<uint8_t>> LinalgEnv::masks() const {
  std::vector<std::vector<uint8_t>> m;
  for (int64_t n : envSpaces.action.nvec)
    m.emplace_back(n, 0);
  int index = currentOp();
  if (index < 0) {
    for (auto &head : m)
      head[0] = 1;
    return m;
  }
  const OpState &op = episode->state.ops[index];
  const ScheduleState &state = episode->state;
  if (episode->inInterchange) {
    m[typeHead()][typeIndex("interchange")] = 1;
    for (unsigned l = 0; l < op.numLoops(); ++l)
      if (!llvm::is_contained(episode->placed, (int64_t)l))
        m[pointerHead()][l] = 1;
  } else {
    for (unsigned t = 0; t < types.size(); ++t)
      m[typeHead()][t] = allowsSomeStep(cfg, state, index, *types[t]);
    unsigned candidates = op.numLoops() * (op.numLoops() - 1) / 2;
    if (enumeratedInterchange() && candidates > 0)
      for (unsigned c = 0; c < candidates && c < m[pointerHead()].size(); ++c)
        m[pointerHead()][c] = 1;
    else
      m[pointerHead()][0] = 1;
  }
  for (unsigned l = 0; l < cfg.maxLoops; ++l) {
    for (size_t c = 0; c < cfg.tileSizes.size(); ++c) {
      bool fits = l < op.numLoops() && cfg.tileSizes[c] <= op.ranges[l];
      m[tileHead(l)][c] = c == 0 || fits;
      m[parallelHead(l)][c] = c == 0 || (fits && !op.isReduction[l]);
    }
  }
  return m;
}

Observation LinalgEnv::observe() const {
  Observation obs;
  obs.features.reserve(envSpaces.observation.size());
  int index = currentOp();
  const OpState *consumer = index >= 0 ? &episode->state.ops[index] : nullptr;
  const OpState *producer = nullptr;
  if (consumer && !consumer->info->producers.empty())
    producer = &episode->state.ops[consumer->info->producers.front()];
  appendOpFeatures(cfg, types, consumer, obs.features);
  appendOpFeatures(cfg, types, producer, obs.features);
  for (unsigned l = 0; l < cfg.maxLoops; ++l)
    obs.features.push_back(episode &&
                           llvm::is_contained(episode->placed, (int64_t)l));
  obs.features.push_back(episode && episode->inInterchange);
  obs.features.push_back(episode ? float(episode->stepsOnOp) / cfg.stepsPerOp
                                 : 0);
  obs.features.push_back(episode && !episode->order.empty()
                             ? float(episode->position) / episode->order.size()
                             : 1);
  obs.masks = masks();
  return obs;
}

double LinalgEnv::measureReward(Info &info) {
  Schedule current = schedule();
  info["schedule"] = current.str();
  auto result = measureSchedule(*episode->program, current, cfg.measure,
                                episode->cache.get());
  if (!result) {
    info["error"] = result.error().message;
    return cfg.failureReward;
  }
  info["measurement"] = result->toJson();
  if (!result->correct) {
    info["error"] = "the candidate's outputs differ from the baseline's";
    return cfg.failureReward;
  }
  return std::log(result->speedup);
}

void LinalgEnv::advanceOp() {
  episode->stepsOnOp = 0;
  episode->inInterchange = false;
  episode->placed.clear();
  ++episode->position;
  while (episode->position < episode->order.size()) {
    auto m = masks();
    if (std::count(m[0].begin(), m[0].end(), 1) > 1)
      return;
    ++episode->position;
  }
  episode->done = true;
}

StepResult LinalgEnv::finishStep(double reward, bool terminated, Info info) {
  StepResult result;
  result.reward = reward;
  result.terminated = terminated;
  if (terminated)
    episode->done = true;
  result.obs = observe();
  result.info = std::move(info);
  return result;
}

StepResult LinalgEnv::step(const Action &action) {
  Info info = Info::object();
  if (!episode || episode->done)
    return endWithError(kStepOutsideEpisode);
  auto fail = [&](const std::string &message) {
    info["error"] = message;
    return finishStep(cfg.failureReward, true, info);
  };
  if (auto problem = whyOutsideSpace(action, envSpaces.action))
    return fail(*problem);
  auto m = masks();
  for (unsigned h = 0; h < numHeads(); ++h) {
    int64_t v = action.values[h];
    if (!m[h][v])
      return fail("action head " + envSpaces.action.names[h] + " = " +
                  std::to_string(v) + " is masked");
  }

  unsigned index = currentOp();
  OpState &op = episode->state.ops[index];
  const Transformation &kind = *types[action.values[typeHead()]];
  std::optional<TransformStep> step;
  bool endsOp = false;
  if (episode->inInterchange) {
    episode->placed.push_back(action.values[pointerHead()]);
    if (episode->placed.size() + 1 >= op.numLoops()) {
      for (unsigned l = 0; l < op.numLoops(); ++l)
        if (!llvm::is_contained(episode->placed, (int64_t)l))
          episode->placed.push_back(l);
      bool identity = true;
      for (unsigned l = 0; l < op.numLoops(); ++l)
        identity &= episode->placed[l] == l;
      if (!identity)
        step = TransformStep{"interchange", episode->placed};
      episode->inInterchange = false;
      episode->placed.clear();
      ++episode->stepsOnOp;
    } else {
      return finishStep(0, false, info);
    }
  } else if (std::string(kind.name) == "interchange" &&
             enumeratedInterchange()) {
    step = TransformStep{
        "interchange",
        swapCandidate(op.numLoops(), action.values[pointerHead()])};
    ++episode->stepsOnOp;
  } else if (std::string(kind.name) == "interchange") {
    episode->inInterchange = true;
    episode->placed.clear();
    return finishStep(0, false, info);
  } else {
    std::vector<int64_t> params;
    if (isPerLoop(kind.params)) {
      bool parallel = kind.params == ParamKind::PerParallelLoop;
      for (unsigned l = 0; l < op.numLoops(); ++l)
        params.push_back(cfg.tileSizes[action.values[parallel ? parallelHead(l)
                                                              : tileHead(l)]]);
      if (kind.fromHeads)
        kind.fromHeads(op, params);
    }
    step = TransformStep{kind.name, params};
    ++episode->stepsOnOp;
    endsOp = std::string(kind.name) == "stop" ||
             std::string(kind.name) == "vectorize";
  }

  if (step) {
    const Transformation *t = findTransformation(step->name);
    if (isNoOp(*t, op, step->params)) {
      info["noop"] = true;
    } else if (Status s = applyStep(episode->state, index, *step); !s) {
      return fail(s.error().message);
    }
  }
  if (endsOp || episode->stepsOnOp >= cfg.stepsPerOp)
    advanceOp();
  else if (auto next = masks();
           std::count(next[0].begin(), next[0].end(), 1) <= 1)
    advanceOp();

  double reward = 0;
  if (cfg.reward == RewardMode::PerStep && step && !info.contains("noop")) {
    double logSpeedup = measureReward(info);
    reward = logSpeedup - episode->lastLogSpeedup;
    if (!info.contains("error"))
      episode->lastLogSpeedup = logSpeedup;
  }
  bool terminated = episode->done;
  if (terminated && cfg.reward == RewardMode::Final)
    reward = measureReward(info);
  if (terminated)
    info["schedule"] = schedule().str();
  return finishStep(reward, terminated, info);
}

std::unique_ptr<Env> LinalgEnv::fork() const {
  auto copy = std::make_unique<LinalgEnv>(cfg);
  if (episode)
    copy->episode = std::make_unique<Episode>(*episode);
  copy->resetError = resetError;
  return copy;
}

} // namespace rlopt::linalg
