// LinalgPolicy: masks make invalid values unselectable, act() and
// evaluate() agree, heads the chosen transformation does not use add nothing
// to the log-probability, and policy files round-trip (and are refused when
// they do not fit).
#include "AgentTestUtil.h"

#include "rlopt/linalg/Transformation.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

namespace {

int64_t typeIndex(const std::string &name) {
  const auto &all = linalg::transformations();
  for (size_t i = 0; i < all.size(); ++i)
    if (name == all[i].name)
      return i;
  ADD_FAILURE() << "no transformation " << name;
  return 0;
}

std::vector<int64_t> headOffsets(const LinalgPolicy &policy) {
  std::vector<int64_t> offsets;
  int64_t offset = 0;
  for (int64_t size : policy.headSizes()) {
    offsets.push_back(offset);
    offset += size;
  }
  offsets.push_back(offset);
  return offsets;
}

struct Batch {
  torch::Tensor observations, masks;
};

/// Random observations (the interchange flag on in about half the rows) and
/// random masks that allow at least one value per head.
Batch randomBatch(const LinalgPolicy &policy, int64_t rows,
                  double allowedFraction = 0.3) {
  const linalg::ActionLayout &layout = policy.actionLayout();
  Batch batch;
  batch.observations = torch::randn({rows, layout.observationSize()});
  batch.observations.select(1, layout.interchangeFlag)
      .copy_((torch::rand({rows}) < 0.5).to(torch::kFloat));
  std::vector<int64_t> offsets = headOffsets(policy);
  torch::Tensor masks = torch::rand({rows, offsets.back()}) < allowedFraction;
  for (size_t h = 0; h < policy.headSizes().size(); ++h) {
    torch::Tensor one =
        torch::randint(policy.headSizes()[h], {rows, 1}, torch::kLong);
    masks.narrow(1, offsets[h], policy.headSizes()[h])
        .scatter_(1, one, torch::ones({rows, 1}, torch::kBool));
  }
  batch.masks = masks.to(torch::kUInt8);
  return batch;
}

/// Every action value is one its mask allows.
void expectAllowed(const LinalgPolicy &policy, const Batch &batch,
                   const torch::Tensor &actions, const std::string &what) {
  std::vector<int64_t> offsets = headOffsets(policy);
  ASSERT_EQ(actions.dim(), 2);
  ASSERT_EQ(actions.size(0), batch.masks.size(0));
  ASSERT_EQ(actions.size(1), (int64_t)policy.headSizes().size());
  for (size_t h = 0; h < policy.headSizes().size(); ++h) {
    torch::Tensor head = actions.select(1, h).unsqueeze(1);
    ASSERT_TRUE((head >= 0).all().item<bool>()) << what << ", head " << h;
    ASSERT_TRUE((head < policy.headSizes()[h]).all().item<bool>())
        << what << ", head " << h;
    torch::Tensor allowed =
        batch.masks.narrow(1, offsets[h], policy.headSizes()[h])
            .gather(1, head);
    ASSERT_TRUE((allowed == 1).all().item<bool>())
        << what << ": head " << h << " chose a masked value";
  }
}

/// log p(action) of head `h` alone, from the actor's logits.
torch::Tensor headLogProb(LinalgPolicy &policy, const Batch &batch,
                          const torch::Tensor &actions, size_t h) {
  torch::NoGradGuard noGrad;
  std::vector<int64_t> offsets = headOffsets(policy);
  int64_t size = policy.headSizes()[h];
  torch::Tensor logits =
      policy.actor->forward(batch.observations).narrow(1, offsets[h], size);
  torch::Tensor allowed =
      batch.masks.narrow(1, offsets[h], size).to(torch::kBool);
  torch::Tensor logP =
      torch::log_softmax(logits.masked_fill(~allowed, -1e9), 1);
  return logP.gather(1, actions.select(1, h).unsqueeze(1)).squeeze(1);
}

/// Entropy of head `h` alone, over its allowed values.
torch::Tensor headEntropy(LinalgPolicy &policy, const Batch &batch, size_t h) {
  torch::NoGradGuard noGrad;
  std::vector<int64_t> offsets = headOffsets(policy);
  int64_t size = policy.headSizes()[h];
  torch::Tensor logits =
      policy.actor->forward(batch.observations).narrow(1, offsets[h], size);
  torch::Tensor allowed =
      batch.masks.narrow(1, offsets[h], size).to(torch::kBool);
  torch::Tensor logP =
      torch::log_softmax(logits.masked_fill(~allowed, -1e9), 1);
  return -torch::where(allowed, logP.exp() * logP, torch::zeros_like(logP))
              .sum(1);
}

void expectClose(const torch::Tensor &a, const torch::Tensor &b,
                 const std::string &what) {
  ASSERT_EQ(a.sizes(), b.sizes()) << what;
  EXPECT_TRUE(torch::allclose(a.detach(), b.detach(), 1e-4, 1e-5))
      << what << ":\n"
      << a << "\nvs\n"
      << b;
}

/// Forces the type of every row to `type` (allowing it in the mask) and
/// sets the interchange flag to `pointer`.
void forceType(const LinalgPolicy &policy, Batch &batch, torch::Tensor &actions,
               int64_t type, bool pointer) {
  batch.masks.narrow(1, 0, policy.headSizes()[0]).select(1, type).fill_(1);
  actions.select(1, 0).fill_(type);
  batch.observations.select(1, policy.actionLayout().interchangeFlag)
      .fill_(pointer ? 1.0 : 0.0);
}

class LinalgPolicyTest : public ::testing::Test {
protected:
  void SetUp() override { torch::manual_seed(1234); }
  linalg::ActionLayout layout = defaultLayout();
};

TEST_F(LinalgPolicyTest, HeadsFollowTheEnvironmentsLayout) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  linalg::LinalgEnv env{linalg::EnvConfig()};
  const auto &nvec = env.spaces().action.nvec;
  ASSERT_EQ(policy.headSizes().size(), nvec.size());
  for (size_t h = 0; h < nvec.size(); ++h)
    EXPECT_EQ(policy.headSizes()[h], nvec[h]) << "head " << h;
  EXPECT_EQ(layout.observationSize(), env.spaces().observation.size());
}

