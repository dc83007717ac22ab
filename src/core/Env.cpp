#include "rlopt/core/Env.h"

namespace rlopt {

Observation Env::reset(const BenchmarkRef &benchmark, uint64_t seed) {
  auto obs = tryReset(benchmark, seed);
  if (!obs) {
    resetError = obs.error();
    return {};
  }
  resetError.reset();
  return obs.takeValue();
}

StepResult Env::endWithError(const std::string &message) {
  StepResult result;
  result.terminated = true;
  result.info["error"] = message;
  return result;
}

StepResult Env::endWithError(const std::string &message, Observation obs) {
  StepResult result = endWithError(message);
  result.obs = std::move(obs);
  return result;
}

std::optional<std::string> Env::whyOutsideSpace(const Action &action,
                                                const MultiDiscrete &space) {
  if (action.values.size() != space.nvec.size())
    return "action has " + std::to_string(action.values.size()) +
           " values; expected " + std::to_string(space.nvec.size());
  for (size_t h = 0; h < space.nvec.size(); ++h) {
    int64_t value = action.values[h];
    if (value < 0 || value >= space.nvec[h]) {
      std::string head =
          h < space.names.size() ? space.names[h] : std::to_string(h);
      return "action head " + head + " = " + std::to_string(value) +
             " is out of range [0, " + std::to_string(space.nvec[h]) + ")";
    }
  }
  return std::nullopt;
}

Result<double> Env::probe(const Action &action) const {
  auto trial = fork();
  StepResult step = trial->step(action);
  if (auto error = step.info.find("error"); error != step.info.end())
    return makeError(error->is_string() ? error->get<std::string>()
                                        : error->dump());
  return step.reward;
}

} // namespace rlopt
