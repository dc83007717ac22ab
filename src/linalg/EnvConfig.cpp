#include "rlopt/linalg/EnvConfig.h"

#include "rlopt/core/ConfigFields.h"
#include "rlopt/linalg/Features.h"
#include "rlopt/linalg/Transformation.h"

namespace rlopt::linalg {

namespace {
/// 1 TiB: more than any machine here, and far from overflowing bytes.
constexpr uint64_t kMaxMemoryLimitMb = uint64_t(1) << 20;

/// The config as its JSON spells it: the reward as a word and the memory
/// limit in MiB, converted to and from the config around the field table.
struct JsonForm {
  EnvConfig c;
  std::string reward = "final";
  uint64_t memoryLimitMb = EnvConfig().measure.limits.memoryBytes >> 20;
};

template <typename Visit> void visitFields(JsonForm &f, Visit &&visit) {
  EnvConfig &c = f.c;
  visit("max_loops", c.maxLoops);
  visit("max_operands", c.maxOperands);
  visit("max_rank", c.maxRank);
  visit("tile_sizes", c.tileSizes);
  visit("steps_per_op", c.stepsPerOp);
  visit("reward", f.reward);
  visit("failure_reward", c.failureReward);
  visit("threads", c.measure.threads);
  visit("repetitions", c.measure.timing.repetitions);
  visit("max_rounds", c.measure.timing.maxRounds);
  visit("max_spread", c.measure.timing.maxSpread);
  visit("timeout_seconds", c.measure.limits.timeoutSeconds);
  visit("memory_limit_mb", f.memoryLimitMb);
  visit("max_vector_elements", c.measure.transformLimits.maxVectorElements);
  visit("cache", c.cachePath);
  visit("seed", c.measure.seed);
  visit("interchange", c.interchange);
  visit("extra_transformations", c.extraTransformations);
  visit("feature_version", c.featureVersion);
}
} // namespace

Result<EnvConfig> EnvConfig::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  auto read = configFromJson<JsonForm>(
      json, where, [](JsonForm &f, auto &&visit) { visitFields(f, visit); });
  if (!read)
    return read.error();
  EnvConfig c = read->c;
  const std::string &reward = read->reward;
  uint64_t memoryMb = read->memoryLimitMb;
  auto fail = [&](const std::string &what) {
    return makeError(where + ": " + what);
  };

  if (reward == "final")
    c.reward = RewardMode::Final;
  else if (reward == "per_step")
    c.reward = RewardMode::PerStep;
  else if (reward == "none")
    c.reward = RewardMode::None;
  else
    return fail("reward: expected \"final\", \"per_step\" or \"none\", got \"" +
                reward + "\"");
  if (c.interchange != "pointers" && c.interchange != "enumerated")
    return fail("interchange: expected \"pointers\" or \"enumerated\", got \"" +
                c.interchange + "\"");
  for (size_t i = 0; i < c.extraTransformations.size(); ++i) {
    const std::string &name = c.extraTransformations[i];
    const Transformation *t = findTransformation(name);
    if (!t || !t->extra)
      return fail("extra_transformations: \"" + name +
                  "\" is not an opt-in transformation (known: " +
                  extraTransformationNames() + ")");
    for (size_t j = 0; j < i; ++j)
      if (c.extraTransformations[j] == name)
        return fail("extra_transformations: \"" + name + "\" is listed twice");
  }
  if (c.maxLoops < 1 || c.maxLoops > 16)
    return fail("max_loops: expected 1..16");
  c.measure.transformLimits.maxLoops = c.maxLoops;
  if (c.tileSizes.empty() || c.tileSizes[0] != 0)
    return fail("tile_sizes: the first candidate must be 0 (untiled)");
  for (size_t i = 1; i < c.tileSizes.size(); ++i)
    if (c.tileSizes[i] <= 0)
      return fail("tile_sizes: candidates after the first must be positive");
  if (c.featureVersion < 1 || c.featureVersion > kLatestFeatureVersion)
    return fail("feature_version: expected 1.." +
                std::to_string(kLatestFeatureVersion));
  if (c.stepsPerOp < 1)
    return fail("steps_per_op: expected at least 1");
  if (c.measure.threads < 1)
    return fail("threads: expected at least 1");
  if (c.measure.timing.repetitions < 1)
    return fail("repetitions: expected at least 1");
  if (c.measure.limits.timeoutSeconds <= 0)
    return fail("timeout_seconds: expected a positive number");
  // The worker runs generated code: its memory limit cannot be switched off.
  if (memoryMb < 1 || memoryMb > kMaxMemoryLimitMb)
    return fail("memory_limit_mb: expected 1.." +
                std::to_string(kMaxMemoryLimitMb) +
                " (the limit cannot be switched off)");
  c.measure.limits.memoryBytes = memoryMb << 20;
  return c;
}

Result<EnvConfig> EnvConfig::load(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  return fromJson(*json, path);
}

nlohmann::json EnvConfig::toJson() const {
  const char *rewardWord = reward == RewardMode::Final     ? "final"
                           : reward == RewardMode::PerStep ? "per_step"
                                                           : "none";
  JsonForm form{*this, rewardWord, measure.limits.memoryBytes >> 20};
  return configToJson(form,
                      [](JsonForm &f, auto &&visit) { visitFields(f, visit); });
}

} // namespace rlopt::linalg