TEST_F(LinalgPolicyTest, SampledAndGreedyActionsRespectTheMasks) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  for (int trial = 0; trial < 50; ++trial) {
    double fraction = trial % 2 ? 0.1 : 0.5;
    Batch batch = randomBatch(policy, 16, fraction);
    auto sampled = policy.act(batch.observations, batch.masks, false);
    expectAllowed(policy, batch, sampled.actions,
                  "sampled, trial " + std::to_string(trial));
    auto greedy = policy.act(batch.observations, batch.masks, true);
    expectAllowed(policy, batch, greedy.actions,
                  "greedy, trial " + std::to_string(trial));
    for (const torch::Tensor &t :
         {sampled.logProb, greedy.logProb, sampled.entropy, sampled.value}) {
      ASSERT_EQ(t.sizes(), torch::IntArrayRef({16}));
      ASSERT_TRUE(torch::isfinite(t).all().item<bool>()) << t;
    }
    // A masked value never contributes its -inf-like log-probability.
    EXPECT_TRUE((sampled.logProb <= 0).all().item<bool>());
    EXPECT_TRUE((sampled.logProb > -1e3).all().item<bool>());
  }
}

TEST_F(LinalgPolicyTest, MasksWinOverLogitsThatPreferAMaskedValue) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  std::vector<int64_t> offsets = headOffsets(policy);
  // Make value 1 of every head overwhelmingly likely, then mask it.
  {
    torch::NoGradGuard noGrad;
    for (auto &item : policy.actor->named_parameters())
      if (item.key() == "head.bias")
        for (size_t h = 0; h < policy.headSizes().size(); ++h)
          item.value()[offsets[h] + 1] = 1000.0;
  }
  for (int trial = 0; trial < 20; ++trial) {
    Batch batch = randomBatch(policy, 16);
    for (size_t h = 0; h < policy.headSizes().size(); ++h) {
      batch.masks.narrow(1, offsets[h], policy.headSizes()[h])
          .select(1, 1)
          .fill_(0);
      // Keep another value allowed.
      batch.masks.narrow(1, offsets[h], policy.headSizes()[h])
          .select(1, 0)
          .fill_(1);
    }
    expectAllowed(policy, batch,
                  policy.act(batch.observations, batch.masks, true).actions,
                  "greedy");
    expectAllowed(policy, batch,
                  policy.act(batch.observations, batch.masks, false).actions,
                  "sampled");
  }
  // With the value allowed, greedy picks it.
  Batch open = randomBatch(policy, 8, 1.0);
  auto greedy = policy.act(open.observations, open.masks, true);
  EXPECT_TRUE((greedy.actions == 1).all().item<bool>()) << greedy.actions;
}

