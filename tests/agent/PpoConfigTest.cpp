// PpoConfig::fromJson: the defaults are the MLIR RL paper's values, and a
// config with an unknown key, a wrong type or an out-of-range value is an
// error naming the file and the key.
#include "AgentTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

namespace {

/// A file the repository ships under data/.
std::string shippedData(const std::string &relative) {
  return std::string(RLOPT_TEST_DATA) + "/../../data/" + relative;
}

void expectErrorMentioning(const Result<PpoConfig> &config,
                           const std::vector<std::string> &words,
                           const std::string &what) {
  ASSERT_FALSE(config.ok()) << what << " was accepted";
  const std::string &message = config.error().message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  for (const std::string &word : words)
    EXPECT_NE(message.find(word), std::string::npos)
        << what << ": '" << message << "' does not mention '" << word << "'";
}

TEST(PpoConfig, DefaultsAreThePapersValues) {
  auto config = PpoConfig::fromJson(nlohmann::json::object(), "ppo.json");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_DOUBLE_EQ(config->learningRate, 1e-3);
  EXPECT_DOUBLE_EQ(config->gamma, 1.0);
  EXPECT_DOUBLE_EQ(config->gaeLambda, 0.95);
  EXPECT_DOUBLE_EQ(config->clip, 0.2);
  EXPECT_DOUBLE_EQ(config->valueCoef, 0.5);
  EXPECT_DOUBLE_EQ(config->entropyCoef, 0.01);
  EXPECT_DOUBLE_EQ(config->maxGradNorm, 0.5);
  EXPECT_EQ(config->epochs, 4);
  EXPECT_EQ(config->programsPerIteration, 64);
  // The paper's network: LSTM 512 and three dense layers of 512.
  EXPECT_EQ(config->policy.lstm, 512);
  EXPECT_EQ(config->policy.dense, (std::vector<int>{512, 512, 512}));
  EXPECT_TRUE(config->policy.producerContext);
  // The environment defaults are the environment's own.
  EXPECT_EQ(config->env.toJson(), linalg::EnvConfig().toJson());
  // And the same as a default-constructed config.
  EXPECT_EQ(config->toJson(), PpoConfig().toJson());
}

TEST(PpoConfig, ToJsonRoundTrips) {
  nlohmann::json json = {
      {"learning_rate", 3e-4},
      {"gae_lambda", 0.9},
      {"clip", 0.1},
      {"epochs", 2},
      {"programs_per_iteration", 8},
      {"iterations", 7},
      {"workers", 3},
      {"eval_every", 0},
      {"seed", 42},
      {"policy", {{"embedding", 16}, {"lstm", 32}, {"dense", {8, 8}}}},
      {"env", {{"repetitions", 1}, {"max_rounds", 1}, {"steps_per_op", 3}}}};
  auto config = PpoConfig::fromJson(json, "ppo.json");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_DOUBLE_EQ(config->learningRate, 3e-4);
  EXPECT_EQ(config->epochs, 2);
  EXPECT_EQ(config->seed, 42u);
  EXPECT_EQ(config->policy.lstm, 32);
  EXPECT_EQ(config->policy.dense, (std::vector<int>{8, 8}));
  EXPECT_EQ(config->env.stepsPerOp, 3u);
  EXPECT_EQ(config->env.measure.timing.repetitions, 1);
  // Keys left out keep their defaults.
  EXPECT_DOUBLE_EQ(config->entropyCoef, 0.01);
  auto again = PpoConfig::fromJson(config->toJson(), "again.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->toJson(), config->toJson());
}

TEST(PpoConfig, LoadNamesTheFile) {
  ScratchDir scratch;
  std::string path = (scratch / "ppo.json").string();
  writeFile(path, R"({"epochs": 3, "policy": {"lstm": 8}})");
  auto config = PpoConfig::load(path);
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->epochs, 3);
  EXPECT_EQ(config->policy.lstm, 8);

  writeFile(path, R"({"epochs": 3,)");
  expectErrorMentioning(PpoConfig::load(path), {path}, "malformed JSON");
  std::string missing = (scratch / "missing.json").string();
  expectErrorMentioning(PpoConfig::load(missing), {missing}, "missing file");
}

TEST(PpoConfig, UnknownKeysAreErrors) {
  expectErrorMentioning(PpoConfig::fromJson({{"learning_rte", 1e-3}}, "c.json"),
                        {"c.json", "learning_rte"}, "top-level typo");
  expectErrorMentioning(
      PpoConfig::fromJson({{"policy", {{"lstmm", 16}}}}, "c.json"),
      {"c.json", "lstmm"}, "policy typo");
  expectErrorMentioning(
      PpoConfig::fromJson({{"env", {{"repetition", 1}}}}, "c.json"),
      {"c.json", "repetition"}, "env typo");
  expectErrorMentioning(PpoConfig::fromJson(nlohmann::json::array(), "c.json"),
                        {"c.json"}, "an array");
}

TEST(PpoConfig, WrongTypesAreErrors) {
  expectErrorMentioning(PpoConfig::fromJson({{"epochs", "four"}}, "c.json"),
                        {"c.json", "epochs"}, "string epochs");
  expectErrorMentioning(PpoConfig::fromJson({{"clip", true}}, "c.json"),
                        {"c.json", "clip"}, "bool clip");
  expectErrorMentioning(
      PpoConfig::fromJson({{"policy", {{"dense", 16}}}}, "c.json"),
      {"c.json", "dense"}, "scalar dense");
  expectErrorMentioning(PpoConfig::fromJson({{"policy", 16}}, "c.json"),
                        {"c.json", "policy"}, "scalar policy");
}

TEST(PpoConfig, OutOfRangeValuesAreErrors) {
  std::vector<nlohmann::json> bad = {
      {{"learning_rate", 0}},
      {{"learning_rate", -1e-3}},
      {{"clip", 0}},
      {{"clip", -0.2}},
      {{"gamma", 1.5}},
      {{"gamma", -0.1}},
      {{"gae_lambda", 1.01}},
      {{"gae_lambda", -0.5}},
      {{"epochs", 0}},
      {{"minibatches", 0}},
      {{"programs_per_iteration", 0}},
      {{"iterations", 0}},
      {{"workers", 0}},
      {{"checkpoint_every", 0}},
      {{"eval_every", -1}},
      {{"imitation_search_budget", -1}},
      {{"imitation_search_budget", 1001}},
      {{"imitation_cost_model", 8}},
      {{"measured_every", 0}},
      {{"measured_every", 4}},      // without a reward_model
      {{"reward_model", "m.json"}}, // measured_every 1 predicts nothing
      {{"reward_model", 3}},
      {{"policy", {{"lstm", 0}}}},
      {{"policy", {{"embedding", -4}}}},
      {{"policy", {{"dense", nlohmann::json::array()}}}},
      {{"policy", {{"dense", {16, 0}}}}},
      {{"env", {{"repetitions", 0}}}},
      {{"env", {{"reward", "sometimes"}}}},
  };
  // The error names the file and, for a top-level value, the key.
  for (const nlohmann::json &json : bad) {
    std::vector<std::string> named = {"c.json"};
    if (!json.begin()->is_object())
      named.push_back(json.begin().key());
    expectErrorMentioning(PpoConfig::fromJson(json, "c.json"), named,
                          json.dump());
  }
  // The limits themselves are fine.
  for (const nlohmann::json &json :
       {nlohmann::json{{"gamma", 0}},
        {{"gamma", 1}},
        {{"gae_lambda", 0}},
        {{"gae_lambda", 1}},
        {{"eval_every", 0}},
        {{"epochs", 1}},
        {{"iterations", 0}, {"imitation_epochs", 1}},
        {{"reward_model", "m.json"}, {"measured_every", 4}}}) {
    auto config = PpoConfig::fromJson(json, "c.json");
    EXPECT_TRUE(config.ok()) << json.dump() << ": " << config.error().message;
  }
}

// A non-positive max_grad_norm or a negative coefficient would train the
// wrong way; they are errors.
TEST(PpoConfig, NegativeCoefficientsAndGradNormAreErrors) {
  for (const nlohmann::json &json : {nlohmann::json{{"max_grad_norm", -0.5}},
                                     {{"max_grad_norm", 0}},
                                     {{"value_coef", -1}},
                                     {{"entropy_coef", -0.01}},
                                     {{"imitation_epochs", -1}},
                                     {{"imitation_learning_rate", 0}},
                                     {{"imitation_minibatch_size", 0}}})
    expectErrorMentioning(PpoConfig::fromJson(json, "c.json"),
                          {"c.json", json.begin().key()}, json.dump());
}

} // namespace

