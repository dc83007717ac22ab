#include "../tools/ToolTestUtil.h"
#include "GraphTestUtil.h"

#include "rlopt/graph/GraphEnv.h"
#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/OpCount.h"
#include "rlopt/graph/Printer.h"

#include <cmath>
#include <filesystem>

using namespace rlopt;
using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

GraphEnvConfig bundledConfig() {
  GraphEnvConfig config;
  config.graphDir = bundledGraphs().string();
  return config;
}

std::unique_ptr<GraphEnv> makeEnv(GraphEnvConfig config = bundledConfig()) {
  auto env = GraphEnv::create(config);
  EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
  return env.takeValue();
}

Action pass(const std::string &name) {
  auto index = findGraphPass(name);
  EXPECT_TRUE(index.has_value()) << name;
  return Action{{index.value_or(0)}};
}

const char *kLinear = "hlo://torch_xla_neuron/linear_module_forward";
const char *kGpt2Layer = "hlo://torch_xla_neuron/gpt2_tp-1_n_layer-1";

} // namespace

TEST(GraphEnv, SpacesFollowTheOpcodeVocabularyAndThePassList) {
  auto env = makeEnv();
  EXPECT_EQ(env->spaces().observation.size(),
            static_cast<int64_t>(kNumOpcodes));
  EXPECT_EQ(env->spaces().action.nvec[0],
            static_cast<int64_t>(graphPasses().size()));
  GraphEnvConfig withCost = bundledConfig();
  withCost.observation = "OpCountCost";
  EXPECT_EQ(makeEnv(withCost)->spaces().observation.size(),
            static_cast<int64_t>(kNumOpcodes) + 2);
}

TEST(GraphEnv, ObservationIsTheOpCountVectorScaledByTheStart) {
  auto env = makeEnv();
  auto obs = env->tryReset({kLinear}, 0);
  ASSERT_TRUE(obs.ok()) << obs.error().message;
  OpCounts counts = countModuleOps(env->module());
  ASSERT_GT(counts.total, 0);
  double sum = 0;
  for (size_t i = 0; i < kNumOpcodes; ++i) {
    EXPECT_FLOAT_EQ(obs->features[i],
                    static_cast<float>(counts.perOpcode[i]) / counts.total);
    sum += obs->features[i];
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
  EXPECT_EQ(env->initialOpCount(), counts.total);
}

TEST(GraphEnv, RewardIsTheNegativeScaledOpCountOfTheNewState) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kLinear}, 0).ok());
  double start = static_cast<double>(env->initialOpCount());
  StepResult step = env->step(pass("dce"));
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_DOUBLE_EQ(step.reward, -env->opCount() / start);
  EXPECT_EQ(step.info["op_count"].get<int64_t>(), env->opCount());

  GraphEnvConfig reduction = bundledConfig();
  reduction.reward = "OpCountReduction";
  auto delta = makeEnv(reduction);
  ASSERT_TRUE(delta->tryReset({kLinear}, 0).ok());
  for (const char *name : {"cse", "dce", "algsimp", "dce"})
    delta->step(pass(name));
  EXPECT_NEAR(delta->episodeReward(), (start - delta->opCount()) / start,
              1e-12);
}

TEST(GraphEnv, ShapingAddsTheFlopPotentialDifference) {
  GraphEnvConfig plain = bundledConfig();
  plain.reward = "OpCountReduction";
  GraphEnvConfig shaped = plain;
  shaped.shaping = true;
  shaped.shapingGamma = 1.0; // the potential telescopes exactly
  auto a = makeEnv(plain), b = makeEnv(shaped);
  const char *graph = "hlo://torch_xla_neuron/simple_linear_model";
  ASSERT_TRUE(a->tryReset({graph}, 0).ok());
  ASSERT_TRUE(b->tryReset({graph}, 0).ok());
  for (const char *name : {"algsimp", "cse", "dce", "logistic-expander"}) {
    a->step(pass(name));
    b->step(pass(name));
  }
  // With gamma 1 the shaping sums to phi(end) - phi(start), and phi(start)
  // is -1 by its normalization.
  double shapingSum = b->episodeReward() - a->episodeReward();
  EXPECT_LE(shapingSum, 1.0 + 1e-9);
  EXPECT_EQ(a->opCount(), b->opCount());
}