TEST_F(LinalgPolicyTest, SingleAllowedValueIsAlwaysChosenWithLogProbZero) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  std::vector<int64_t> offsets = headOffsets(policy);
  Batch batch = randomBatch(policy, 32);
  batch.masks.zero_();
  for (size_t h = 0; h < policy.headSizes().size(); ++h)
    batch.masks.narrow(1, offsets[h], policy.headSizes()[h])
        .select(1, policy.headSizes()[h] - 1)
        .fill_(1);
  for (bool greedy : {false, true}) {
    auto out = policy.act(batch.observations, batch.masks, greedy);
    for (size_t h = 0; h < policy.headSizes().size(); ++h)
      EXPECT_TRUE((out.actions.select(1, h) == policy.headSizes()[h] - 1)
                      .all()
                      .item<bool>());
    expectClose(out.logProb, torch::zeros({32}), "log-probability");
    expectClose(out.entropy, torch::zeros({32}), "entropy");
  }
}

TEST_F(LinalgPolicyTest, ActAndEvaluateAgreeOnTheSameActions) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  for (int trial = 0; trial < 10; ++trial) {
    Batch batch = randomBatch(policy, 32);
    for (bool greedy : {false, true}) {
      auto acted = policy.act(batch.observations, batch.masks, greedy);
      auto evaluated =
          policy.evaluate(batch.observations, batch.masks, acted.actions);
      expectClose(acted.logProb, evaluated.logProb, "log-probability");
      expectClose(acted.entropy, evaluated.entropy, "entropy");
      expectClose(acted.value, evaluated.value, "value");
      EXPECT_TRUE(torch::equal(acted.actions, evaluated.actions));
    }
  }
  // evaluate() is differentiable (PPO backpropagates through it).
  Batch batch = randomBatch(policy, 4);
  auto acted = policy.act(batch.observations, batch.masks, false);
  auto evaluated =
      policy.evaluate(batch.observations, batch.masks, acted.actions);
  EXPECT_TRUE(evaluated.logProb.requires_grad());
  EXPECT_TRUE(evaluated.value.requires_grad());
  EXPECT_FALSE(acted.logProb.requires_grad());
}

TEST_F(LinalgPolicyTest, StopCountsOnlyTheTypeHead) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  Batch batch = randomBatch(policy, 32);
  torch::Tensor actions =
      policy.act(batch.observations, batch.masks, false).actions.clone();
  forceType(policy, batch, actions, typeIndex("stop"), false);
  auto out = policy.evaluate(batch.observations, batch.masks, actions);
  expectClose(out.logProb, headLogProb(policy, batch, actions, 0),
              "log p(stop)");
  expectClose(out.entropy, headEntropy(policy, batch, 0), "entropy of stop");

  // The other heads' values do not matter.
  Batch other = batch;
  other.masks = torch::ones_like(batch.masks);
  other.masks.narrow(1, 0, policy.headSizes()[0])
      .copy_(batch.masks.narrow(1, 0, policy.headSizes()[0]));
  torch::Tensor changed = actions.clone();
  for (size_t h = 1; h < policy.headSizes().size(); ++h)
    changed.select(1, h).fill_(policy.headSizes()[h] - 1);
  expectClose(policy.evaluate(other.observations, other.masks, changed).logProb,
              out.logProb, "log p(stop) with other parameter heads");
}

