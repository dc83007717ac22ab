// Config fields that several trainers share, listed once: PPO's loss and
// update settings (Linalg and discrete PPO), the run settings of every
// discrete trainer and the transition memory of DQN and SAC. Each works on any
// config with the members it names.
#ifndef RLOPT_AGENT_TRAINERFIELDS_H
#define RLOPT_AGENT_TRAINERFIELDS_H

#include "rlopt/core/ConfigFields.h"

namespace rlopt::agent {

template <typename Config, typename Visit>
void visitPpoUpdateFields(Config &c, Visit &&visit) {
  visit("learning_rate", c.learningRate);
  visit("gamma", c.gamma);
  visit("gae_lambda", c.gaeLambda);
  visit("clip", c.clip);
  visit("value_coef", c.valueCoef);
  visit("entropy_coef", c.entropyCoef);
  visit("max_grad_norm", c.maxGradNorm);
  visit("epochs", c.epochs);
}

template <typename Config>
Status checkPpoUpdateFields(const Config &c, const std::string &where) {
  return firstError({
      require(c.learningRate > 0, where, "learning_rate", "positive"),
      require(c.gamma >= 0 && c.gamma <= 1, where, "gamma", "in [0, 1]"),
      require(c.gaeLambda >= 0 && c.gaeLambda <= 1, where, "gae_lambda",
              "in [0, 1]"),
      require(c.clip > 0, where, "clip", "positive"),
      require(c.valueCoef >= 0, where, "value_coef", "not negative"),
      require(c.entropyCoef >= 0, where, "entropy_coef", "not negative"),
      require(c.maxGradNorm > 0, where, "max_grad_norm", "positive"),
      require(c.epochs >= 1, where, "epochs", "at least 1"),
  });
}

/// How long a discrete trainer runs, how often it checkpoints, its seed and
/// its network.
template <typename Config, typename Visit>
void visitDiscreteRunFields(Config &c, Visit &&visit) {
  visit("steps_per_iteration", c.stepsPerIteration);
  visit("iterations", c.iterations);
  visit("max_episode_steps", c.maxEpisodeSteps);
  visit("reward_clip", c.rewardClip);
  visit("keep_best_every", c.keepBestEvery);
  visit("checkpoint_every", c.checkpointEvery);
  visit("seed", c.seed);
  visit("network", c.network);
}

template <typename Config>
Status checkDiscreteRunFields(const Config &c, const std::string &where) {
  return firstError({
      require(c.stepsPerIteration >= 1, where, "steps_per_iteration",
              "at least 1"),
      require(c.iterations >= 1, where, "iterations", "at least 1"),
      require(c.maxEpisodeSteps >= 0, where, "max_episode_steps",
              "not negative"),
      require(c.rewardClip >= 0, where, "reward_clip",
              "not negative (0: no clipping)"),
      require(c.checkpointEvery >= 1, where, "checkpoint_every", "at least 1"),
      require(c.keepBestEvery >= 0, where, "keep_best_every",
              "not negative (0: policy.pt is the last policy)"),
  });
}

/// The transition memory's fields, which DQN and SAC share.
template <typename Config, typename Visit>
void visitReplayFields(Config &c, Visit &&visit) {
  visit("buffer_size", c.bufferSize);
  visit("batch_size", c.batchSize);
  visit("learning_starts", c.learningStarts);
  visit("train_every", c.trainEvery);
  visit("return_steps", c.returnSteps);
}

template <typename Config>
Status checkReplayFields(const Config &c, const std::string &where) {
  return firstError({
      require(c.bufferSize >= 1, where, "buffer_size", "at least 1"),
      require(c.batchSize >= 1, where, "batch_size", "at least 1"),
      require(c.learningStarts >= 0, where, "learning_starts", "not negative"),
      require(c.trainEvery >= 1, where, "train_every", "at least 1"),
      require(c.returnSteps >= 1, where, "return_steps", "at least 1"),
  });
}

} // namespace rlopt::agent

#endif
