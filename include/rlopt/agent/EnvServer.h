#ifndef RLOPT_AGENT_ENVSERVER_H
#define RLOPT_AGENT_ENVSERVER_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"
#include "rlopt/core/Worker.h"

#include <functional>
#include <memory>

namespace rlopt::agent {

/// An environment in its own process, so rollouts run in parallel and the
/// learner's thread pools never meet a fork. The environment is built in the
/// child by `factory`; spawn servers before the learner starts LibTorch.
class EnvServer {
public:
  using Factory = std::function<std::unique_ptr<Env>()>;
  static Result<EnvServer> spawn(const Factory &factory,
                                 double timeoutSeconds = 3600);

  /// Send a request; collect its answer with the matching receive call, so
  /// that several servers can work at once.
  bool sendReset(const BenchmarkRef &benchmark, uint64_t seed);
  bool sendStep(const Action &action);
  Result<Observation> receiveReset();
  Result<StepResult> receiveStep();
  void close();

private:
  explicit EnvServer(Worker worker) : worker(std::move(worker)) {}
  Worker worker;
};

nlohmann::json toJson(const Observation &obs);
Observation observationFromJson(const nlohmann::json &json);

} // namespace rlopt::agent

#endif