TEST_F(LinalgPolicyTest, TileCountsTheTypeAndTileHeadsOnly) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  Batch batch = randomBatch(policy, 32);
  torch::Tensor actions =
      policy.act(batch.observations, batch.masks, false).actions.clone();
  forceType(policy, batch, actions, layout.tileType, false);
  auto out = policy.evaluate(batch.observations, batch.masks, actions);
  torch::Tensor expected = headLogProb(policy, batch, actions, 0);
  for (int l = 0; l < layout.maxLoops; ++l)
    expected =
        expected + headLogProb(policy, batch, actions, layout.tileHead(l));
  expectClose(out.logProb, expected, "log p(tile)");

  // Changing the parallelize heads and the pointer head changes nothing.
  Batch other = batch;
  other.masks = batch.masks.clone();
  torch::Tensor changed = actions.clone();
  for (int h = layout.parallelHead(0); h <= layout.pointerHead(); ++h) {
    other.masks.narrow(1, headOffsets(policy)[h], policy.headSizes()[h])
        .fill_(1);
    changed.select(1, h).fill_(policy.headSizes()[h] - 1);
  }
  expectClose(policy.evaluate(other.observations, other.masks, changed).logProb,
              out.logProb, "log p(tile) with other parallelize/pointer values");
}

TEST_F(LinalgPolicyTest, ParallelizeAndFuseCountTheParallelHeadsOnly) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  for (int type : {layout.parallelizeType, layout.fuseType}) {
    Batch batch = randomBatch(policy, 32);
    torch::Tensor actions =
        policy.act(batch.observations, batch.masks, false).actions.clone();
    forceType(policy, batch, actions, type, false);
    auto out = policy.evaluate(batch.observations, batch.masks, actions);
    torch::Tensor expected = headLogProb(policy, batch, actions, 0);
    torch::Tensor entropy = headEntropy(policy, batch, 0);
    for (int l = 0; l < layout.maxLoops; ++l) {
      expected = expected +
                 headLogProb(policy, batch, actions, layout.parallelHead(l));
      entropy = entropy + headEntropy(policy, batch, layout.parallelHead(l));
    }
    expectClose(out.logProb, expected,
                "log p(" + std::string(linalg::transformations()[type].name) +
                    ")");
    expectClose(out.entropy, entropy, "entropy");
  }
}

TEST_F(LinalgPolicyTest, OptInSplitReductionCountsTheTileHeads) {
  linalg::EnvConfig config;
  config.extraTransformations = {"split_reduction"};
  linalg::ActionLayout extended = linalg::LinalgEnv(config).actionLayout();
  LinalgPolicy policy(extended, tinyPolicyConfig());
  ASSERT_EQ(policy.headSizes()[0], layout.numTypes + 1);
  Batch batch = randomBatch(policy, 32);
  torch::Tensor actions =
      policy.act(batch.observations, batch.masks, false).actions.clone();
  forceType(policy, batch, actions, extended.extraTileTypes.at(0), false);
  auto out = policy.evaluate(batch.observations, batch.masks, actions);
  torch::Tensor expected = headLogProb(policy, batch, actions, 0);
  for (int l = 0; l < extended.maxLoops; ++l)
    expected =
        expected + headLogProb(policy, batch, actions, extended.tileHead(l));
  expectClose(out.logProb, expected, "log p(split_reduction)");
}

