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
    DiscreteRun::Iteration started = run.beginIteration(iteration);
    std::mt19937_64 &rng = started.rng;
    int64_t globalStep = run.totalSteps();
    double epsilon = 0;
    UpdateStats stats;

    // 1. ε-greedy over the allowed actions.
    auto act = [&](const AgentState &state) {
      epsilon = epsilonAt(config, globalStep);
      if (uniform01(rng) < epsilon)
        return randomAllowedAction(state.allowed, rng);
      torch::NoGradGuard noGrad;
      torch::Tensor scores =
          q(floatRows(state.features, shape.observationSize));
      return maskScores(
                 scores,
                 byteRows(state.allowed, shape.actionCount).to(torch::kBool))
          .argmax(1)
          .item<int64_t>();
    };

    // 2. A Huber TD step on a replayed minibatch, when due.
    auto learn = [&] {
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
      torch::Tensor taken =
          q(batch.features).gather(1, batch.actions.unsqueeze(1)).squeeze(1);
      torch::Tensor loss = huberLoss(taken, tdTarget, config.huberDelta);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      stats.add("value_loss", loss.item<double>());
      stats.add("q_mean", taken.mean().item<double>());
      stats.endUpdate(learnStart);
    };

    // 3. The target network follows every `targetUpdateEvery` steps.
    auto followTarget = [&] {
      if (globalStep % config.targetUpdateEvery == 0)
        copyParameters(*q, *target);
    };
    if (Status s = runOffPolicySteps(config, loop, replay, rng, globalStep, act,
                                     learn, followTarget);
        !s)
      return s;
    started.metrics.learning["epsilon"] = epsilon;
    stats.writeInto(started.metrics);
    if (Status s = run.endIteration(started.metrics, q, loop); !s)
      return s;
  }
  return run.savePolicy(q);
}

} // namespace rlopt::agent::discrete
