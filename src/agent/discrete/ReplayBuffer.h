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

} // namespace rlopt::agent::discrete

#endif