TEST_F(LinalgPolicyTest, PointerHeadCountsWhileChoosingAnInterchange) {
  LinalgPolicy policy(layout, tinyPolicyConfig());
  Batch batch = randomBatch(policy, 32);
  torch::Tensor actions =
      policy.act(batch.observations, batch.masks, false).actions.clone();
  forceType(policy, batch, actions, layout.interchangeType, true);
  auto out = policy.evaluate(batch.observations, batch.masks, actions);
  expectClose(out.logProb,
              headLogProb(policy, batch, actions, 0) +
                  headLogProb(policy, batch, actions, layout.pointerHead()),
              "log p(interchange pointer)");

  // Outside an interchange the pointer head adds nothing.
  forceType(policy, batch, actions, layout.interchangeType, false);
  out = policy.evaluate(batch.observations, batch.masks, actions);
  expectClose(out.logProb, headLogProb(policy, batch, actions, 0),
              "log p(interchange) without the flag");
}

TEST_F(LinalgPolicyTest, SaveLoadRoundTripGivesIdenticalOutputs) {
  ScratchDir scratch;
  std::string path = (scratch / "policy.pt").string();
  LinalgPolicy policy(layout, tinyPolicyConfig());
  ASSERT_TRUE(policy.save(path, {{"iteration", 3}}).ok());
  EXPECT_EQ(scratch.entries(), std::vector<std::string>{"policy.pt"})
      << "no temporary file is left behind";

  nlohmann::json extra;
  auto loaded = LinalgPolicy::load(path, layout, &extra);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  LinalgPolicy &copy = **loaded;
  EXPECT_EQ(extra, nlohmann::json({{"iteration", 3}}));
  EXPECT_EQ(copy.config().toJson(), tinyPolicyConfig().toJson());
  EXPECT_TRUE(copy.actionLayout() == layout);
  EXPECT_EQ(copy.headSizes(), policy.headSizes());

  Batch batch = randomBatch(policy, 16);
  torch::NoGradGuard noGrad;
  EXPECT_TRUE(torch::equal(policy.actor->forward(batch.observations),
                           copy.actor->forward(batch.observations)));
  EXPECT_TRUE(torch::equal(policy.critic->forward(batch.observations),
                           copy.critic->forward(batch.observations)));
  auto a = policy.act(batch.observations, batch.masks, true);
  auto b = copy.act(batch.observations, batch.masks, true);
  EXPECT_TRUE(torch::equal(a.actions, b.actions));
  EXPECT_TRUE(torch::equal(a.logProb, b.logProb));
  EXPECT_TRUE(torch::equal(a.value, b.value));

  // Not trivially equal: another initialization differs.
  LinalgPolicy fresh(layout, tinyPolicyConfig());
  EXPECT_FALSE(torch::equal(fresh.actor->forward(batch.observations),
                            copy.actor->forward(batch.observations)));

  // A non-default config (ablation without producer context) round-trips.
  PolicyConfig ablation = tinyPolicyConfig();
  ablation.producerContext = false;
  ablation.dense = {8, 12};
  LinalgPolicy other(layout, ablation);
  ASSERT_TRUE(other.save(path).ok());
  auto reloaded = LinalgPolicy::load(path, layout);
  ASSERT_TRUE(reloaded.ok()) << reloaded.error().message;
  EXPECT_EQ((*reloaded)->config().toJson(), ablation.toJson());
  EXPECT_TRUE(torch::equal(other.actor->forward(batch.observations),
                           (*reloaded)->actor->forward(batch.observations)));
}

void expectOneLineNaming(const Error &error, const std::string &path) {
  EXPECT_NE(error.message.find(path), std::string::npos)
      << "'" << error.message << "' does not name " << path;
  EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
}

