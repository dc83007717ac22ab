// Messages are MessagePack (nlohmann::json): the learner's work order with
// the weights as one binary blob of float32, and the rank's trajectories.
#include "rlopt/agent/linalg/DistributedRollout.h"

#include <chrono>
#include <cstring>

namespace rlopt::agent {

namespace {

std::vector<uint8_t> packWeights(LinalgPolicy &policy) {
  std::vector<uint8_t> bytes;
  for (const torch::Tensor &parameter : policy.parameters()) {
    torch::Tensor flat = parameter.detach().to(torch::kFloat).contiguous();
    const auto *data = reinterpret_cast<const uint8_t *>(flat.data_ptr());
    bytes.insert(bytes.end(), data, data + flat.numel() * sizeof(float));
  }
  return bytes;
}

Status unpackWeights(LinalgPolicy &policy, const std::vector<uint8_t> &bytes) {
  torch::NoGradGuard noGrad;
  size_t offset = 0;
  for (torch::Tensor parameter : policy.parameters()) {
    size_t size = parameter.numel() * sizeof(float);
    if (offset + size > bytes.size())
      return makeError("the learner's weights do not fit this rank's policy");
    torch::Tensor values =
        torch::from_blob(const_cast<uint8_t *>(bytes.data() + offset),
                         parameter.sizes(), torch::kFloat);
    parameter.copy_(values);
    offset += size;
  }
  if (offset != bytes.size())
    return makeError("the learner's weights do not fit this rank's policy");
  return Status::success();
}

} // namespace

Result<RolloutResult> rolloutOnRanks(Cluster &cluster, LinalgPolicy &policy,
                                     const std::vector<std::string> &programs,
                                     uint64_t seed, bool greedy,
                                     double timeoutSeconds) {
  auto start = std::chrono::steady_clock::now();
  int ranks = cluster.size() - 1;
  nlohmann::json work = {
      {"stop", false},
      {"greedy", greedy},
      {"weights", nlohmann::json::binary(packWeights(policy))}};
  size_t begin = 0;
  for (int r = 1; r <= ranks; ++r) {
    // Shares differ by at most one episode.
    size_t end = programs.size() * r / ranks;
    work["programs"] = std::vector<std::string>(programs.begin() + begin,
                                                programs.begin() + end);
    work["seed"] = seed * 1000003 + r;
    std::vector<uint8_t> bytes = nlohmann::json::to_msgpack(work);
    if (Status s = cluster.send(r, Cluster::Work,
                                std::string(bytes.begin(), bytes.end()),
                                timeoutSeconds);
        !s)
      return makeError("rollout " + s.error().message);
    begin = end;
  }

  RolloutResult result;
  for (int r = 1; r <= ranks; ++r) {
    auto received = cluster.receive(r, Cluster::Episodes, timeoutSeconds);
    if (!received)
      return makeError("rollout " + received.error().message);
    nlohmann::json answer =
        nlohmann::json::from_msgpack(*received, true, false);
    if (answer.is_discarded() || !answer.is_object())
      return makeError("rollout rank " + std::to_string(r) +
                       " sent a malformed answer");
    if (answer.contains("error"))
      return makeError("rollout rank " + std::to_string(r) + ": " +
                       answer["error"].get<std::string>());
    for (const auto &json : answer.value("trajectories", nlohmann::json())) {
      auto trajectory = Trajectory::fromJson(json);
      if (!trajectory)
        return makeError("rollout rank " + std::to_string(r) + ": " +
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

void stopRolloutRanks(Cluster &cluster) {
  std::vector<uint8_t> bytes = nlohmann::json::to_msgpack({{"stop", true}});
  for (int r = 1; r < cluster.size(); ++r)
    (void)cluster.send(r, Cluster::Work,
                       std::string(bytes.begin(), bytes.end()), 10);
}

Status serveRollouts(Cluster &cluster, std::vector<EnvServer> &servers,
                     LinalgPolicy &policy, double timeoutSeconds) {
  while (true) {
    auto received = cluster.receive(0, Cluster::Work, timeoutSeconds);
    if (!received)
      return makeError("the learner (" + received.error().message + ")");
    nlohmann::json work = nlohmann::json::from_msgpack(*received, true, false);
    if (work.is_discarded() || !work.is_object())
      return makeError("malformed work from the learner");
    if (work.value("stop", true))
      return Status::success();

    nlohmann::json answer;
    std::vector<std::string> programs;
    Status loaded = Status::success();
    try {
      programs = work.at("programs").get<std::vector<std::string>>();
      loaded = unpackWeights(policy, work.at("weights").get_binary());
      (void)work.at("seed").get<uint64_t>();
      (void)work.at("greedy").get<bool>();
    } catch (const nlohmann::json::exception &) {
      loaded = makeError("malformed work from the learner");
    }
    if (!loaded) {
      answer = {{"error", loaded.error().message}};
    } else if (!programs.empty()) {
      uint64_t seed = work["seed"].get<uint64_t>();
      std::mt19937_64 rng(seed);
      torch::manual_seed(seed);
      auto rolled = rollout(servers, policy, programs, programs.size(), rng,
                            work["greedy"].get<bool>(), true);
      if (!rolled) {
        answer = {{"error", rolled.error().message}};
      } else {
        nlohmann::json trajectories = nlohmann::json::array();
        for (const Trajectory &t : rolled->trajectories)
          trajectories.push_back(t.toJson());
        answer = {{"trajectories", trajectories},
                  {"inference_s", rolled->inferenceSeconds},
                  {"compile_s", rolled->compileSeconds}};
      }
    } else {
      answer = {{"trajectories", nlohmann::json::array()}};
    }
    std::vector<uint8_t> bytes = nlohmann::json::to_msgpack(answer);
    if (Status s = cluster.send(0, Cluster::Episodes,
                                std::string(bytes.begin(), bytes.end()),
                                timeoutSeconds);
        !s)
      return makeError("the learner (" + s.error().message + ")");
  }
}

} // namespace rlopt::agent
