// The contract core::Env states, held by each of the three environments:
// reset with the error as a value, and the same words for misuse.
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/passes/PassesEnv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <unistd.h>

using namespace rlopt;

namespace {

namespace fs = std::filesystem;

struct EnvCase {
  std::string name;
  std::function<std::unique_ptr<Env>()> make;
  std::string benchmark; ///< one that loads
  std::string missing;   ///< one that does not
};

std::string cachePath() {
  return (fs::temp_directory_path() /
          ("rlopt-env-contract-" + std::to_string(getpid()) + ".sqlite"))
      .string();
}

std::vector<EnvCase> cases() {
  std::string data = RLOPT_TEST_DATA;
  return {
      {"linalg",
       [] {
         linalg::EnvConfig config;
         config.cachePath = cachePath();
         return std::unique_ptr<Env>(new linalg::LinalgEnv(config));
       },
       "file://" + data + "/matmul.mlir", data + "/no_such.mlir"},
      {"passes",
       [data] {
         passes::BenchmarkSources sources;
         sources.dataDir = data + "/../../data";
         return std::unique_ptr<Env>(
             passes::PassesEnv::create({}, sources).takeValue());
       },
       data + "/passes/sum.c", data + "/passes/no_such.c"},
      {"graph",
       [data] {
         graph::GraphEnvConfig config;
         config.graphDir = data + "/../../data/hlo";
         return std::unique_ptr<Env>(
             graph::GraphEnv::create(config).takeValue());
       },
       "hlo://torch_xla_neuron/linear_module_forward",
       "hlo://torch_xla_neuron/no_such_graph"},
  };
}

std::string errorOf(const StepResult &step) {
  EXPECT_TRUE(step.terminated);
  return step.info.value("error", std::string());
}

class EnvContract : public ::testing::TestWithParam<EnvCase> {
protected:
  void TearDown() override {
    std::error_code ec;
    for (const char *suffix : {"", "-wal", "-shm"})
      fs::remove(cachePath() + suffix, ec);
  }
};

TEST_P(EnvContract, StepWithoutAnEpisodeSaysSo) {
  auto env = GetParam().make();
  Action first{std::vector<int64_t>(env->spaces().action.nvec.size(), 0)};
  EXPECT_EQ(errorOf(env->step(first)), "step outside an episode; call reset");
}

TEST_P(EnvContract, FailedResetIsAnErrorAndEndsTheEpisode) {
  auto env = GetParam().make();
  ASSERT_TRUE(env->tryReset({GetParam().benchmark}, 0).ok());
  auto failed = env->tryReset({GetParam().missing}, 0);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("no_such"), std::string::npos)
      << failed.error().message;
  Action first{std::vector<int64_t>(env->spaces().action.nvec.size(), 0)};
  EXPECT_EQ(errorOf(env->step(first)), "step outside an episode; call reset");

  // reset() reports the same error through lastError(), and clears it.
  EXPECT_TRUE(env->reset({GetParam().missing}, 0).masks.empty());
  ASSERT_TRUE(env->lastError().has_value());
  EXPECT_EQ(env->lastError()->message, failed.error().message);
  EXPECT_FALSE(env->reset({GetParam().benchmark}, 0).masks.empty());
  EXPECT_FALSE(env->lastError().has_value());
}

TEST_P(EnvContract, ActionOutsideTheSpaceEndsTheEpisodeWithTheSameWords) {
  auto env = GetParam().make();
  ASSERT_TRUE(env->tryReset({GetParam().benchmark}, 0).ok());
  size_t heads = env->spaces().action.nvec.size();
  std::vector<int64_t> tooMany(heads + 1, 0);
  EXPECT_EQ(errorOf(env->step({tooMany})),
            "action has " + std::to_string(heads + 1) + " values; expected " +
                std::to_string(heads));
  EXPECT_EQ(errorOf(env->step({tooMany})),
            "step outside an episode; call reset");

  ASSERT_TRUE(env->tryReset({GetParam().benchmark}, 0).ok());
  std::vector<int64_t> outOfRange(heads, 0);
  int64_t size = env->spaces().action.nvec[0];
  outOfRange[0] = size;
  EXPECT_EQ(errorOf(env->step({outOfRange})),
            "action head " + env->spaces().action.names[0] + " = " +
                std::to_string(size) + " is out of range [0, " +
                std::to_string(size) + ")");
}

INSTANTIATE_TEST_SUITE_P(Environments, EnvContract,
                         ::testing::ValuesIn(cases()),
                         [](const auto &info) { return info.param.name; });

} // namespace
