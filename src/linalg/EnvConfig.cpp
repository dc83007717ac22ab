#include "rlopt/linalg/EnvConfig.h"

#include "rlopt/core/Json.h"

#include <set>

namespace rlopt::linalg {

namespace {
/// 1 TiB: more than any machine here, and far from overflowing bytes.
constexpr uint64_t kMaxMemoryLimitMb = uint64_t(1) << 20;
} // namespace

Result<EnvConfig> EnvConfig::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  if (!json.is_object())
    return makeError(where + ": expected a JSON object");
  static const std::set<std::string> known = {
      "max_loops",       "max_operands",
      "max_rank",        "tile_sizes",
      "steps_per_op",    "reward",
      "failure_reward",  "threads",
      "repetitions",     "max_rounds",
      "max_spread",      "timeout_seconds",
      "memory_limit_mb", "max_vector_elements",
      "cache",           "seed",
      "interchange"};
  for (auto it = json.begin(); it != json.end(); ++it)
    if (!known.count(it.key()))
      return makeError(where + ": unknown key '" + it.key() + "'");

  EnvConfig c;
  std::string reward = "final";
  uint64_t memoryMb = c.measure.limits.memoryBytes >> 20;
  for (Status s : {
           readField(json, "max_loops", c.maxLoops, where),
           readField(json, "max_operands", c.maxOperands, where),
           readField(json, "max_rank", c.maxRank, where),
           readField(json, "tile_sizes", c.tileSizes, where),
           readField(json, "steps_per_op", c.stepsPerOp, where),
           readField(json, "reward", reward, where),
           readField(json, "failure_reward", c.failureReward, where),
           readField(json, "threads", c.measure.threads, where),
           readField(json, "repetitions", c.measure.timing.repetitions, where),
           readField(json, "max_rounds", c.measure.timing.maxRounds, where),
           readField(json, "max_spread", c.measure.timing.maxSpread, where),
           readField(json, "timeout_seconds", c.measure.limits.timeoutSeconds,
                     where),
           readField(json, "memory_limit_mb", memoryMb, where),
           readField(json, "max_vector_elements",
                     c.measure.transformLimits.maxVectorElements, where),
           readField(json, "cache", c.cachePath, where),
           readField(json, "seed", c.measure.seed, where),
           readField(json, "interchange", c.interchange, where),
       })
    if (!s)
      return s.error();

  if (reward == "final")
    c.reward = RewardMode::Final;
  else if (reward == "per_step")
    c.reward = RewardMode::PerStep;
  else
    return makeError(where +
                     ": reward: expected \"final\" or \"per_step\", "
                     "got \"" +
                     reward + "\"");
  if (c.interchange != "pointers" && c.interchange != "enumerated")
    return makeError(where +
                     ": interchange: expected \"pointers\" or "
                     "\"enumerated\", got \"" +
                     c.interchange + "\"");
  if (c.maxLoops < 1 || c.maxLoops > 16)
    return makeError(where + ": max_loops: expected 1..16");
  if (c.tileSizes.empty() || c.tileSizes[0] != 0)
    return makeError(where + ": tile_sizes: the first candidate must be 0 "
                             "(untiled)");
  for (size_t i = 1; i < c.tileSizes.size(); ++i)
    if (c.tileSizes[i] <= 0)
      return makeError(where + ": tile_sizes: candidates after the first "
                               "must be positive");
  if (c.stepsPerOp < 1)
    return makeError(where + ": steps_per_op: expected at least 1");
  if (c.measure.threads < 1)
    return makeError(where + ": threads: expected at least 1");
  if (c.measure.timing.repetitions < 1)
    return makeError(where + ": repetitions: expected at least 1");
  if (c.measure.limits.timeoutSeconds <= 0)
    return makeError(where + ": timeout_seconds: expected a positive number");
  // The worker runs generated code: its memory limit cannot be switched off.
  if (memoryMb < 1 || memoryMb > kMaxMemoryLimitMb)
    return makeError(where + ": memory_limit_mb: expected 1.." +
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
  return {{"max_loops", maxLoops},
          {"max_operands", maxOperands},
          {"max_rank", maxRank},
          {"tile_sizes", tileSizes},
          {"steps_per_op", stepsPerOp},
          {"reward", reward == RewardMode::Final ? "final" : "per_step"},
          {"failure_reward", failureReward},
          {"threads", measure.threads},
          {"repetitions", measure.timing.repetitions},
          {"max_rounds", measure.timing.maxRounds},
          {"max_spread", measure.timing.maxSpread},
          {"timeout_seconds", measure.limits.timeoutSeconds},
          {"memory_limit_mb", measure.limits.memoryBytes >> 20},
          {"max_vector_elements", measure.transformLimits.maxVectorElements},
          {"cache", cachePath},
          {"seed", measure.seed},
          {"interchange", interchange}};
}

} // namespace rlopt::linalg
