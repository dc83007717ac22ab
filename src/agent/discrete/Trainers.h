// The discrete trainers, each given its opened run (DiscreteRun: the run
// directory, checkpoint and policy) and the episode loop over the training
// benchmarks; `train` (Trainer.h) opens both. Each writes the same run
// directory: config.json, metrics.jsonl, episodes.jsonl, checkpoint.pt and
// policy.pt.
#ifndef RLOPT_SRC_AGENT_DISCRETE_TRAINERS_H
#define RLOPT_SRC_AGENT_DISCRETE_TRAINERS_H

#include "DiscreteRun.h"
#include "EpisodeLoop.h"
#include "rlopt/agent/Cluster.h"
#include "rlopt/agent/UpdateStats.h"
#include "rlopt/agent/discrete/A2c.h"
#include "rlopt/agent/discrete/Dqn.h"
#include "rlopt/agent/discrete/Ppo.h"
#include "rlopt/agent/discrete/Sac.h"

namespace rlopt::agent::discrete {

/// PPO with a clipped surrogate over whole-episode rollouts on benchmarks
/// drawn uniformly from `benchmarks`; separate actor and critic MLPs.
/// Under mpirun this is the learner; the other ranks serve rollouts.
Status train(const PpoConfig &config, DiscreteRun &run, EpisodeLoop &loop);

/// Synchronous advantage actor-critic: an update every `nSteps` steps from
/// n-step returns bootstrapped with the critic, plus an entropy bonus.
Status train(const A2cConfig &config, DiscreteRun &run, EpisodeLoop &loop);

/// Deep Q-learning with a replay buffer, a target network and ε-greedy
/// exploration; masked actions are neither explored nor taken as the
/// target's max. The saved policy is the Q-network (greedy = argmax Q).
Status train(const DqnConfig &config, DiscreteRun &run, EpisodeLoop &loop);

/// Discrete soft actor-critic: two Q-networks with Polyak-averaged targets,
/// a softmax policy whose losses take the expectation over every allowed
/// action instead of sampling, and an automatically tuned temperature.
Status train(const SacConfig &config, DiscreteRun &run, EpisodeLoop &loop);

/// A rollout rank of a distributed PPO run: its share of every batch, with
/// the learner's weights, until the learner says stop.
Status serveRolloutRank(const PpoConfig &config, EpisodeLoop &loop,
                        Cluster &cluster);

} // namespace rlopt::agent::discrete

#endif
