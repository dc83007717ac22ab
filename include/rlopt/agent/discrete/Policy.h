#ifndef RLOPT_AGENT_DISCRETE_POLICY_H
#define RLOPT_AGENT_DISCRETE_POLICY_H

#include "rlopt/agent/discrete/NetworkConfig.h"
#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rlopt::agent::discrete {

/// The observation size and action count a discrete agent works with.
struct DiscreteShape {
  int64_t observationSize = 0;
  int64_t actionCount = 0;
};

/// The shape of `spaces`, or an error if its action space is not exactly
/// one Discrete head.
Result<DiscreteShape> discreteShape(const Spaces &spaces);

/// A trained network scoring every action: the actor's logits (PPO, A2C,
/// SAC) or the Q-values (DQN). policy.pt holds its weights together with
/// the shape and the config it was trained with. torch stays out of this
/// header.
class DiscretePolicy {
public:
  struct Impl;

  /// An untrained policy with random weights.
  static Result<DiscretePolicy>
  create(const Spaces &spaces, const NetworkConfig &network, uint64_t seed);
  /// Loads `path`, refusing a policy trained on an environment whose
  /// observation size or action count differs from `spaces`.
  static Result<DiscretePolicy> load(const std::string &path,
                                     const Spaces &spaces);
  Status save(const std::string &path) const;

  const DiscreteShape &shape() const;
  const std::string &algorithm() const;
  /// The training config it was saved with (with its "algorithm").
  const nlohmann::json &trainingConfig() const;

  explicit DiscretePolicy(std::unique_ptr<Impl> impl);
  DiscretePolicy(DiscretePolicy &&) noexcept;
  DiscretePolicy &operator=(DiscretePolicy &&) noexcept;
  ~DiscretePolicy();
  Impl &impl() const { return *state; }

private:
  std::unique_ptr<Impl> state;
};

/// The allowed action with the highest score (for evaluation). An
/// observation of the wrong size, or with every action masked, is an error.
Result<int64_t> act(const DiscretePolicy &policy, const Observation &obs);

/// An allowed action drawn from the softmax of the policy's scores, for
/// search that samples from the policy.
Result<int64_t> sampleAction(const DiscretePolicy &policy,
                             const Observation &obs, std::mt19937_64 &random);

struct GreedyEpisode {
  std::vector<int64_t> actions;
  double totalReward = 0;
  Info finalInfo; ///< the last step's info
};

/// Runs one episode of greedy actions on `benchmark`, or of actions drawn
/// with `sample` when it is given; `maxSteps` > 0 ends it early
/// (truncation).
Result<GreedyEpisode> runGreedyEpisode(const DiscretePolicy &policy, Env &env,
                                       const BenchmarkRef &benchmark,
                                       uint64_t seed, int maxSteps = 0,
                                       std::mt19937_64 *sample = nullptr);

} // namespace rlopt::agent::discrete

#endif
