#ifndef RLOPT_AGENT_DISCRETE_TRAINER_H
#define RLOPT_AGENT_DISCRETE_TRAINER_H

#include "rlopt/agent/discrete/A2c.h"
#include "rlopt/agent/discrete/Dqn.h"
#include "rlopt/agent/discrete/Ppo.h"
#include "rlopt/agent/discrete/Sac.h"

#include <variant>

namespace rlopt::agent::discrete {

/// One algorithm's config. In JSON, the algorithm's keys plus
/// `"algorithm": "ppo" | "a2c" | "dqn" | "sac"` (PPO when absent); this is
/// also the config.json a run directory holds.
struct AgentConfig {
  std::variant<PpoConfig, A2cConfig, DqnConfig, SacConfig> config;

  std::string algorithm() const;
  nlohmann::json toJson() const;
  static Result<AgentConfig> fromJson(const nlohmann::json &json,
                                      const std::string &where);
  static Result<AgentConfig> load(const std::string &path);
};

/// Trains the configured algorithm on `env`, whose action space must be a
/// single Discrete head, over episodes on `benchmarks`, in `runDir`.
Status train(const AgentConfig &config, Env &env,
             const std::vector<BenchmarkRef> &benchmarks,
             const std::string &runDir, const TrainOptions &options = {});

} // namespace rlopt::agent::discrete

#endif