// Each shipped ablation config is the short baseline run with one switch
// flipped, so the arms differ in what they ablate and nothing else.
TEST(PpoConfig, ShippedAblationsFlipOneSwitchEach) {
  std::string dir = shippedData("configs/ablations/");
  auto base = PpoConfig::load(dir + "pointers_final_lstm.json");
  ASSERT_TRUE(base.ok()) << base.error().message;
  EXPECT_EQ(base->env.interchange, "pointers");
  EXPECT_EQ(base->env.reward, linalg::RewardMode::Final);
  EXPECT_TRUE(base->policy.producerContext);

  auto enumerated = PpoConfig::load(dir + "enumerated_interchange.json");
  auto perStep = PpoConfig::load(dir + "per_step_reward.json");
  auto consumerOnly = PpoConfig::load(dir + "consumer_only.json");
  auto imitation = PpoConfig::load(dir + "imitation.json");
  ASSERT_TRUE(enumerated.ok() && perStep.ok() && consumerOnly.ok() &&
              imitation.ok());
  EXPECT_EQ(base->imitationEpochs, 0);
  EXPECT_GT(imitation->imitationEpochs, 0);
  EXPECT_EQ(enumerated->env.interchange, "enumerated");
  EXPECT_EQ(perStep->env.reward, linalg::RewardMode::PerStep);
  EXPECT_FALSE(consumerOnly->policy.producerContext);

  nlohmann::json baseJson = base->toJson();
  auto differingKeys = [&](const PpoConfig &arm) {
    nlohmann::json diff = nlohmann::json::diff(baseJson, arm.toJson());
    return diff.size();
  };
  EXPECT_EQ(differingKeys(*enumerated), 1u);
  EXPECT_EQ(differingKeys(*perStep), 1u);
  EXPECT_EQ(differingKeys(*consumerOnly), 1u);
  EXPECT_EQ(differingKeys(*imitation), 1u);
}

