// The LLVM pass-ordering environment.
#include "rlopt/passes/PassesEnv.h"
#include "rlopt/core/ConfigFields.h"
#include "rlopt/passes/Codegen.h"
#include "rlopt/passes/Features.h"
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassRunner.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cmath>

namespace rlopt::passes {

const std::vector<std::string> kObservationSpaces = {
    "InstCount",           "Autophase", "IrInstructionCount", "Ir",
    "ObjectTextSizeBytes", "Runtime",   "Buildtime"};

const std::vector<std::string> kRewardSpaces = {"IrInstructionCount",
                                                "IrInstructionCountNorm",
                                                "IrInstructionCountOz",
                                                "IrInstructionCountO3",
                                                "ObjectTextSizeBytes",
                                                "ObjectTextSizeNorm",
                                                "ObjectTextSizeOz",
                                                "ObjectTextSizeO3",
                                                "Runtime",
                                                "RuntimeNorm",
                                                "RuntimeOz",
                                                "RuntimeO3"};

namespace {

/// Splits a reward space into its metric and its normalization suffix.
struct RewardSpec {
  std::string metric; ///< IrInstructionCount, ObjectTextSizeBytes, Runtime
  std::string scale;  ///< "", "Norm", "Oz" or "O3"
};

std::optional<RewardSpec> parseReward(const std::string &name) {
  for (const char *metric : {"IrInstructionCount", "ObjectTextSize", "Runtime"})
    for (const char *scale : {"", "Norm", "Oz", "O3", "Bytes"}) {
      if (name != std::string(metric) + scale)
        continue;
      std::string metricName = metric;
      if (metricName == "ObjectTextSize")
        metricName = "ObjectTextSizeBytes";
      std::string suffix = scale;
      if (suffix == "Bytes")
        suffix.clear();
      if (metricName != "ObjectTextSizeBytes" && std::string(scale) == "Bytes")
        return std::nullopt;
      if (metricName == "ObjectTextSizeBytes" && std::string(scale).empty())
        return std::nullopt;
      return RewardSpec{metricName, suffix};
    }
  return std::nullopt;
}

bool isVectorSpace(const std::string &name) {
  return name == "InstCount" || name == "Autophase" ||
         name == "IrInstructionCount";
}

std::vector<int64_t> featureVector(const std::string &space,
                                   const llvm::Module &module) {
  if (space == "InstCount")
    return instCount(module);
  if (space == "Autophase")
    return autophase(module);
  return {instructionCount(module)};
}

size_t featureSize(const std::string &space) {
  if (space == "InstCount")
    return instCountNames().size();
  if (space == "Autophase")
    return autophaseNames().size();
  return 1;
}

std::string oneOf(const std::vector<std::string> &names) {
  std::string text;
  for (const auto &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

} // namespace

struct PassesEnv::Shared {
  std::shared_ptr<PassRunner> runner;
  std::unique_ptr<BenchmarkLoader> loader;
  std::map<std::string, double> baselines; ///< "uri|metric|pipeline"
};

template <typename Visit>
static void visitFields(PassesEnvConfig &c, Visit &&visit) {
  visit("observation", c.observation);
  visit("reward", c.reward);
  visit("episode_length", c.episodeLength);
  visit("mask_unchanged_passes", c.maskUnchangedPasses);
  visit("mask_revisiting_passes", c.maskRevisitingPasses);
  visit("pass_cpu_seconds", c.passCpuSeconds);
  visit("runtime_warmup_runs", c.runtime.warmupRuns);
  visit("runtime_timed_runs", c.runtime.timedRuns);
  visit("runtime_timeout_seconds", c.runtime.timeoutSeconds);
  visit("runtime_memory_mib", c.runtime.memoryMiB);
  visit("runtime_max_processes", c.runtime.maxProcesses);
}

Result<PassesEnvConfig> PassesEnvConfig::fromJson(const nlohmann::json &json,
                                                  const std::string &where) {
  return fieldsFromJson<PassesEnvConfig>(json, where);
}

Result<std::unique_ptr<PassesEnv>>
PassesEnv::create(const PassesEnvConfig &config,
                  const BenchmarkSources &sources) {
  if (!isVectorSpace(config.observation))
    return makeError("observation '" + config.observation +
                     "': agents need a feature vector: InstCount, Autophase "
                     "or IrInstructionCount");
  if (!parseReward(config.reward))
    return makeError("reward '" + config.reward + "': expected one of " +
                     oneOf(kRewardSpaces));
  if (config.episodeLength < 1)
    return makeError("episode_length must be at least 1");
  if (!(config.passCpuSeconds > 0) || !std::isfinite(config.passCpuSeconds))
    return makeError("pass_cpu_seconds must be a positive number of seconds");
  if (Status valid = validateRuntimeOptions(config.runtime); !valid)
    return valid.error();
  auto runner = PassRunner::create();
  if (!runner)
    return runner.error();
  auto shared = std::make_shared<Shared>();
  shared->runner = runner.takeValue();
  shared->runner->limitCpuSeconds(config.passCpuSeconds);
  shared->loader = std::make_unique<BenchmarkLoader>(sources);
  return std::unique_ptr<PassesEnv>(new PassesEnv(config, shared));
}

PassesEnv::PassesEnv(PassesEnvConfig config, std::shared_ptr<Shared> shared)
    : cfg(std::move(config)), shared(std::move(shared)) {
  envSpaces.observation.shape = {
      static_cast<int64_t>(featureSize(cfg.observation))};
  envSpaces.observation.low = 0;
  envSpaces.observation.high = std::numeric_limits<float>::max();
  envSpaces.action.nvec = {static_cast<int64_t>(passActions().size())};
  envSpaces.action.names = {"pass"};
}

PassesEnv::~PassesEnv() = default;

Observation PassesEnv::observation() {
  Observation obs;
  for (int64_t value : featureVector(cfg.observation, *current.module))
    obs.features.push_back(static_cast<float>(value));
  obs.masks = {actionMask()};
  return obs;
}

std::vector<uint8_t> PassesEnv::actionMask() const {
  const auto &actions = passActions();
  std::vector<uint8_t> mask(actions.size());
  for (size_t i = 0; i < actions.size(); ++i)
    mask[i] = actions[i].disabled.empty();
  if (cfg.maskUnchangedPasses || cfg.maskRevisitingPasses)
    transitions.maskKnown(mask, cfg.maskRevisitingPasses);
  return mask;
}

/// Names a module by its bitcode, which after reloadFromBitcode() is the
/// same bytes for the same module.
static uint64_t stateOf(const std::string &bitcode) {
  return llvm::xxh3_64bits(llvm::StringRef(bitcode));
}

Result<Observation> PassesEnv::tryReset(const BenchmarkRef &benchmark,
                                        uint64_t) {
  const std::string &uri = benchmark.uri;
  ended = true; // until the new episode has started
  auto loaded = shared->loader->load(uri);
  if (!loaded)
    return loaded.error();
  current = loaded.takeValue();
  shared->runner->adoptHostTarget(*current.module);
  if (Status canonical = reloadFromBitcode(); !canonical)
    return canonical.error();
  history.clear();
  transitions.reset(stateOf(snapshot));
  totalReward = 0;
  ended = false;

  RewardSpec spec = *parseReward(cfg.reward);
  auto initial = measureMetric(*current.module, spec.metric);
  if (!initial)
    return initial.error();
  previousMetric = *initial;
  rewardScale = 1;
  if (!spec.scale.empty()) {
    double reference = 0;
    if (spec.scale != "Norm") {
      auto optimized = baseline(
          spec.metric, spec.scale == "Oz" ? "default<Oz>" : "default<O3>");
      if (!optimized)
        return optimized.error();
      reference = *optimized;
    }
    // When the pipeline does not improve on the start, fall back to the
    // initial value so rewards stay finite.
    double gain = *initial - reference;
    rewardScale = gain > 0 ? gain : std::max(*initial, 1e-9);
  }
  return observation();
}

StepResult PassesEnv::step(const Action &action) {
  StepResult result;
  if (ended || !current.module)
    return endWithError(kStepOutsideEpisode);
  const auto &actions = passActions();
  if (auto problem = whyOutsideSpace(action, envSpaces.action)) {
    ended = true;
    return endWithError(*problem, observation());
  }
  int index = static_cast<int>(action.values[0]);
  const std::string &pass = actions[index].name;
  if (!actions[index].disabled.empty()) {
    ended = true;
    return endWithError("pass '" + pass +
                            "' is disabled: " + actions[index].disabled,
                        observation());
  }
  result.info["pass"] = pass;
  // Episodes are deterministic, so a pass that left this very module
  // unchanged would do so again: it is not run twice.
  bool knownNoOp = transitions.knownUnchanged(index);
  auto changed = knownNoOp ? Result<bool>(false)
                           : shared->runner->run(*current.module,
                                                 actions[index].pipelineText());
  history.push_back(index);
  if (!changed) {
    // The module may be half-transformed: the episode ends here.
    ended = true;
    result.terminated = true;
    result.info["error"] = changed.error().message;
    // After a crash the module and its context may be corrupt (see
    // PassRunner::lastRunCrashed): both are leaked.
    if (shared->runner->lastRunCrashed())
      current.module.release();
    return result;
  }
  if (!knownNoOp) {
    // The bytes before the pass; reloadFromBitcode() replaces them.
    std::string before = std::move(snapshot);
    if (Status reloaded = reloadFromBitcode(); !reloaded) {
      ended = true;
      result.terminated = true;
      result.info["error"] = reloaded.error().message;
      return result;
    }
    // The bitcode tells exactly whether anything changed, attributes and
    // metadata included, which the structural hash does not cover. A module
    // read from bitcode writes back the same bytes; one fresh from a pass is
    // not yet in that fixed point (its constants are ordered as the pass
    // left them), so only the bytes written from the module just read back
    // compare with `before`.
    if (before != snapshot)
      snapshot = writeCanonicalBitcode(*current.module);
    changed = before != snapshot;
  }
  transitions.record(index, *changed ? stateOf(snapshot) : transitions.state());
  result.info["changed"] = *changed;

  RewardSpec spec = *parseReward(cfg.reward);
  double value = previousMetric;
  if (*changed || spec.metric == "Runtime") {
    auto measured = measureMetric(*current.module, spec.metric);
    if (!measured) {
      ended = true;
      result.terminated = true;
      result.info["error"] = measured.error().message;
      return result;
    }
    value = *measured;
  }
  result.reward = (previousMetric - value) / rewardScale;
  previousMetric = value;
  totalReward += result.reward;
  result.info[spec.metric] = value;
  result.obs = observation();
  if (static_cast<int>(history.size()) >= cfg.episodeLength) {
    ended = true;
    result.truncated = true;
  }
  return result;
}

Result<IsolatedModule> PassesEnv::copyOfModule() const {
  return snapshot.empty() ? copyModule(*current.module)
                          : readModuleBitcode(snapshot, current.uri);
}

std::unique_ptr<Env> PassesEnv::fork() const {
  std::unique_ptr<PassesEnv> copy(new PassesEnv(cfg, shared));
  copy->current.uri = current.uri;
  // An exact copy (use-list order included) in a context of its own: a
  // module cloned into the parent's context with llvm::CloneModule has its
  // use lists in another order, and passes that walk them then transform the
  // fork differently from the parent.
  if (current.module) {
    auto copied = copyOfModule();
    if (copied)
      copy->current.module = copied.takeValue();
    else
      copy->resetError = copied.error();
  }
  copy->snapshot = snapshot;
  copy->current.runnable = current.runnable;
  copy->current.run = current.run;
  copy->current.runSpecified = current.runSpecified;
  copy->transitions = transitions;
  copy->current.expectedOutput = current.expectedOutput;
  copy->history = history;
  copy->totalReward = totalReward;
  copy->previousMetric = previousMetric;
  copy->rewardScale = rewardScale;
  copy->ended = ended;
  return copy;
}

Result<double> PassesEnv::probe(const Action &action) const {
  RewardSpec spec = *parseReward(cfg.reward);
  // Runtime is measured, not computed: the default fork and step.
  if (ended || !current.module || spec.metric == "Runtime" ||
      whyOutsideSpace(action, envSpaces.action))
    return Env::probe(action);
  int index = static_cast<int>(action.values[0]);
  if (!passActions()[index].disabled.empty())
    return Env::probe(action); // the step's error
  if (transitions.knownUnchanged(index))
    return 0.0;
  // The copy the step would run the pass on: the module read from its
  // bitcode, so the pass sees what it would see in step().
  auto copy = copyOfModule();
  if (!copy)
    return copy.error();
  auto ran = shared->runner->run(**copy, passActions()[index].pipelineText());
  if (!ran) {
    if (shared->runner->lastRunCrashed())
      copy->release(); // its context may be corrupt (see step())
    return ran.error();
  }
  auto value = measureMetric(**copy, spec.metric);
  if (!value)
    return value.error();
  return (previousMetric - *value) / rewardScale;
}

/// After a pass the module carries history that its IR does not show and a
/// copy would lack: counters that pick the suffix of the next clashing value
/// name, dead constants left on use lists, attributes bitcode cannot hold
/// (align 4294967296), and use lists in an order that can differ from run
/// to run (newgvn on floyd). Passes see that history, so a fork or a replay
/// would drift from this module. Continuing from the module's canonical
/// bitcode, read into a fresh context, leaves nothing but the IR for the
/// next pass to see.
Status PassesEnv::reloadFromBitcode() {
  std::string bitcode = writeCanonicalBitcode(*current.module);
  auto reloaded = readModuleBitcode(bitcode, current.uri);
  if (!reloaded)
    return reloaded.error();
  current.module = reloaded.takeValue();
  snapshot = std::move(bitcode);
  return Status::success();
}

Result<double> PassesEnv::measureMetric(const llvm::Module &module,
                                        const std::string &metricName) const {
  if (metricName == "IrInstructionCount")
    return static_cast<double>(instructionCount(module));
  if (metricName == "ObjectTextSizeBytes") {
    auto object = emitObject(module, shared->runner->targetMachine());
    if (!object)
      return object.error();
    auto bytes = textSectionBytes(*object);
    if (!bytes)
      return bytes.error();
    return static_cast<double>(*bytes);
  }
  if (metricName == "Runtime") {
    if (!current.runnable)
      return makeError(current.uri + ": not runnable (no main), so it has "
                                     "no Runtime");
    auto runtime = measureRuntime(module, shared->runner->targetMachine(),
                                  current.run, cfg.runtime);
    if (!runtime)
      return runtime.error();
    return runtime->median;
  }
  return makeError("unknown metric '" + metricName + "'");
}

Result<double> PassesEnv::metric(const std::string &metricName) {
  if (!current.module)
    return makeError(std::string("metric: ") + kNoEpisode);
  return measureMetric(*current.module, metricName);
}

Result<double> PassesEnv::baseline(const std::string &metricName,
                                   const std::string &pipeline) {
  if (!current.module)
    return makeError(std::string("baseline: ") + kNoEpisode);
  std::string key = current.uri + "|" + metricName + "|" + pipeline;
  auto cached = shared->baselines.find(key);
  if (cached != shared->baselines.end() && metricName != "Runtime")
    return cached->second;
  auto pristine = shared->loader->load(current.uri);
  if (!pristine)
    return pristine.error();
  shared->runner->adoptHostTarget(*pristine->module);
  if (pipeline != "none") {
    auto ran = shared->runner->run(*pristine->module, pipeline);
    if (!ran) {
      if (shared->runner->lastRunCrashed())
        pristine->module.release();
      return ran.error();
    }
  }
  auto value = measureMetric(*pristine->module, metricName);
  if (!value)
    return value.error();
  shared->baselines[key] = *value;
  return *value;
}

Result<nlohmann::json> PassesEnv::observe(const std::string &space) {
  if (!current.module)
    return makeError(std::string("observe: ") + kNoEpisode);
  const llvm::Module &module = *current.module;
  if (space == "InstCount" || space == "Autophase")
    return nlohmann::json(featureVector(space, module));
  if (space == "IrInstructionCount")
    return nlohmann::json(instructionCount(module));
  if (space == "Ir")
    return nlohmann::json(printModule(module));
  if (space == "ObjectTextSizeBytes") {
    auto bytes = measureMetric(module, space);
    if (!bytes)
      return bytes.error();
    return nlohmann::json(static_cast<int64_t>(*bytes));
  }
  if (space == "Runtime" || space == "Buildtime") {
    if (!current.runnable)
      return makeError(current.uri + ": not runnable (no main)");
    auto runtime = measureRuntime(module, shared->runner->targetMachine(),
                                  current.run, cfg.runtime);
    if (!runtime)
      return runtime.error();
    if (space == "Buildtime")
      return nlohmann::json(runtime->buildSeconds);
    return nlohmann::json{{"median", runtime->median},
                          {"iqr", runtime->iqr},
                          {"samples", runtime->samples}};
  }
  return makeError("observation space '" + space + "': expected one of " +
                   oneOf(kObservationSpaces));
}

Result<ValidationMode> parseValidationMode(const std::string &text) {
  if (text == "replay")
    return ValidationMode::Replay;
  if (text == "run")
    return ValidationMode::Run;
  if (text == "auto")
    return ValidationMode::Auto;
  return makeError("validation '" + text + "': expected replay, run or auto");
}

std::string Validation::checked() const {
  std::string what = "replay (IR and reward)";
  if (outputChecked)
    what += ", output (stdout and output files)";
  return what;
}

nlohmann::json Validation::toJson() const {
  nlohmann::json out = {{"ok", ok()},
                        {"checked", checked()},
                        {"replay_matches", replayMatches},
                        {"output_checked", outputChecked},
                        {"output_matches", outputMatches},
                        {"errors", errors}};
  if (!notChecked.empty())
    out["output_not_checked"] = notChecked;
  return out;
}

Validation PassesEnv::validate(ValidationMode mode) {
  Validation result;
  if (!current.module) {
    result.errors.push_back(std::string("validate: ") + kNoEpisode);
    return result;
  }
  // 1. Replay: the same actions from the start give the same IR and reward.
  PassesEnv replay(cfg, shared);
  if (auto started = replay.tryReset({current.uri}, 0); !started) {
    result.errors.push_back("replay: " + started.error().message);
    return result;
  }
  for (int action : history) {
    StepResult step = replay.step(Action{{action}});
    if (step.info.contains("error")) {
      result.errors.push_back("replay: " +
                              step.info["error"].get<std::string>());
      return result;
    }
  }
  bool sameIr = printModule(replay.module()) == printModule(*current.module);
  // Runtime rewards are measurements, so only the IR must reproduce.
  bool sameReward = parseReward(cfg.reward)->metric == "Runtime" ||
                    std::abs(replay.episodeReward() - totalReward) <= 1e-9;
  result.replayMatches = sameIr && sameReward;
  if (!sameIr)
    result.errors.push_back("replay: the actions produced different IR");
  if (!sameReward)
    result.errors.push_back("replay: reward " +
                            std::to_string(replay.episodeReward()) +
                            " differs from " + std::to_string(totalReward));
  if (mode == ValidationMode::Replay) {
    result.notChecked = "not asked for (replay only)";
    return result;
  }

  // 2. Semantics: the optimized program prints what the unoptimized one does.
  if (!current.runnable) {
    result.notChecked = "the program has no main";
    if (mode == ValidationMode::Run)
      result.errors.push_back("run: " + current.uri +
                              " has no main, so it cannot run");
    return result;
  }
  auto pristine = shared->loader->load(current.uri);
  if (!pristine) {
    result.errors.push_back(pristine.error().message);
    return result;
  }
  shared->runner->adoptHostTarget(*pristine->module);
  RuntimeOptions once = cfg.runtime;
  once.warmupRuns = 0;
  once.timedRuns = 1;
  auto &machine = shared->runner->targetMachine();
  auto reference =
      measureRuntime(*pristine->module, machine, current.run, once);
  if (!reference) {
    std::string why = "unoptimized build: " + reference.error().message;
    if (mode == ValidationMode::Auto && !current.runSpecified) {
      // Most likely it needs arguments or inputs nobody gave it.
      result.notChecked = why + " (a benchmark spec can give its arguments "
                                "and inputs)";
      return result;
    }
    result.errors.push_back(why);
    return result;
  }
  auto optimized = measureRuntime(*current.module, machine, current.run, once);
  result.outputChecked = true;
  if (!optimized) {
    result.errors.push_back("optimized build: " + optimized.error().message);
    return result;
  }
  result.outputMatches = optimized->output == reference->output;
  if (!result.outputMatches)
    result.errors.push_back("output differs from the unoptimized build");
  if (current.expectedOutput &&
      reference->stdoutText != *current.expectedOutput) {
    result.outputMatches = false;
    result.errors.push_back("unoptimized output differs from the expected "
                            "output of the benchmark");
  }
  return result;
}

} // namespace rlopt::passes