TEST(GraphEnv, ForkIsIndependentOfItsParent) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kLinear}, 0).ok());
  std::string start = printModule(env->module());
  auto child = env->fork();
  auto *childEnv = static_cast<GraphEnv *>(child.get());
  for (const char *name : {"cse", "dce", "algsimp", "tuple-simplifier"})
    childEnv->step(pass(name));
  EXPECT_EQ(printModule(env->module()), start);
  EXPECT_TRUE(env->actionHistory().empty());
  EXPECT_EQ(childEnv->actionHistory().size(), 4u);
}

TEST(GraphEnv, DefaultPipelineNeverAddsOps) {
  auto env = makeEnv();
  for (const char *graph :
       {kLinear, "hlo://torch_xla_neuron/gpt2_tp-1_n_layer-1"}) {
    ASSERT_TRUE(env->tryReset({graph}, 0).ok());
    auto pipeline = env->defaultPipelineOpCount();
    ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
    EXPECT_LE(*pipeline, env->initialOpCount()) << graph;
  }
}

TEST(GraphEnv, EpisodesEndAtTheirLengthAndBadActionsAreErrors) {
  GraphEnvConfig config = bundledConfig();
  config.episodeLength = 2;
  auto env = makeEnv(config);
  ASSERT_TRUE(env->tryReset({kLinear}, 0).ok());
  EXPECT_FALSE(env->step(pass("dce")).truncated);
  EXPECT_TRUE(env->step(pass("dce")).truncated);
  EXPECT_TRUE(env->step(pass("dce")).info.contains("error"));
  ASSERT_TRUE(env->tryReset({kLinear}, 0).ok());
  StepResult bad = env->step(Action{{-3}});
  EXPECT_TRUE(bad.terminated);
  EXPECT_TRUE(bad.info.contains("error"));
}

TEST(GraphEnv, BadGraphsGetClearErrors) {
  auto env = makeEnv();
  auto unknown = env->tryReset({"hlo://no/such/graph"}, 0);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown graph"), std::string::npos);
  auto scheme = env->tryReset({"xla://graph"}, 0);
  ASSERT_FALSE(scheme.ok());
  EXPECT_NE(scheme.error().message.find("unknown URI scheme"),
            std::string::npos);
  auto malformed = env->tryReset({fixture("malformed/duplicate_name.hlo")}, 0);
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.error().message.find("duplicate_name.hlo:"),
            std::string::npos)
      << malformed.error().message;
  Observation obs = env->reset({"hlo://no/such/graph"}, 0);
  EXPECT_TRUE(obs.features.empty());
  EXPECT_TRUE(env->lastError().has_value());
  EXPECT_FALSE(GraphEnv::create([] {
                 GraphEnvConfig c = bundledConfig();
                 c.reward = "Speed";
                 return c;
               }())
                   .ok());
}

// hlo:// names a graph of the dataset and nothing else: paths that climb
// out, absolute paths and odd spellings are refused before any file is
// touched, and a link that leads out of the graph directory is refused too.
TEST(GraphEnv, HloNamesStayInsideTheGraphDirectory) {
  auto env = makeEnv();
  for (std::string uri :
       {"hlo://../../../../etc/passwd", "hlo:///etc/passwd",
        "hlo://torch_xla_neuron/../torch_xla_neuron/linear_module_forward",
        "hlo://./torch_xla_neuron/linear_module_forward",
        "hlo://torch_xla_neuron//linear_module_forward", "hlo://..",
        "hlo://torch_xla_neuron\\..\\..\\x", "hlo://"}) {
    auto result = env->tryReset({uri}, 0);
    ASSERT_FALSE(result.ok()) << uri;
    EXPECT_EQ(result.error().message,
              uri + ": not a bundled graph name (hlo:// names a graph of the "
                    "dataset, without '..', '.', empty or absolute parts)");
  }
  EXPECT_TRUE(env->tryReset({kLinear}, 0).ok());

  rlopt::tool::testing::ScratchDir scratch;
  std::filesystem::copy_file(fixture("small.hlo"), scratch / "inside.hlo");
  std::filesystem::create_symlink(fixture("small.hlo"), scratch / "escape.hlo");
  GraphEnvConfig config;
  config.graphDir = scratch.path().string();
  auto scratchEnv = makeEnv(config);
  EXPECT_TRUE(scratchEnv->tryReset({"hlo://inside"}, 0).ok());
  auto escape = scratchEnv->tryReset({"hlo://escape"}, 0);
  ASSERT_FALSE(escape.ok());
  EXPECT_EQ(escape.error().message,
            "hlo://escape: leads outside the graph directory " +
                scratch.path().string());
}

