// Discrete soft actor-critic (Christodoulou 2019, Algorithm 1): with a
// softmax policy over finitely many actions, every expectation over actions
// is computed exactly instead of sampled: the soft state value
// V(s) = π(s)ᵀ[Q(s) − α log π(s)], the policy loss π(s)ᵀ[α log π(s) − Q(s)]
// and the temperature loss. Masked actions have probability 0 and so drop
// out of every sum.
#include "rlopt/agent/discrete/Sac.h"

#include "Exploration.h"
#include "ReplayBuffer.h"
#include "Trainers.h"

#include <cmath>

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

Status train(const SacConfig &config, DiscreteRun &run, EpisodeLoop &loop) {
  const DiscreteShape &shape = run.shape();
  Mlp actor = actorNetwork(shape, config.network);
  Mlp q1 = qNetwork(shape, config.network);
  Mlp q2 = qNetwork(shape, config.network);
  Mlp q1Target = qNetwork(shape, config.network);
  Mlp q2Target = qNetwork(shape, config.network);
  copyParameters(*q1, *q1Target);
  copyParameters(*q2, *q2Target);
  torch::Tensor logAlpha =
      torch::full({1}, std::log(config.alpha), torch::requires_grad());
  auto adam = [&](double learningRate) {
    return torch::optim::AdamOptions(learningRate).eps(config.adamEpsilon);
  };
  torch::optim::Adam actorOptimizer(actor->parameters(),
                                    adam(config.policyLearningRate));
  torch::optim::Adam qOptimizer(parametersOf({q1, q2}),
                                adam(config.qLearningRate));
  torch::optim::Adam alphaOptimizer({logAlpha}, adam(config.alphaLearningRate));
  ReplayBuffer replay(config.bufferSize, shape, config.returnSteps,
                      config.gamma);
  if (Status s = run.keepInCheckpoint(
          {moduleState("actor", *actor), moduleState("q1", *q1),
           moduleState("q2", *q2), moduleState("q1_target", *q1Target),
           moduleState("q2_target", *q2Target),
           optimizerState("actor_optimizer", actorOptimizer),
           optimizerState("q_optimizer", qOptimizer),
           optimizerState("alpha_optimizer", alphaOptimizer),
           tensorState("log_alpha", logAlpha), replay.checkpointPart()});
      !s)
    return s;

  for (int iteration = run.firstIteration(); run.continues(iteration);
       ++iteration) {
    DiscreteRun::Iteration started = run.beginIteration(iteration);
    std::mt19937_64 &rng = started.rng;
    int64_t globalStep = run.totalSteps();
    UpdateStats stats;

    // 1. Act: uniformly among the allowed actions until learning starts,
    // then by sampling the policy.
    auto act = [&](const AgentState &state) {
      if (globalStep < config.learningStarts)
        return randomAllowedAction(state.allowed, rng);
      torch::NoGradGuard noGrad;
      return MaskedCategorical(
                 actor(floatRows(state.features, shape.observationSize)),
                 byteRows(state.allowed, shape.actionCount))
          .sample()
          .item<int64_t>();
    };

    // 2.-5. A gradient step on a replayed minibatch, when due.
    auto learn = [&] {
      auto learnStart = Clock::now();
      ReplayBuffer::Batch batch = replay.sample(config.batchSize, rng);
      torch::Tensor alpha = logAlpha.exp().detach();

      // 2. Critics: regress both Q(s, a) on the soft Bellman target
      // r + γ·V_target(s'), V taken exactly over π(·|s') (with n-step
      // returns, n rewards and γ^n·V_target of the state n steps on).
      torch::Tensor target;
      {
        torch::NoGradGuard noGrad;
        MaskedCategorical next(actor(batch.nextFeatures),
                               allowSomething(batch.nextAllowed));
        torch::Tensor nextQ = torch::min(q1Target(batch.nextFeatures),
                                         q2Target(batch.nextFeatures));
        torch::Tensor nextValue =
            (next.probs() * (nextQ - alpha * next.logProbs())).sum(1);
        target =
            config.rewardScale * batch.rewards + batch.bootstrap * nextValue;
      }
      torch::Tensor taken = batch.actions.unsqueeze(1);
      torch::Tensor q1Taken = q1(batch.features).gather(1, taken).squeeze(1);
      torch::Tensor q2Taken = q2(batch.features).gather(1, taken).squeeze(1);
      torch::Tensor qLoss =
          torch::mse_loss(q1Taken, target) + torch::mse_loss(q2Taken, target);
      qOptimizer.zero_grad();
      qLoss.backward();
      qOptimizer.step();

      // 3. Actor: minimize π(s)ᵀ[α log π(s) − min Q(s)].
      MaskedCategorical policy(actor(batch.features), batch.allowed);
      torch::Tensor minQ;
      {
        torch::NoGradGuard noGrad;
        minQ = torch::min(q1(batch.features), q2(batch.features));
      }
      torch::Tensor actorLoss =
          (policy.probs() * (alpha * policy.logProbs() - minQ)).sum(1).mean();
      actorOptimizer.zero_grad();
      actorLoss.backward();
      actorOptimizer.step();

      // 4. Temperature: raise α while the entropy is below the target,
      // scale · log(allowed actions), and lower it while above.
      torch::Tensor entropy = policy.entropy().detach();
      if (config.autotuneAlpha) {
        torch::Tensor targetEntropy =
            config.targetEntropyScale *
            batch.allowed.sum(1).to(torch::kFloat).log();
        torch::Tensor alphaLoss =
            (logAlpha.exp() * (entropy - targetEntropy)).mean();
        alphaOptimizer.zero_grad();
        alphaLoss.backward();
        alphaOptimizer.step();
        stats.add("alpha_loss", alphaLoss.item<double>());
      }

      // 5. Targets follow by Polyak averaging.
      polyakUpdate(*q1, *q1Target, config.tau);
      polyakUpdate(*q2, *q2Target, config.tau);

      stats.add("value_loss", qLoss.item<double>() / 2);
      stats.add("policy_loss", actorLoss.item<double>());
      stats.add("entropy", entropy.mean().item<double>());
      stats.endUpdate(learnStart);
    };
    if (Status s = runOffPolicySteps(config, loop, replay, rng, globalStep, act,
                                     learn);
        !s)
      return s;
    started.metrics.learning["alpha"] = logAlpha.exp().item<double>();
    stats.writeInto(started.metrics);
    if (Status s = run.endIteration(started.metrics, actor, loop); !s)
      return s;
  }
  return run.savePolicy(actor);
}

} // namespace rlopt::agent::discrete
