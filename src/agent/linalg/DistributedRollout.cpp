#include "rlopt/agent/linalg/DistributedRollout.h"

#include "rlopt/agent/RankExchange.h"
#include "rlopt/agent/TensorBytes.h"

#include <chrono>

namespace rlopt::agent {

Result<RolloutResult> rolloutOnRanks(Cluster &cluster, LinalgPolicy &policy,
                                     const std::vector<std::string> &programs,
                                     uint64_t seed, bool greedy,
                                     double timeoutSeconds) {
  auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> bytes = tensorBytes(policy.parameters());
  uint64_t fingerprint = bytesFingerprint(bytes);
  nlohmann::json weights = nlohmann::json::binary(std::move(bytes));
  int ranks = cluster.size() - 1;
  std::vector<nlohmann::json> shares;
  for (int r = 1; r <= ranks; ++r) {
    // Contiguous shares that differ by at most one episode.
    size_t begin = programs.size() * (r - 1) / ranks;
    size_t end = programs.size() * r / ranks;
    shares.push_back(
        {{"programs", std::vector<std::string>(programs.begin() + begin,
                                               programs.begin() + end)},
         {"seed", seed * 1000003 + r},
         {"greedy", greedy},
         {"weights", weights}});
  }
  auto answers = shareWork(cluster, shares, timeoutSeconds);
  if (!answers)
    return answers.error();

  RolloutResult result;
  for (size_t i = 0; i < answers->size(); ++i) {
    const nlohmann::json &answer = (*answers)[i];
    if (answer.value("weights_fingerprint", uint64_t(0)) != fingerprint)
      return makeError("rollout rank " + std::to_string(i + 1) +
                       " rolled out with other weights than the learner's");
    for (const auto &json : answer.value("trajectories", nlohmann::json())) {
      auto trajectory = Trajectory::fromJson(json);
      if (!trajectory)
        return makeError("rollout rank " + std::to_string(i + 1) + ": " +
                         trajectory.error().message);
      result.trajectories.push_back(std::move(*trajectory));
    }
    // The ranks run side by side: the slowest one's inference is the wait.
    result.inferenceSeconds =
        std::max(result.inferenceSeconds, answer.value("inference_s", 0.0));
    result.compileSeconds += answer.value("compile_s", 0.0);
  }
  result.environmentSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count() -
      result.inferenceSeconds;
  return result;
}

Status serveRollouts(Cluster &cluster, std::vector<EnvServer> &servers,
                     LinalgPolicy &policy, double timeoutSeconds) {
  auto answer = [&](const nlohmann::json &share) -> Result<nlohmann::json> {
    auto programs = share.at("programs").get<std::vector<std::string>>();
    if (Status s = loadTensorBytes(policy.parameters(),
                                   share.at("weights").get_binary());
        !s)
      return s.error();
    uint64_t fingerprint = tensorFingerprint(policy.parameters());
    nlohmann::json trajectories = nlohmann::json::array();
    if (programs.empty())
      return nlohmann::json{{"trajectories", trajectories},
                            {"weights_fingerprint", fingerprint}};
    uint64_t seed = share.at("seed").get<uint64_t>();
    std::mt19937_64 rng(seed);
    torch::manual_seed(seed);
    auto rolled = rollout(servers, policy, programs, programs.size(), rng,
                          share.at("greedy").get<bool>(), true);
    if (!rolled)
      return rolled.error();
    for (const Trajectory &t : rolled->trajectories)
      trajectories.push_back(t.toJson());
    return nlohmann::json{{"trajectories", trajectories},
                          {"weights_fingerprint", fingerprint},
                          {"inference_s", rolled->inferenceSeconds},
                          {"compile_s", rolled->compileSeconds}};
  };
  return serveShares(cluster, answer, timeoutSeconds);
}

} // namespace rlopt::agent
