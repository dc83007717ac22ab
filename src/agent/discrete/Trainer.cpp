#include "rlopt/agent/discrete/Trainer.h"

#include "Trainers.h"

#include "rlopt/agent/Cluster.h"
#include "rlopt/agent/RankExchange.h"

#include "rlopt/core/Json.h"

namespace rlopt::agent::discrete {

std::string AgentConfig::algorithm() const {
  return std::visit([](const auto &c) -> std::string { return c.algorithm; },
                    config);
}

nlohmann::json AgentConfig::toJson() const {
  nlohmann::json json =
      std::visit([](const auto &c) { return c.toJson(); }, config);
  json["algorithm"] = algorithm();
  return json;
}

namespace {

template <typename Config>
Result<AgentConfig> parseAs(const nlohmann::json &json,
                            const std::string &where) {
  auto config = Config::fromJson(json, where);
  if (!config)
    return config.error();
  return AgentConfig{*config};
}

} // namespace

Result<AgentConfig> AgentConfig::fromJson(const nlohmann::json &json,
                                          const std::string &where) {
  if (!json.is_object())
    return makeError(where + ": expected a JSON object");
  nlohmann::json fields = json;
  // A run's config.json records its environment; the commands read it.
  fields.erase("env");
  std::string name = PpoConfig::algorithm;
  if (json.contains("algorithm")) {
    if (!json["algorithm"].is_string())
      return makeError(where + ": algorithm: expected a string");
    name = json["algorithm"].get<std::string>();
    fields.erase("algorithm");
  }
  if (name == PpoConfig::algorithm)
    return parseAs<PpoConfig>(fields, where);
  if (name == A2cConfig::algorithm)
    return parseAs<A2cConfig>(fields, where);
  if (name == DqnConfig::algorithm)
    return parseAs<DqnConfig>(fields, where);
  if (name == SacConfig::algorithm)
    return parseAs<SacConfig>(fields, where);
  return makeError(where + ": algorithm: unknown algorithm '" + name +
                   "' (expected ppo, a2c, dqn or sac)");
}

Result<AgentConfig> AgentConfig::load(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  return fromJson(*json, path);
}

Status train(const AgentConfig &config, Env &env,
             const std::vector<BenchmarkRef> &benchmarks,
             const std::string &runDir, const TrainOptions &options) {
  Cluster &cluster = Cluster::get();
  if (cluster.distributed() && config.algorithm() != PpoConfig::algorithm)
    return makeError("under mpirun only ppo trains on several ranks; " +
                     config.algorithm() + " trains in one process");
  auto shape = trainingShape(env, benchmarks);
  if (!shape)
    return shape.error();
  if (!cluster.learner()) {
    const auto &ppo = std::get<PpoConfig>(config.config);
    EpisodeLoop loop(env, benchmarks, *shape, ppo.maxEpisodeSteps,
                     ppo.rewardClip);
    return serveRolloutRank(ppo, loop, cluster);
  }
  // However the learner ends, the rollout ranks are told to stop.
  struct StopRanks {
    Cluster &cluster;
    ~StopRanks() { stopRolloutRanks(cluster); }
  } stopRanks{cluster};
  return std::visit(
      [&](const auto &c) -> Status {
        auto run = openRun(c, env, benchmarks, runDir, options);
        if (!run)
          return run.error();
        EpisodeLoop loop(env, benchmarks, *shape, c.maxEpisodeSteps,
                         c.rewardClip);
        return train(c, **run, loop);
      },
      config.config);
}

} // namespace rlopt::agent::discrete
