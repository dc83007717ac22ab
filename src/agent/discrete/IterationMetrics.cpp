#include "rlopt/agent/discrete/Training.h"

namespace rlopt::agent::discrete {

nlohmann::json IterationMetrics::toJson() const {
  nlohmann::json json = {
      {"iteration", iteration},    {"episodes", episodes},
      {"failures", failures},      {"steps", steps},
      {"total_steps", totalSteps}, {"mean_reward", meanReward},
      {"best_return", bestReturn}};
  if (geomeanSpeedup >= 0)
    json["geomean_speedup"] = geomeanSpeedup;
  for (const auto &[key, value] : learning)
    json[key] = value;
  json["time"] = {{"environment_s", environmentSeconds},
                  {"learn_s", learnSeconds},
                  {"elapsed_s", elapsedSeconds}};
  return json;
}

} // namespace rlopt::agent::discrete
