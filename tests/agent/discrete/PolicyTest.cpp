// Greedy evaluation with a DiscretePolicy: masked actions are never chosen,
// malformed observations are errors, a saved policy loads back to the same
// choices, and a greedy episode reports its actions and total reward.
#include "CounterEnv.h"
#include "TinyConfigs.h"

#include <fstream>
#include <iterator>
#include <random>
#include <set>

using namespace rlopt;
using namespace rlopt::agent::discrete;
using namespace rlopt::agent::discrete::testing;

namespace {

/// Random observations of the counter environment's size with random
/// masks that allow at least one action.
std::vector<Observation> randomObservations(int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t size = CounterEnv().spaces().observation.size();
  std::vector<Observation> observations;
  for (int i = 0; i < count; ++i) {
    Observation obs;
    for (int64_t f = 0; f < size; ++f)
      obs.features.push_back(float(rng() % 1000) / 10);
    obs.masks.emplace_back(CounterEnv::kActions);
    for (uint8_t &allowed : obs.masks[0])
      allowed = rng() % 3 == 0;
    obs.masks[0][rng() % CounterEnv::kActions] = 1;
    observations.push_back(obs);
  }
  return observations;
}

TEST(DiscretePolicy, ActNeverChoosesAMaskedAction) {
  CounterEnv env;
  auto policy = DiscretePolicy::create(env.spaces(), tinyNetwork(), 3);
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  std::set<int64_t> chosen;
  for (const Observation &obs : randomObservations(300, 5)) {
    auto action = act(*policy, obs);
    ASSERT_TRUE(action.ok()) << action.error().message;
    ASSERT_GE(*action, 0);
    ASSERT_LT(*action, CounterEnv::kActions);
    EXPECT_TRUE(obs.masks[0][*action]) << "chose masked action " << *action;
    chosen.insert(*action);
  }
  // The policy does depend on the observation and the mask.
  EXPECT_GT(chosen.size(), 1u);
}

TEST(DiscretePolicy, MalformedObservationsAreErrors) {
  CounterEnv env;
  auto policy = DiscretePolicy::create(env.spaces(), tinyNetwork(), 3);
  ASSERT_TRUE(policy.ok());
  Observation obs = env.reset({"toy://a"}, 0);
  ASSERT_TRUE(act(*policy, obs).ok());

  Observation shorter = obs;
  shorter.features.pop_back();
  EXPECT_FALSE(act(*policy, shorter).ok());
  Observation allMasked = obs;
  std::fill(allMasked.masks[0].begin(), allMasked.masks[0].end(), 0);
  EXPECT_FALSE(act(*policy, allMasked).ok());
  Observation twoHeads = obs;
  twoHeads.masks.push_back(obs.masks[0]);
  EXPECT_FALSE(act(*policy, twoHeads).ok());
}

TEST(DiscretePolicy, SavedPolicyLoadsBackToTheSameChoices) {
  ScratchDir scratch;
  CounterEnv env;
  auto policy = DiscretePolicy::create(env.spaces(), tinyNetwork(), 9);
  ASSERT_TRUE(policy.ok());
  std::string path = (scratch / "policy.pt").string();
  ASSERT_TRUE(policy->save(path).ok());
  auto loaded = DiscretePolicy::load(path, env.spaces());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  for (const Observation &obs : randomObservations(50, 11))
    EXPECT_EQ(*act(*policy, obs), *act(*loaded, obs));

  EXPECT_FALSE(
      DiscretePolicy::load((scratch / "missing.pt").string(), env.spaces())
          .ok());
}

// A policy file damaged inside its pickled data (a type name no longer
// known to TorchScript; found by fuzz_policy) is a one-line error, not an
// exception LibTorch throws past the loader.
TEST(DiscretePolicy, DamagedPickleIsAnError) {
  ScratchDir scratch;
  CounterEnv env;
  auto policy = DiscretePolicy::create(env.spaces(), tinyNetwork(), 9);
  ASSERT_TRUE(policy.ok());
  std::string path = (scratch / "policy.pt").string();
  ASSERT_TRUE(policy->save(path).ok());
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  size_t at = bytes.find("_rebuild_tensor_v2");
  ASSERT_NE(at, std::string::npos) << "the archive stores its pickle plainly";
  bytes[at + 10] = ')';
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  auto loaded = DiscretePolicy::load(path, env.spaces());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find(path), std::string::npos);
  EXPECT_EQ(loaded.error().message.find('\n'), std::string::npos)
      << loaded.error().message;
}

TEST(DiscretePolicy, GreedyEpisodeReportsItsActionsAndTotalReward) {
  CounterEnv env;
  auto policy = DiscretePolicy::create(env.spaces(), tinyNetwork(), 4);
  ASSERT_TRUE(policy.ok());
  auto episode = runGreedyEpisode(*policy, env, {"toy://b"}, 2);
  ASSERT_TRUE(episode.ok()) << episode.error().message;
  ASSERT_EQ(episode->actions.size(), size_t(CounterEnv::kLength));

  // Replaying the actions earns the same reward.
  CounterEnv replay;
  replay.reset({"toy://b"}, 2);
  double total = 0;
  for (int64_t action : episode->actions)
    total += replay.step(Action{{action}}).reward;
  EXPECT_DOUBLE_EQ(episode->totalReward, total);
  EXPECT_EQ(env.maskedChoiceCount(), 0);

  auto shortened = runGreedyEpisode(*policy, env, {"toy://b"}, 2, 2);
  ASSERT_TRUE(shortened.ok());
  EXPECT_EQ(shortened->actions.size(), 2u);

  EXPECT_FALSE(runGreedyEpisode(*policy, env, {"toy://nope"}, 0).ok());
}

} // namespace
