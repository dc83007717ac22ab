#include "rlopt/agent/RankExchange.h"

#include <limits>

namespace rlopt::agent {

namespace {

std::string pack(const nlohmann::json &message) {
  std::vector<uint8_t> bytes = nlohmann::json::to_msgpack(message);
  return std::string(bytes.begin(), bytes.end());
}

/// The message as a JSON object; discarded (null) when it is not one.
nlohmann::json unpack(const std::string &bytes) {
  nlohmann::json message = nlohmann::json::from_msgpack(bytes, true, false);
  return message.is_object() ? message : nlohmann::json();
}

} // namespace

Result<std::vector<nlohmann::json>>
shareWork(Cluster &cluster, const std::vector<nlohmann::json> &shares,
          double timeoutSeconds) {
  for (int r = 1; r < cluster.size(); ++r) {
    nlohmann::json share = shares.at(r - 1);
    share["stop"] = false;
    if (Status s = cluster.send(r, Cluster::Work, pack(share), timeoutSeconds);
        !s)
      return makeError("rollout " + s.error().message);
  }
  std::vector<nlohmann::json> answers;
  for (int r = 1; r < cluster.size(); ++r) {
    auto received = cluster.receive(r, Cluster::Episodes, timeoutSeconds);
    if (!received)
      return makeError("rollout " + received.error().message);
    nlohmann::json answer = unpack(*received);
    std::string rank = "rollout rank " + std::to_string(r);
    if (answer.is_null())
      return makeError(rank + " sent a malformed answer");
    if (answer.contains("error"))
      return makeError(rank + ": " + answer["error"].get<std::string>());
    answers.push_back(std::move(answer));
  }
  return answers;
}

void stopRolloutRanks(Cluster &cluster) {
  // A rank that is gone or hung does not take it; the launcher ends it.
  for (int r = 1; r < cluster.size(); ++r)
    (void)cluster.send(r, Cluster::Work, pack({{"stop", true}}), 10);
}

Status serveShares(Cluster &cluster, const ShareHandler &answer,
                   double timeoutSeconds) {
  // The first share may come late: the learner may first measure and clone
  // demonstrations on its own. After that the learner is given twice the
  // timeout: it may itself be waiting that long on another rollout rank, and
  // it is the learner that names a hung rank and checkpoints. With equal
  // timeouts, a healthy rank waiting on a learner stuck on a stopped one
  // could give up first and end the run without either.
  const double learnerTimeout = 2 * timeoutSeconds;
  double wait = std::numeric_limits<double>::infinity();
  for (;; wait = learnerTimeout) {
    auto received = cluster.receive(0, Cluster::Work, wait);
    if (!received)
      return makeError("the learner (" + received.error().message + ")");
    nlohmann::json share = unpack(*received);
    if (share.is_null())
      return makeError("malformed work from the learner");
    if (share.value("stop", true))
      return Status::success();
    nlohmann::json reply;
    try {
      auto answered = answer(share);
      reply = answered ? *answered
                       : nlohmann::json{{"error", answered.error().message}};
    } catch (const nlohmann::json::exception &) {
      reply = {{"error", "malformed work from the learner"}};
    }
    if (Status s =
            cluster.send(0, Cluster::Episodes, pack(reply), learnerTimeout);
        !s)
      return makeError("the learner (" + s.error().message + ")");
  }
}

} // namespace rlopt::agent
