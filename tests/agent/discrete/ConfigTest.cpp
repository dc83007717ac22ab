// The algorithm configs: defaults are the papers', JSON round-trips, and a
// config with an unknown key, a wrong type or an out-of-range value is an
// error naming the file and the key.
#include "rlopt/agent/discrete/Trainer.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace rlopt;
using namespace rlopt::agent::discrete;

namespace {

template <typename T>
void expectErrorMentioning(const Result<T> &result,
                           const std::vector<std::string> &words) {
  ASSERT_FALSE(result.ok()) << "accepted";
  const std::string &message = result.error().message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  for (const std::string &word : words)
    EXPECT_NE(message.find(word), std::string::npos)
        << "'" << message << "' does not mention '" << word << "'";
}

TEST(DiscreteConfig, PpoDefaultsAreThePapersValues) {
  auto config = PpoConfig::fromJson(nlohmann::json::object(), "ppo.json");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_DOUBLE_EQ(config->gamma, 0.99);
  EXPECT_DOUBLE_EQ(config->gaeLambda, 0.95);
  EXPECT_DOUBLE_EQ(config->clip, 0.2);
  EXPECT_DOUBLE_EQ(config->valueCoef, 0.5);
  EXPECT_DOUBLE_EQ(config->entropyCoef, 0.01);
  EXPECT_DOUBLE_EQ(config->maxGradNorm, 0.5);
  EXPECT_DOUBLE_EQ(config->learningRate, 3e-4);
  EXPECT_EQ(config->epochs, 4);
  EXPECT_EQ(config->stepsPerIteration, 256);
  EXPECT_EQ(config->network.normalization, "log1p");
}

TEST(DiscreteConfig, SacTargetsTheDiscretePapersEntropy) {
  SacConfig config;
  EXPECT_DOUBLE_EQ(config.targetEntropyScale, 0.98);
  EXPECT_DOUBLE_EQ(config.gamma, 0.99);
  EXPECT_DOUBLE_EQ(config.rewardScale, 1.0);
  EXPECT_EQ(config.batchSize, 64);
  EXPECT_TRUE(config.autotuneAlpha);
}

TEST(DiscreteConfig, DqnExploresFromFullyRandom) {
  DqnConfig config;
  EXPECT_DOUBLE_EQ(config.startEpsilon, 1.0);
  EXPECT_LT(config.endEpsilon, 0.2);
  EXPECT_EQ(config.batchSize, 32);
  EXPECT_DOUBLE_EQ(config.gamma, 0.99);
  EXPECT_TRUE(config.doubleQ);
}

TEST(DiscreteConfig, EveryAlgorithmRoundTripsThroughAgentConfig) {
  std::vector<nlohmann::json> configs = {
      {{"algorithm", "ppo"}, {"clip", 0.1}, {"network", {{"hidden", {8}}}}},
      {{"algorithm", "a2c"}, {"n_steps", 3}, {"optimizer", "adam"}},
      {{"algorithm", "dqn"},
       {"target_update_every", 7},
       {"double_q", false},
       {"reward_clip", 1.0}},
      {{"algorithm", "sac"}, {"reward_scale", 2.5}, {"tau", 0.01}}};
  for (const nlohmann::json &json : configs) {
    SCOPED_TRACE(json.dump());
    auto config = AgentConfig::fromJson(json, "agent.json");
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_EQ(config->algorithm(), json["algorithm"]);
    nlohmann::json written = config->toJson();
    for (auto it = json.begin(); it != json.end(); ++it) {
      if (it.key() != "network")
        EXPECT_EQ(written[it.key()], it.value()) << it.key();
    }
    auto reread = AgentConfig::fromJson(written, "agent.json");
    ASSERT_TRUE(reread.ok()) << reread.error().message;
    EXPECT_EQ(reread->toJson(), written);
  }
  auto ppo = AgentConfig::fromJson(configs[0], "agent.json");
  EXPECT_EQ(std::get<PpoConfig>(ppo->config).network.hidden,
            std::vector<int>{8});
}

TEST(DiscreteConfig, EveryShippedPassAndGraphConfigLoads) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(RLOPT_TEST_DATA) / ".." / ".." / "data" / "configs";
  int loaded = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("passes_", 0) != 0 && name.rfind("graph_", 0) != 0)
      continue;
    SCOPED_TRACE(name);
    auto config = AgentConfig::load(entry.path().string());
    EXPECT_TRUE(config.ok()) << config.error().message;
    ++loaded;
  }
  EXPECT_GE(loaded, 6);
}

TEST(DiscreteConfig, UnknownKeyIsRejectedByName) {
  expectErrorMentioning(PpoConfig::fromJson({{"gama", 0.9}}, "ppo.json"),
                        {"ppo.json", "gama"});
  expectErrorMentioning(A2cConfig::fromJson({{"nsteps", 5}}, "a2c.json"),
                        {"a2c.json", "nsteps"});
  expectErrorMentioning(DqnConfig::fromJson({{"epsilon", 0.1}}, "dqn.json"),
                        {"dqn.json", "epsilon"});
  expectErrorMentioning(SacConfig::fromJson({{"temperature", 1}}, "sac.json"),
                        {"sac.json", "temperature"});
  expectErrorMentioning(
      AgentConfig::fromJson({{"algorithm", "sac"}, {"clip", 0.2}}, "a.json"),
      {"a.json", "clip"});
  expectErrorMentioning(
      AgentConfig::fromJson({{"network", {{"hiden", {64}}}}}, "a.json"),
      {"a.json", "network", "hiden"});
}

TEST(DiscreteConfig, WrongTypesAndRangesAreRejectedByName) {
  expectErrorMentioning(PpoConfig::fromJson({{"epochs", "four"}}, "p.json"),
                        {"p.json", "epochs"});
  expectErrorMentioning(PpoConfig::fromJson({{"gamma", 1.5}}, "p.json"),
                        {"p.json", "gamma"});
  expectErrorMentioning(DqnConfig::fromJson({{"batch_size", 0}}, "d.json"),
                        {"d.json", "batch_size"});
  expectErrorMentioning(DqnConfig::fromJson({{"reward_clip", -1}}, "d.json"),
                        {"d.json", "reward_clip"});
  expectErrorMentioning(
      SacConfig::fromJson({{"target_entropy_scale", 2}}, "s.json"),
      {"s.json", "target_entropy_scale"});
  expectErrorMentioning(A2cConfig::fromJson({{"optimizer", "sgd"}}, "a.json"),
                        {"a.json", "optimizer"});
  expectErrorMentioning(
      AgentConfig::fromJson({{"network", {{"normalization", "zscore"}}}},
                            "a.json"),
      {"a.json", "normalization"});
  expectErrorMentioning(
      AgentConfig::fromJson({{"algorithm", "reinforce"}}, "a.json"),
      {"a.json", "reinforce"});
}

TEST(DiscreteConfig, AlgorithmDefaultsToPpo) {
  auto config = AgentConfig::fromJson({{"clip", 0.3}}, "a.json");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->algorithm(), "ppo");
}

} // namespace