TEST_F(LinalgPolicyTest, LoadRefusesAnotherLayout) {
  ScratchDir scratch;
  std::string path = (scratch / "policy.pt").string();
  ASSERT_TRUE(LinalgPolicy(layout, tinyPolicyConfig()).save(path).ok());

  std::vector<std::pair<std::string, linalg::ActionLayout>> others;
  linalg::ActionLayout version = layout;
  version.featureVersion += 1;
  others.push_back({"feature version", version});
  linalg::ActionLayout features = layout;
  features.opFeatureSize += 4;
  others.push_back({"op feature size", features});
  linalg::ActionLayout tiles = layout;
  tiles.numTileSizes -= 1;
  others.push_back({"tile sizes", tiles});
  // What a user gets by changing the environment config.
  linalg::EnvConfig fewerLoops;
  fewerLoops.maxLoops = 6;
  others.push_back(
      {"max_loops 6", linalg::LinalgEnv(fewerLoops).actionLayout()});
  linalg::EnvConfig moreSizes;
  moreSizes.tileSizes = {0, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  others.push_back(
      {"10 tile sizes", linalg::LinalgEnv(moreSizes).actionLayout()});
  linalg::EnvConfig split;
  split.extraTransformations = {"split_reduction"};
  others.push_back(
      {"split_reduction opted in", linalg::LinalgEnv(split).actionLayout()});

  for (const auto &[what, expected] : others) {
    ASSERT_FALSE(expected == layout) << what;
    Result<std::unique_ptr<LinalgPolicy>> loaded =
        makeError("load threw an exception");
    EXPECT_NO_THROW(loaded = LinalgPolicy::load(path, expected)) << what;
    ASSERT_FALSE(loaded.ok()) << what << ": a mismatched layout was accepted";
    expectOneLineNaming(loaded.error(), path);
    EXPECT_NE(loaded.error().message.find("layout"), std::string::npos)
        << loaded.error().message;
  }
}

TEST_F(LinalgPolicyTest, LoadOfABadFileIsACleanError) {
  ScratchDir scratch;
  std::string good = (scratch / "good.pt").string();
  ASSERT_TRUE(LinalgPolicy(layout, tinyPolicyConfig()).save(good).ok());
  std::string bytes = readFile(good);

  std::string garbage = (scratch / "garbage.pt").string();
  writeFile(garbage, "this is not a policy\n");
  std::string empty = (scratch / "empty.pt").string();
  writeFile(empty, "");
  std::string truncated = (scratch / "truncated.pt").string();
  writeFile(truncated, bytes.substr(0, bytes.size() / 2));
  std::string missing = (scratch / "missing.pt").string();
  std::string directory = scratch.path().string();
  // A LibTorch archive, but not a policy.
  std::string tensor = (scratch / "tensor.pt").string();
  {
    torch::serialize::OutputArchive archive;
    archive.write("weights", torch::ones({3}));
    archive.save_to(tensor);
  }
  // Metadata whose config does not match the stored weights.
  std::string mismatched = (scratch / "mismatched.pt").string();
  {
    LinalgPolicy small(layout, tinyPolicyConfig());
    PolicyConfig claimed = tinyPolicyConfig();
    claimed.lstm = 32;
    torch::serialize::OutputArchive archive;
    nlohmann::json meta = {{"format", "rlopt-linalg-policy"},
                           {"layout", layout.toJson()},
                           {"policy", claimed.toJson()},
                           {"extra", nlohmann::json::object()}};
    archive.write("meta", c10::IValue(meta.dump()));
    for (const auto &item : small.actor->named_parameters())
      archive.write("actor." + item.key(), item.value());
    for (const auto &item : small.critic->named_parameters())
      archive.write("critic." + item.key(), item.value());
    archive.save_to(mismatched);
  }

  for (const std::string &path :
       {garbage, empty, truncated, missing, directory, tensor, mismatched}) {
    Result<std::unique_ptr<LinalgPolicy>> loaded =
        makeError("load threw an exception");
    EXPECT_NO_THROW(loaded = LinalgPolicy::load(path, layout)) << path;
    ASSERT_FALSE(loaded.ok()) << path << " was accepted";
    expectOneLineNaming(loaded.error(), path);
  }
  // The good file still loads.
  EXPECT_TRUE(LinalgPolicy::load(good, layout).ok());
}

TEST_F(LinalgPolicyTest, SaveToAnUnwritablePlaceIsAnError) {
  ScratchDir scratch;
  std::string path = (scratch / "no" / "such" / "dir" / "policy.pt").string();
  Status status = Status::success();
  EXPECT_NO_THROW(status = LinalgPolicy(layout, tinyPolicyConfig()).save(path));
  ASSERT_FALSE(status.ok());
  expectOneLineNaming(status.error(), path);
}

} // namespace