TEST(GraphEnv, EveryBundledGraphIsAnEnvironmentStart) {
  auto env = makeEnv();
  auto uris = env->graphUris();
  EXPECT_EQ(uris.size(), 91u);
  for (const auto &uri : uris) {
    auto obs = env->tryReset({uri}, 0);
    EXPECT_TRUE(obs.ok()) << uri << ": "
                          << (obs.ok() ? "" : obs.error().message);
  }
}

namespace {

int64_t firstAllowed(const Observation &obs) {
  const auto &mask = obs.masks.at(0);
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i])
      return static_cast<int64_t>(i);
  return -1;
}

} // namespace

TEST(GraphEnv, APassThatChangedNothingIsMaskedUntilTheGraphChanges) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kGpt2Layer}, 0).ok());
  Action dce = pass("dce");
  env->step(dce);
  StepResult again = env->step(dce);
  ASSERT_FALSE(again.info["changed"].get<bool>());
  EXPECT_EQ(again.obs.masks.at(0).at(dce.values[0]), 0);

  // Any pass that changes the graph opens the mask again.
  bool reopened = false;
  for (size_t p = 0; p < graphPasses().size() && !reopened; ++p) {
    auto branch = env->fork();
    StepResult tried = branch->step(Action{{static_cast<int64_t>(p)}});
    if (!tried.info.value("changed", false))
      continue;
    EXPECT_EQ(tried.obs.masks.at(0).at(dce.values[0]), 1)
        << graphPasses()[p].name;
    reopened = true;
  }
  EXPECT_TRUE(reopened) << "no pass changes the graph after dce";

  GraphEnvConfig unmasked = bundledConfig();
  unmasked.maskUnchangedPasses = false;
  auto plain = makeEnv(unmasked);
  ASSERT_TRUE(plain->tryReset({kGpt2Layer}, 0).ok());
  plain->step(dce);
  StepResult open = plain->step(dce);
  EXPECT_EQ(open.obs.masks.at(0).at(dce.values[0]), 1);
}

TEST(GraphEnv, AtAFixedPointEveryPassIsAllowedAndChangesNothing) {
  GraphEnvConfig config = bundledConfig();
  config.episodeLength = 1000;
  auto env = makeEnv(config);
  auto obs = env->tryReset({fixture("tosa_cse.hlo")}, 0);
  ASSERT_TRUE(obs.ok());
  Observation current = *obs;
  int unchangedInARow = 0, changes = 0;
  int passes = static_cast<int>(graphPasses().size());
  for (int step = 0; step < config.episodeLength && unchangedInARow < passes;
       ++step) {
    StepResult result = env->step(Action{{firstAllowed(current)}});
    ASSERT_FALSE(result.info.contains("error"));
    bool changed = result.info["changed"].get<bool>();
    changes += changed;
    unchangedInARow = changed ? 0 : unchangedInARow + 1;
    current = result.obs;
  }
  ASSERT_EQ(unchangedInARow, passes) << "no fixed point within the episode";
  EXPECT_GT(changes, 0);
  for (uint8_t allowed : current.masks.at(0))
    EXPECT_EQ(allowed, 1);
  int64_t count = env->opCount();
  StepResult idle = env->step(pass("algsimp"));
  EXPECT_FALSE(idle.info["changed"].get<bool>());
  EXPECT_EQ(env->opCount(), count);
}
