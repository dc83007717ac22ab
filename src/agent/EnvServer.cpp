#include "rlopt/agent/EnvServer.h"

namespace rlopt::agent {

nlohmann::json toJson(const Observation &obs) {
  return {{"features", obs.features}, {"masks", obs.masks}};
}

Observation observationFromJson(const nlohmann::json &json) {
  Observation obs;
  obs.features = json.at("features").get<std::vector<float>>();
  obs.masks = json.at("masks").get<std::vector<std::vector<uint8_t>>>();
  return obs;
}

/// The child's loop: one JSON request, one JSON answer.
static int serve(WorkerChannel &channel, const EnvServer::Factory &factory) {
  std::unique_ptr<Env> env = factory();
  while (auto message = channel.receive()) {
    auto request = nlohmann::json::parse(*message, nullptr, false);
    if (request.is_discarded())
      return 1;
    std::string op = request.value("op", "");
    nlohmann::json reply;
    if (op == "reset") {
      auto obs = env->tryReset({request["uri"].get<std::string>()},
                               request["seed"].get<uint64_t>());
      if (!obs)
        reply = {{"error", obs.error().message}};
      else
        reply = {{"obs", toJson(*obs)}};
    } else if (op == "step") {
      StepResult r = env->step({request["action"].get<std::vector<int64_t>>()});
      reply = {{"obs", toJson(r.obs)},
               {"reward", r.reward},
               {"terminated", r.terminated},
               {"truncated", r.truncated},
               {"info", r.info}};
    } else {
      return 0;
    }
    if (!channel.send(reply.dump()))
      return 1;
  }
  return 0;
}

Result<EnvServer> EnvServer::spawn(const Factory &factory,
                                   double timeoutSeconds) {
  WorkerLimits limits;
  limits.timeoutSeconds = timeoutSeconds;
  limits.memoryBytes = 0; // measurement workers set their own limits
  auto worker = Worker::spawn(
      [factory](WorkerChannel &channel) { return serve(channel, factory); },
      limits);
  if (!worker)
    return worker.error();
  return EnvServer(std::move(*worker));
}

bool EnvServer::sendReset(const BenchmarkRef &benchmark, uint64_t seed) {
  return worker.send(nlohmann::json{
      {"op", "reset"},
      {"uri", benchmark.uri},
      {"seed", seed}}.dump());
}

bool EnvServer::sendStep(const Action &action) {
  return worker.send(
      nlohmann::json{{"op", "step"}, {"action", action.values}}.dump());
}

static Result<nlohmann::json> receiveJson(Worker &worker) {
  auto message = worker.receive();
  if (!message)
    return makeError("environment server: " + message.error().message);
  auto reply = nlohmann::json::parse(*message, nullptr, false);
  if (reply.is_discarded())
    return makeError("environment server sent a malformed reply");
  if (reply.contains("error"))
    return makeError(reply["error"].get<std::string>());
  return reply;
}

Result<Observation> EnvServer::receiveReset() {
  auto reply = receiveJson(worker);
  if (!reply)
    return reply.error();
  return observationFromJson((*reply)["obs"]);
}

Result<StepResult> EnvServer::receiveStep() {
  auto reply = receiveJson(worker);
  if (!reply)
    return reply.error();
  StepResult r;
  r.obs = observationFromJson((*reply)["obs"]);
  r.reward = (*reply)["reward"].get<double>();
  r.terminated = (*reply)["terminated"].get<bool>();
  r.truncated = (*reply)["truncated"].get<bool>();
  r.info = (*reply)["info"];
  return r;
}

void EnvServer::close() {
  worker.send(nlohmann::json{{"op", "quit"}}.dump());
  worker.finish();
}

} // namespace rlopt::agent
