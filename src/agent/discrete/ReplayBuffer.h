// The transition memory of DQN and SAC: a ring of the last `capacity`
// transitions, sampled uniformly, saved whole in the checkpoint so that a
// resumed run continues with the memory it stopped with.
#ifndef RLOPT_SRC_AGENT_DISCRETE_REPLAYBUFFER_H
#define RLOPT_SRC_AGENT_DISCRETE_REPLAYBUFFER_H

#include "CheckpointPart.h"
#include "EpisodeLoop.h"

#include <torch/torch.h>

namespace rlopt::agent::discrete {

class ReplayBuffer {
public:
  ReplayBuffer(int64_t capacity, DiscreteShape shape);

  void add(const AgentState &state, int64_t action, double reward,
           const LoopStep &step);
  int64_t size() const { return count; }

  struct Batch {
    torch::Tensor features, allowed; ///< [B, D] float, [B, A] bool
    torch::Tensor actions;           ///< [B] int64
    torch::Tensor rewards;           ///< [B]
    torch::Tensor nextFeatures, nextAllowed;
    torch::Tensor terminated; ///< [B] 1 where nothing is bootstrapped
  };
  Batch sample(int64_t batchSize, std::mt19937_64 &rng) const;

  /// The whole buffer, as a part of the checkpoint.
  CheckpointPart checkpointPart();

private:
  void save(torch::serialize::OutputArchive &archive) const;
  Status load(torch::serialize::InputArchive &archive,
              const std::string &where);

  int64_t capacity;
  DiscreteShape shape;
  int64_t position = 0, count = 0;
  std::vector<float> features, nextFeatures, rewards, terminated;
  std::vector<uint8_t> allowed, nextAllowed;
  std::vector<int64_t> actions;
};

} // namespace rlopt::agent::discrete

#endif