// ppo_imitation.json is the paper's config plus the behaviour-cloning warm
// start, a shorter PPO phase at a lower rate, and tile candidates that
// divide CNN feature maps (7, 14, 28, 49).
TEST(PpoConfig, ImitationConfigIsTheDefaultWithAWarmStart) {
  auto paper = PpoConfig::load(shippedData("configs/ppo_default.json"));
  auto imitation = PpoConfig::load(shippedData("configs/ppo_imitation.json"));
  ASSERT_TRUE(paper.ok()) << paper.error().message;
  ASSERT_TRUE(imitation.ok()) << imitation.error().message;
  EXPECT_EQ(paper->imitationEpochs, 0);
  EXPECT_EQ(imitation->imitationEpochs, 100);
  std::vector<int64_t> sizes = imitation->env.tileSizes;
  for (int64_t divisor : {7, 14, 28, 49})
    EXPECT_TRUE(std::count(sizes.begin(), sizes.end(), divisor)) << divisor;
  // PPO fine-tunes the cloned policy at a tenth of the paper's rate: at
  // 1e-3 its first updates undo what cloning learned.
  EXPECT_LT(imitation->learningRate, paper->learningRate);
  EXPECT_EQ(imitation->imitationLearningRate, paper->learningRate);
  // Nothing else differs from the paper's config.
  PpoConfig same = *imitation;
  same.imitationEpochs = paper->imitationEpochs;
  same.env.tileSizes = paper->env.tileSizes;
  same.learningRate = paper->learningRate;
  same.iterations = paper->iterations;
  EXPECT_EQ(same.toJson(), paper->toJson());
}

// The shipped policy was trained by its recipe: the run's config, shipped
// beside the policy, is the recipe's, and the recipe clones without PPO.
TEST(PpoConfig, ShippedPolicyConfigIsItsRecipe) {
  auto recipe = PpoConfig::load(shippedData("configs/default_policy.json"));
  auto shipped = PpoConfig::load(shippedData("policies/default-config.json"));
  ASSERT_TRUE(recipe.ok()) << recipe.error().message;
  ASSERT_TRUE(shipped.ok()) << shipped.error().message;
  EXPECT_EQ(recipe->toJson(), shipped->toJson());
  EXPECT_GT(recipe->imitationEpochs, 0);
  EXPECT_EQ(recipe->iterations, 0);
  EXPECT_EQ(recipe->env.featureVersion, 2u);
}
