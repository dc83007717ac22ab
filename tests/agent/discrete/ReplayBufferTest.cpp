// The transition memory's n-step returns: the rewards a stored transition
// carries, the state it bootstraps from and with what weight, at the end of
// an episode that terminates and of one that is cut short.
#include "../../../src/agent/discrete/ReplayBuffer.h"

#include <gtest/gtest.h>

#include <map>

using namespace rlopt;
using namespace rlopt::agent::discrete;

namespace {

constexpr double kGamma = 0.5;

/// The state of step t: one feature, t itself, so a sampled row names its
/// step.
AgentState stateAt(int t) { return {{static_cast<float>(t)}, {1, 1}}; }

/// Runs an episode of `length` steps with reward 2^t at step t, ending
/// terminated or truncated, and returns every stored transition by the step
/// it starts at.
struct Stored {
  float next, reward, bootstrap;
};
std::map<int, Stored> episode(int returnSteps, int length, bool terminates,
                              int64_t *storedBeforeEnd = nullptr) {
  ReplayBuffer replay(100, {1, 2}, returnSteps, kGamma);
  for (int t = 0; t < length; ++t) {
    LoopStep step;
    step.reward = std::pow(2.0, t);
    step.ended = t + 1 == length;
    step.terminated = step.ended && terminates;
    step.next = stateAt(t + 1);
    replay.add(stateAt(t), t, step.reward, step);
    if (storedBeforeEnd && t + 2 == length)
      *storedBeforeEnd = replay.size();
  }
  // Uniform sampling with many draws sees every stored row.
  std::mt19937_64 rng(7);
  ReplayBuffer::Batch batch = replay.sample(2000, rng);
  std::map<int, Stored> byStep;
  for (int64_t i = 0; i < 2000; ++i) {
    int t = static_cast<int>(batch.features[i][0].item<float>());
    EXPECT_EQ(batch.actions[i].item<int64_t>(), t);
    byStep[t] = {batch.nextFeatures[i][0].item<float>(),
                 batch.rewards[i].item<float>(),
                 batch.bootstrap[i].item<float>()};
  }
  EXPECT_EQ(static_cast<int64_t>(byStep.size()), replay.size());
  return byStep;
}

TEST(ReplayBuffer, OneStepTransitionsBootstrapWithGammaUnlessTerminated) {
  std::map<int, Stored> stored = episode(1, 3, /*terminates=*/true);
  ASSERT_EQ(stored.size(), 3u);
  for (int t = 0; t < 3; ++t) {
    EXPECT_FLOAT_EQ(stored[t].next, t + 1);
    EXPECT_FLOAT_EQ(stored[t].reward, std::pow(2.0, t));
  }
  EXPECT_FLOAT_EQ(stored[0].bootstrap, kGamma);
  EXPECT_FLOAT_EQ(stored[1].bootstrap, kGamma);
  EXPECT_FLOAT_EQ(stored[2].bootstrap, 0);
}

TEST(ReplayBuffer, NStepTransitionsSumDiscountedRewardsAndSkipAhead) {
  // Three steps: 2^t + 0.5 * 2^(t+1) + 0.25 * 2^(t+2) = 3 * 2^t.
  std::map<int, Stored> stored = episode(3, 6, /*terminates=*/true);
  ASSERT_EQ(stored.size(), 6u);
  for (int t = 0; t <= 3; ++t) {
    SCOPED_TRACE(t);
    EXPECT_FLOAT_EQ(stored[t].next, t + 3);
    EXPECT_FLOAT_EQ(stored[t].reward, 3 * std::pow(2.0, t));
  }
  EXPECT_FLOAT_EQ(stored[0].bootstrap, kGamma * kGamma * kGamma);
  // The last three end in the terminal state with what rewards are left.
  EXPECT_FLOAT_EQ(stored[4].next, 6);
  EXPECT_FLOAT_EQ(stored[4].reward, 16 + 0.5 * 32);
  EXPECT_FLOAT_EQ(stored[5].reward, 32);
  EXPECT_FLOAT_EQ(stored[3].bootstrap, 0);
  EXPECT_FLOAT_EQ(stored[4].bootstrap, 0);
  EXPECT_FLOAT_EQ(stored[5].bootstrap, 0);
}

TEST(ReplayBuffer, ACutEpisodeBootstrapsItsLastStepsFromWhereItStopped) {
  std::map<int, Stored> stored = episode(3, 4, /*terminates=*/false);
  ASSERT_EQ(stored.size(), 4u);
  EXPECT_FLOAT_EQ(stored[0].bootstrap, kGamma * kGamma * kGamma);
  EXPECT_FLOAT_EQ(stored[2].next, 4);
  EXPECT_FLOAT_EQ(stored[2].bootstrap, kGamma * kGamma);
  EXPECT_FLOAT_EQ(stored[3].next, 4);
  EXPECT_FLOAT_EQ(stored[3].bootstrap, kGamma);
}

TEST(ReplayBuffer, AStepIsStoredOnceItsRewardsAreKnown) {
  int64_t beforeEnd = -1;
  episode(3, 6, /*terminates=*/true, &beforeEnd);
  // After 5 of 6 steps, steps 0-2 have their three rewards; 3 and 4 wait.
  EXPECT_EQ(beforeEnd, 3);
}

} // namespace
