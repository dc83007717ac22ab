// A2C, the synchronous form of A3C (Mnih et al. 2016, Algorithm S3): run
// the policy for n steps, compute n-step returns bootstrapped with the
// critic, and take one gradient step on the policy-gradient, value and
// entropy terms.
#include "rlopt/agent/discrete/A2c.h"

#include "Trainers.h"

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

/// Up to n steps of one episode.
struct Segment {
  std::vector<float> features;
  std::vector<uint8_t> allowed;
  std::vector<int64_t> actions;
  std::vector<float> rewards;
  int64_t size() const { return actions.size(); }
};

std::unique_ptr<torch::optim::Optimizer>
makeOptimizer(const A2cConfig &config, std::vector<torch::Tensor> parameters) {
  if (config.optimizer == "adam")
    return std::make_unique<torch::optim::Adam>(
        parameters, torch::optim::AdamOptions(config.learningRate)
                        .eps(config.optimizerEpsilon));
  return std::make_unique<torch::optim::RMSprop>(
      parameters, torch::optim::RMSpropOptions(config.learningRate)
                      .alpha(config.rmspropAlpha)
                      .eps(config.optimizerEpsilon));
}

} // namespace

Status train(const A2cConfig &config, DiscreteRun &run, EpisodeLoop &loop) {
  const DiscreteShape &shape = run.shape();
  Mlp actor = actorNetwork(shape, config.network);
  Mlp critic = criticNetwork(shape, config.network);
  std::vector<torch::Tensor> parameters = parametersOf({actor, critic});
  std::unique_ptr<torch::optim::Optimizer> optimizer =
      makeOptimizer(config, parameters);
  if (Status s = run.keepInCheckpoint(
          {moduleState("actor", *actor), moduleState("critic", *critic),
           optimizerState("optimizer", *optimizer)});
      !s)
    return s;

  for (int iteration = run.firstIteration(); run.continues(iteration);
       ++iteration) {
    auto [rng, metrics] = run.beginIteration(iteration);
    UpdateStats stats;

    int64_t steps = 0;
    while (steps < config.stepsPerIteration) {
      auto state = loop.reset(rng);
      if (!state)
        return state.error();
      for (bool ended = false; !ended;) {
        // 1. Run the policy for n steps, or to the end of the episode.
        Segment segment;
        bool terminated = false;
        while (!ended && segment.size() < config.nSteps) {
          torch::NoGradGuard noGrad;
          MaskedCategorical policy(
              actor(floatRows(state->features, shape.observationSize)),
              byteRows(state->allowed, shape.actionCount));
          int64_t action = policy.sample().item<int64_t>();
          auto step = loop.step(action);
          if (!step)
            return step.error();
          segment.features.insert(segment.features.end(),
                                  state->features.begin(),
                                  state->features.end());
          segment.allowed.insert(segment.allowed.end(), state->allowed.begin(),
                                 state->allowed.end());
          segment.actions.push_back(action);
          segment.rewards.push_back(step->reward);
          ended = step->ended;
          terminated = step->terminated;
          state = std::move(step->next);
          ++steps;
        }
        auto learnStart = Clock::now();

        // 2. n-step returns, bootstrapped from V(s_{t+n}) unless terminal.
        std::vector<float> returns(segment.size());
        float future = 0;
        if (!terminated) {
          torch::NoGradGuard noGrad;
          future = critic(floatRows(state->features, shape.observationSize))
                       .item<float>();
        }
        for (int64_t k = segment.size() - 1; k >= 0; --k) {
          future = segment.rewards[k] + config.gamma * future;
          returns[k] = future;
        }

        // 3. One step on −log π(a|s)·(R − V(s)) + c_v·(R − V(s))² − c_e·H.
        torch::Tensor features =
            floatRows(segment.features, shape.observationSize);
        MaskedCategorical policy(actor(features),
                                 byteRows(segment.allowed, shape.actionCount));
        torch::Tensor values = critic(features).squeeze(1);
        torch::Tensor advantage = torch::tensor(returns) - values;
        torch::Tensor policyLoss =
            -(advantage.detach() *
              policy.logProb(torch::tensor(segment.actions, torch::kInt64)))
                 .mean();
        torch::Tensor valueLoss = advantage.pow(2).mean();
        torch::Tensor entropy = policy.entropy().mean();
        torch::Tensor loss = policyLoss + config.valueCoef * valueLoss -
                             config.entropyCoef * entropy;
        optimizer->zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(parameters, config.maxGradNorm);
        optimizer->step();

        stats.add("entropy", entropy.item<double>());
        stats.add("policy_loss", policyLoss.item<double>());
        stats.add("value_loss", valueLoss.item<double>());
        stats.endUpdate(learnStart);
      }
    }
    stats.writeInto(metrics);
    if (Status s = run.endIteration(metrics, actor, loop); !s)
      return s;
  }
  return run.savePolicy(actor);
}

} // namespace rlopt::agent::discrete
