// The transition memory of DQN and SAC: a ring of the last `capacity`
// transitions, sampled uniformly, saved whole in the checkpoint so that a
// resumed run continues with the memory it stopped with.
//
// With `returnSteps` n > 1 it stores n-step transitions (Rainbow's
// multi-step learning, Hessel et al. 2018): the state and action of step t,
// the discounted sum of the rewards of steps t..t+n-1, and the state after
// them, bootstrapped with gamma^n. Compiler episodes pay for an inlining or
// unrolling step only some passes later; n-step targets carry that back
// without waiting for the value estimate to learn it.
#ifndef RLOPT_SRC_AGENT_DISCRETE_REPLAYBUFFER_H
#define RLOPT_SRC_AGENT_DISCRETE_REPLAYBUFFER_H

#include "CheckpointPart.h"
#include "EpisodeLoop.h"

#include <torch/torch.h>

#include <deque>

namespace rlopt::agent::discrete {

class ReplayBuffer {
public:
  ReplayBuffer(int64_t capacity, DiscreteShape shape, int returnSteps = 1,
               double gamma = 1);

  /// One environment step. Transitions are stored once their n rewards are
  /// known, and all of an episode's pending ones when it ends, so the
  /// memory holds whole episodes between iterations.
  void add(const AgentState &state, int64_t action, double reward,
           const LoopStep &step);
  int64_t size() const { return count; }

  struct Batch {
    torch::Tensor features, allowed; ///< [B, D] float, [B, A] bool
    torch::Tensor actions;           ///< [B] int64
    torch::Tensor rewards;           ///< [B] discounted sums
    torch::Tensor nextFeatures, nextAllowed;
    /// [B] what the value of the next state is worth in the target:
    /// gamma^k after k steps, 0 where the episode terminated.
    torch::Tensor bootstrap;
  };
  Batch sample(int64_t batchSize, std::mt19937_64 &rng) const;

  /// The whole buffer, as a part of the checkpoint.
  CheckpointPart checkpointPart();

private:
  struct Pending {
    AgentState state;
    int64_t action;
    double reward;
  };
  void store(const Pending &first, double reward, int stepCount,
             const LoopStep &step);
  void save(torch::serialize::OutputArchive &archive) const;
  Status load(torch::serialize::InputArchive &archive,
              const std::string &where);

  int64_t capacity;
  DiscreteShape shape;
  int returnSteps;
  double gamma;
  std::deque<Pending> pending; ///< this episode's steps not yet stored
  int64_t position = 0, count = 0;
  std::vector<float> features, nextFeatures, rewards, terminated, steps;
  std::vector<uint8_t> allowed, nextAllowed;
  std::vector<int64_t> actions;
};

/// Whether an off-policy trainer takes a gradient step after the run's
/// `globalStep`-th step: every `train_every` steps past `learning_starts`,
/// once `replay` holds a transition (n-step ones wait for their n rewards).
template <typename Config>
bool learnsAfter(const Config &config, const ReplayBuffer &replay,
                 int64_t globalStep) {
  return globalStep > config.learningStarts && replay.size() > 0 &&
         globalStep % config.trainEvery == 0;
}

/// An iteration of DQN or SAC: whole episodes until `steps_per_iteration`
/// steps, each action chosen by `act(state)` and each transition stored in
/// `replay`; after a step, `learn()` when learnsAfter says so, then
/// `afterStep()`. `globalStep` counts the run's steps.
template <typename Config, typename Act, typename Learn,
          typename AfterStep = void (*)()>
Status runOffPolicySteps(
    const Config &config, EpisodeLoop &loop, ReplayBuffer &replay,
    std::mt19937_64 &rng, int64_t &globalStep, Act &&act, Learn &&learn,
    AfterStep &&afterStep = [] {}) {
  for (int64_t taken = 0; taken < config.stepsPerIteration;) {
    auto state = loop.reset(rng);
    if (!state)
      return state.error();
    for (bool ended = false; !ended; ++taken) {
      int64_t action = act(*state);
      auto step = loop.step(action);
      if (!step)
        return step.error();
      replay.add(*state, action, step->reward, *step);
      ended = step->ended;
      state = std::move(step->next);
      ++globalStep;
      if (learnsAfter(config, replay, globalStep))
        learn();
      afterStep();
    }
  }
  return Status::success();
}

} // namespace rlopt::agent::discrete

#endif
