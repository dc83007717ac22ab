#include "rlopt/agent/linalg/PolicyRunner.h"

#include "rlopt/agent/linalg/Batch.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <algorithm>

namespace rlopt::agent {

RunningPolicy::~RunningPolicy() {
  if (server)
    server->close();
}

Result<RunningPolicy> startPolicy(const std::string &path,
                                  const linalg::EnvConfig &env) {
  auto server = EnvServer::spawn(
      [env] { return std::unique_ptr<Env>(new linalg::LinalgEnv(env)); });
  if (!server)
    return server.error();
  RunningPolicy running;
  running.server = std::make_unique<EnvServer>(std::move(*server));
  auto policy = LinalgPolicy::load(path, linalg::LinalgEnv(env).actionLayout());
  if (!policy)
    return policy.error();
  running.policy = std::move(*policy);
  return running;
}

Result<PolicyEpisode> runPolicyEpisode(EnvServer &server, LinalgPolicy &policy,
                                       const std::string &program, bool greedy,
                                       uint64_t seed) {
  torch::manual_seed(seed);
  server.sendReset({program}, seed);
  auto obs = server.receiveReset();
  if (!obs)
    return obs.error();
  Observation current = std::move(*obs);
  while (true) {
    std::vector<uint8_t> mask = flatMask(current);
    torch::Tensor obsT = stackFloats({&current.features});
    torch::Tensor maskT = stackBytes({&mask});
    torch::Tensor row = policy.act(obsT, maskT, greedy).actions[0].contiguous();
    server.sendStep({std::vector<int64_t>(
        row.data_ptr<int64_t>(), row.data_ptr<int64_t>() + row.numel())});
    auto step = server.receiveStep();
    if (!step)
      return step.error();
    if (!step->terminated && !step->truncated) {
      current = std::move(step->obs);
      continue;
    }
    PolicyEpisode episode;
    episode.schedule = step->info.value("schedule", "");
    episode.error = step->info.value("error", "");
    if (step->info.contains("measurement")) {
      episode.measurement = step->info["measurement"];
      episode.correct = episode.measurement.value("correct", false);
      episode.speedup = episode.measurement.value("speedup", 0.0);
    }
    return episode;
  }
}

Result<PolicyEpisode> bestPolicySchedule(EnvServer &server,
                                         LinalgPolicy &policy,
                                         const std::string &program,
                                         int samples, uint64_t seed) {
  auto best = runPolicyEpisode(server, policy, program, true, seed);
  if (!best)
    return best;
  for (int i = 0; i < samples; ++i) {
    auto sampled =
        runPolicyEpisode(server, policy, program, false, seed + 1 + i);
    if (!sampled)
      return sampled;
    if (sampled->correct &&
        (!best->correct || sampled->speedup > best->speedup))
      best = sampled;
  }
  return best;
}

Result<std::vector<linalg::Schedule>>
proposePolicySchedules(EnvServer &server, LinalgPolicy &policy,
                       const std::string &program, int samples, uint64_t seed) {
  std::vector<std::string> seen;
  std::vector<linalg::Schedule> schedules;
  for (int i = 0; i <= samples; ++i) {
    auto episode = runPolicyEpisode(server, policy, program, i == 0, seed + i);
    if (!episode)
      return episode.error();
    if (!episode->error.empty() ||
        std::find(seen.begin(), seen.end(), episode->schedule) != seen.end())
      continue;
    seen.push_back(episode->schedule);
    if (auto parsed = linalg::parseSchedule(episode->schedule))
      schedules.push_back(*parsed);
  }
  return schedules;
}

} // namespace rlopt::agent
