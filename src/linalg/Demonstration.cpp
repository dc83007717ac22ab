#include "rlopt/linalg/Demonstration.h"

#include "rlopt/linalg/Heuristic.h"

#include <algorithm>
#include <deque>

namespace rlopt::linalg {

nlohmann::json Demonstration::toJson() const {
  nlohmann::json steps = nlohmann::json::array();
  for (size_t i = 0; i < actions.size(); ++i)
    steps.push_back({{"features", observations[i].features},
                     {"masks", observations[i].masks},
                     {"action", actions[i].values},
                     {"reward", rewards[i]}});
  return {{"steps", steps},
          {"schedule", schedule},
          {"speedup", speedup},
          {"error", error}};
}

Demonstration Demonstration::fromJson(const nlohmann::json &json) {
  Demonstration demo;
  for (const nlohmann::json &step : json.at("steps")) {
    Observation obs;
    obs.features = step.at("features").get<std::vector<float>>();
    obs.masks = step.at("masks").get<std::vector<std::vector<uint8_t>>>();
    demo.observations.push_back(std::move(obs));
    demo.actions.push_back({step.at("action").get<std::vector<int64_t>>()});
    demo.rewards.push_back(step.at("reward").get<double>());
  }
  demo.schedule = json.value("schedule", "");
  demo.speedup = json.value("speedup", 0.0);
  demo.error = json.value("error", "");
  return demo;
}

static bool allowedBy(const Observation &obs, const Action &action) {
  if (action.values.size() != obs.masks.size())
    return false;
  for (size_t h = 0; h < obs.masks.size(); ++h) {
    int64_t v = action.values[h];
    if (v < 0 || v >= (int64_t)obs.masks[h].size() || !obs.masks[h][v])
      return false;
  }
  return true;
}

/// Index of the swap of loops i < j among the enumerated candidates of `n`
/// loops (pairs in lexicographic order); -1 when `perm` is not one swap.
static int64_t swapIndex(const std::vector<int64_t> &perm) {
  std::vector<int64_t> moved;
  for (size_t l = 0; l < perm.size(); ++l)
    if (perm[l] != (int64_t)l)
      moved.push_back(l);
  if (moved.size() != 2 || perm[moved[0]] != moved[1])
    return -1;
  int64_t n = perm.size(), i = moved[0], j = moved[1], index = 0;
  for (int64_t a = 0; a < i; ++a)
    index += n - 1 - a;
  return index + (j - i - 1);
}

std::vector<Action> actionsForStep(const LinalgEnv &env, const Observation &obs,
                                   const TransformStep &step) {
  int64_t type = env.typeIndex(step.name);
  if (type < 0)
    return {};
  Action first{std::vector<int64_t>(env.numHeads(), 0)};
  first.values[env.typeHead()] = type;
  const EnvConfig &cfg = env.config();
  std::vector<Action> actions;
  switch (env.transformationTypes()[type]->params) {
  case ParamKind::None:
    actions.push_back(first);
    break;
  case ParamKind::PerLoop:
  case ParamKind::PerParallelLoop:
  case ParamKind::PerReductionLoop: {
    if (step.params.size() > cfg.maxLoops)
      return {};
    const OpState *op = env.currentOpState();
    if (!op)
      return {};
    bool parallel =
        env.transformationTypes()[type]->params == ParamKind::PerParallelLoop;
    for (unsigned l = 0; l < step.params.size(); ++l) {
      unsigned head = parallel ? env.parallelHead(l) : env.tileHead(l);
      int64_t wanted = step.params[l];
      // A head that only picks its loop: the smallest size every loop
      // offers.
      if (env.transformationTypes()[type]->headsPickLoops) {
        for (size_t c = 1; c < cfg.tileSizes.size() && wanted > 0; ++c)
          if (obs.masks[head][c]) {
            first.values[head] = c;
            break;
          }
        continue;
      }
      // More than the loop is the same as 0: the loop stays untiled. The
      // whole loop stays the size it is when that is a candidate, so that
      // one rule ("tile by 1") gives one action whatever the range.
      if (l >= op->numLoops() || wanted > op->ranges[l])
        continue;
      // A size that divides its loop rounds to a candidate that does too:
      // full tiles are what lets convolutions vectorize.
      bool divides = wanted > 0 && op->ranges[l] % wanted == 0;
      size_t best = 0;
      for (size_t c = 1; c < cfg.tileSizes.size(); ++c) {
        int64_t size = cfg.tileSizes[c];
        if (size <= wanted && obs.masks[head][c] &&
            size > cfg.tileSizes[best] &&
            (!divides || op->ranges[l] % size == 0))
          best = c;
      }
      if (wanted == op->ranges[l] && cfg.tileSizes[best] != wanted)
        best = 0; // the whole loop, and no candidate is its size
      first.values[head] = best;
    }
    actions.push_back(first);
    break;
  }
  case ParamKind::Permutation: {
    const OpState *op = env.currentOpState();
    std::vector<int64_t> sorted = step.params;
    std::sort(sorted.begin(), sorted.end());
    for (size_t l = 0; l < sorted.size(); ++l)
      if (sorted[l] != (int64_t)l)
        return {};
    if (!op || sorted.size() != op->numLoops())
      return {};
    if (env.enumeratedInterchange()) {
      int64_t candidate = swapIndex(step.params);
      if (candidate < 0)
        return {};
      first.values[env.pointerHead()] = candidate;
      actions.push_back(first);
      break;
    }
    // Level pointers: the type, then the loop for positions 0 .. n-2 (the
    // environment places the last one).
    actions.push_back(first);
    for (size_t position = 0; position + 1 < step.params.size(); ++position) {
      Action pointer = first;
      pointer.values[env.pointerHead()] = step.params[position];
      actions.push_back(pointer);
    }
    break;
  }
  }
  if (!allowedBy(obs, actions.front()))
    return {};
  return actions;
}

/// The schedule's steps for the op with id `opId`.
static std::deque<TransformStep> stepsOf(const Schedule &schedule,
                                         const std::string &opId) {
  for (const OpSchedule &op : schedule.ops)
    if (op.opId == opId)
      return {op.steps.begin(), op.steps.end()};
  return {};
}

Result<Demonstration> demonstrateSchedule(LinalgEnv &env,
                                          const BenchmarkRef &benchmark,
                                          const ScheduleFor &scheduleFor) {
  auto reset = env.tryReset(benchmark, 0);
  if (!reset)
    return reset.error();
  auto wanted = scheduleFor(*env.program());
  if (!wanted)
    return makeError(benchmark.uri + ": " + wanted.error().message);

  Demonstration demo;
  Observation obs = std::move(*reset);
  int pendingOp = -1;
  std::deque<TransformStep> pending;
  while (env.currentOp() >= 0) {
    int op = env.currentOp();
    if (op != pendingOp) {
      pending = stepsOf(*wanted, env.program()->ops[op].id);
      pendingOp = op;
    }
    std::vector<Action> actions;
    while (actions.empty() && !pending.empty()) {
      actions = actionsForStep(env, obs, pending.front());
      pending.pop_front();
    }
    if (actions.empty())
      actions = actionsForStep(env, obs, {"stop", {}});
    if (actions.empty())
      return makeError(benchmark.uri + ": no action ends op " +
                       env.program()->ops[op].id);
    for (const Action &action : actions) {
      if (!allowedBy(obs, action))
        return makeError(benchmark.uri + ": a demonstrated action is masked");
      demo.observations.push_back(obs);
      demo.actions.push_back(action);
      StepResult result = env.step(action);
      demo.rewards.push_back(result.reward);
      obs = std::move(result.obs);
      if (!result.terminated && !result.truncated)
        continue;
      demo.schedule = result.info.value("schedule", "");
      demo.error = result.info.value("error", "");
      if (demo.error.empty() && result.info.contains("measurement"))
        demo.speedup = result.info["measurement"].value("speedup", 0.0);
      return demo;
    }
  }
  return demo;
}

Result<Demonstration> demonstrateHeuristic(LinalgEnv &env,
                                           const BenchmarkRef &benchmark,
                                           const measure::CpuTarget &target) {
  HeuristicOptions options;
  options.threads = env.config().measure.threads;
  options.limits = env.config().measure.transformLimits;
  options.target = target;
  options.extraTransformations = env.config().extraTransformations;
  return demonstrateSchedule(env, benchmark,
                             [&](const Program &program) -> Result<Schedule> {
                               return heuristicSchedule(program, options);
                             });
}

} // namespace rlopt::linalg
