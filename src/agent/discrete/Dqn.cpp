// DQN (Mnih et al. 2015, Algorithm 1) as CleanRL writes it: act ε-greedily,
// store the transition, and every few steps take a gradient step on the
// Huber loss between Q(s, a) and r + γ·max_a' Q_target(s', a'), with the
// target network copied from the online one every C steps; by default a'
// is chosen by the online network (double DQN, van Hasselt et al. 2016).
// Masks restrict both the exploration and the max to the allowed actions.
// With `return_steps` n, r is the discounted sum of n rewards and the
// target bootstraps from the state n steps later with γ^n (ReplayBuffer).
#include "rlopt/agent/discrete/Dqn.h"

#include "Exploration.h"
#include "ReplayBuffer.h"
#include "Trainers.h"

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

/// ε decays linearly from start to end over `explorationSteps`, then stays.
double epsilonAt(const DqnConfig &config, int64_t step) {
  double progress =
      std::min(1.0, double(step) / double(config.explorationSteps));
  return config.startEpsilon +
         progress * (config.endEpsilon - config.startEpsilon);
}

torch::Tensor huberLoss(const torch::Tensor &prediction,
                        const torch::Tensor &target, double delta) {
  torch::Tensor error = (prediction - target).abs();
  return torch::where(error < delta, 0.5 * error.pow(2),
                      delta * (error - 0.5 * delta))
      .mean();
}

} // namespace

Status train(const DqnConfig &config, DiscreteRun &run, EpisodeLoop &loop) {
  const DiscreteShape &shape = run.shape();
  Mlp q = qNetwork(shape, config.network);
  Mlp target = qNetwork(shape, config.network);
  copyParameters(*q, *target);
  torch::optim::Adam optimizer(q->parameters(),
                               torch::optim::AdamOptions(config.learningRate));
  ReplayBuffer replay(config.bufferSize, shape, config.returnSteps,
                      config.gamma);
  if (Status s = run.keepInCheckpoint(
          {moduleState("q", *q), moduleState("target", *target),
           optimizerState("optimizer", optimizer), replay.checkpointPart()});
      !s)
    return s;

  for (int iteration = run.firstIteration(); run.continues(iteration);
       ++iteration) {
    auto [rng, metrics] = run.beginIteration(iteration);
    int64_t globalStep = run.totalSteps();
    int64_t steps = 0;
    double learnSeconds = 0, lossSum = 0, qSum = 0, epsilon = 0;
    int updates = 0;

    while (steps < config.stepsPerIteration) {
      auto state = loop.reset(rng);
      if (!state)
        return state.error();
      for (bool ended = false; !ended;) {
        // 1. ε-greedy over the allowed actions.
        epsilon = epsilonAt(config, globalStep);
        int64_t action;
        if (uniform01(rng) < epsilon) {
          action = randomAllowedAction(state->allowed, rng);
        } else {
          torch::NoGradGuard noGrad;
          torch::Tensor scores =
              q(floatRows(state->features, shape.observationSize));
          action =
              maskScores(
                  scores,
                  byteRows(state->allowed, shape.actionCount).to(torch::kBool))
                  .argmax(1)
                  .item<int64_t>();
        }
        auto step = loop.step(action);
        if (!step)
          return step.error();
        replay.add(*state, action, step->reward, *step);
        ended = step->ended;
        state = std::move(step->next);
        ++globalStep;
        ++steps;

        // 2. A Huber TD step on a replayed minibatch every `trainEvery`
        // steps past `learningStarts` steps, once the buffer holds a
        // transition (n-step ones wait for their n rewards).
        if (globalStep > config.learningStarts && replay.size() > 0 &&
            globalStep % config.trainEvery == 0) {
          auto learnStart = Clock::now();
          ReplayBuffer::Batch batch = replay.sample(config.batchSize, rng);
          torch::Tensor tdTarget;
          {
            torch::NoGradGuard noGrad;
            torch::Tensor allowed = allowSomething(batch.nextAllowed);
            torch::Tensor targetQ = target(batch.nextFeatures);
            // Double DQN picks a' with the online network and values it with
            // the target one, so one network's noise is not both chosen and
            // believed: the max over ~100 passes otherwise drifts upward.
            torch::Tensor chooser =
                config.doubleQ ? q(batch.nextFeatures) : targetQ;
            torch::Tensor nextAction =
                maskScores(chooser, allowed).argmax(1, /*keepdim=*/true);
            torch::Tensor nextQ = targetQ.gather(1, nextAction).squeeze(1);
            tdTarget = batch.rewards + batch.bootstrap * nextQ;
          }
          torch::Tensor taken = q(batch.features)
                                    .gather(1, batch.actions.unsqueeze(1))
                                    .squeeze(1);
          torch::Tensor loss = huberLoss(taken, tdTarget, config.huberDelta);
          optimizer.zero_grad();
          loss.backward();
          optimizer.step();
          lossSum += loss.item<double>();
          qSum += taken.mean().item<double>();
          ++updates;
          learnSeconds +=
              std::chrono::duration<double>(Clock::now() - learnStart).count();
        }

        // 3. The target network follows every `targetUpdateEvery` steps.
        if (globalStep % config.targetUpdateEvery == 0)
          copyParameters(*q, *target);
      }
    }
    std::vector<nlohmann::json> episodes = loop.reportInto(metrics);
    metrics.learning = {{"epsilon", epsilon}};
    if (updates) {
      metrics.learning["value_loss"] = lossSum / updates;
      metrics.learning["q_mean"] = qSum / updates;
    }
    metrics.learnSeconds = learnSeconds;

    if (Status s = run.endIteration(metrics, episodes, q, loop); !s)
      return s;
  }
  return run.savePolicy(q);
}

} // namespace rlopt::agent::discrete
