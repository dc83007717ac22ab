// Behaviour cloning from the heuristic or the search: demonstrations
// collected in worker processes, a policy that afterwards schedules like the
// heuristic, and a training run that clones once before its first iteration.
#include "AgentTestUtil.h"

#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/linalg/Imitation.h"
#include "rlopt/agent/linalg/PolicyRunner.h"
#include "rlopt/linalg/Demonstration.h"
#include "rlopt/measure/MachineInfo.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

namespace {

std::vector<std::string> programs() { return tinyTrainPrograms(); }

/// A fresh policy for `config`'s environment and its optimizer.
struct Learner {
  explicit Learner(const PpoConfig &config)
      : policy(linalg::LinalgEnv(config.env).actionLayout(), config.policy),
        optimizer(policy.parameters(), torch::optim::AdamOptions(1e-3)) {}
  LinalgPolicy policy;
  torch::optim::Adam optimizer;
};

/// A one-iteration run that clones for `epochs` first.
PpoConfig cloningConfig(const ScratchDir &scratch, int epochs) {
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.iterations = 1;
  config.imitationEpochs = epochs;
  return config;
}

/// Clones `demos` into a fresh tiny policy and expects its greedy episodes
/// to schedule every program as its demonstration did.
void expectClonesSchedules(const PpoConfig &config,
                           const std::vector<linalg::Demonstration> &demos) {
  linalg::EnvConfig env = config.env;
  auto server = EnvServer::spawn(
      [env] { return std::unique_ptr<Env>(new linalg::LinalgEnv(env)); });
  ASSERT_TRUE(server.ok()) << server.error().message;
  torch::manual_seed(0);
  LinalgPolicy policy(linalg::LinalgEnv(env).actionLayout(), config.policy);
  torch::optim::Adam optimizer(policy.parameters(),
                               torch::optim::AdamOptions(1e-2));
  // Enough epochs for the tiny network to fit the schedules of either
  // vector width: 256-bit tiles take more distinct sizes than 512-bit ones.
  ImitationOptions options;
  options.epochs = 300;
  options.minibatchSize = 4;
  options.entropyCoef = 0;
  ImitationReport report = imitate(policy, optimizer, demos, options);
  EXPECT_EQ(report.demonstrations, 3);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_GT(report.demonstrationGeomean, 0);
  EXPECT_GT(report.actionProbability, 0.9);

  for (size_t i = 0; i < programs().size(); ++i) {
    auto episode =
        runPolicyEpisode(*server, policy, programs()[i], /*greedy=*/true, 0);
    ASSERT_TRUE(episode.ok()) << episode.error().message;
    EXPECT_EQ(episode->schedule, demos[i].schedule) << programs()[i];
  }
  server->close();
}

TEST(Imitation, ClonedPolicySchedulesLikeTheHeuristic) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  auto demos = collectDemonstrations(config.env, programs(), 2);
  ASSERT_TRUE(demos.ok()) << demos.error().message;
  ASSERT_EQ(demos->size(), programs().size());
  // In program order, whichever worker made them.
  EXPECT_NE((*demos)[0].schedule.find("op1:"), std::string::npos);
  EXPECT_EQ((*demos)[1].schedule.find("op1:"), std::string::npos)
      << "add has one op: " << (*demos)[1].schedule;
  EXPECT_NE((*demos)[2].schedule.find("op3:"), std::string::npos);
  expectClonesSchedules(config, *demos);
}

/// The host decides the heuristic's tile sizes; cloning must fit the
/// schedules of an AVX2 machine and of an AVX-512 one, whichever this is.
class ImitationForTarget : public ::testing::TestWithParam<int> {};

TEST_P(ImitationForTarget, ClonedPolicySchedulesLikeTheHeuristic) {
  measure::CpuTarget target = measure::hostMachine().target;
  target.f32Lanes = GetParam();
  target.vectorRegisters = GetParam() == 8 ? 16 : 32;
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  linalg::LinalgEnv env(config.env);
  std::vector<linalg::Demonstration> demos;
  for (const std::string &program : programs()) {
    auto demo = linalg::demonstrateHeuristic(env, {program}, target);
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    ASSERT_TRUE(demo->error.empty()) << program << ": " << demo->error;
    demos.push_back(std::move(*demo));
  }
  expectClonesSchedules(config, demos);
}

INSTANTIATE_TEST_SUITE_P(VectorWidths, ImitationForTarget,
                         ::testing::Values(8, 16), [](const auto &info) {
                           return info.param == 8 ? std::string("Avx2")
                                                  : std::string("Avx512");
                         });

TEST(Imitation, FailedDemonstrationsAreLeftOut) {
  PolicyConfig config = tinyPolicyConfig();
  LinalgPolicy policy(defaultLayout(), config);
  torch::optim::Adam optimizer(policy.parameters(),
                               torch::optim::AdamOptions(1e-3));
  linalg::Demonstration failed;
  failed.observations.push_back({});
  failed.actions.push_back({});
  failed.rewards.push_back(-1);
  failed.error = "the candidate's outputs differ from the baseline's";
  ImitationReport report = imitate(policy, optimizer, {failed}, {});
  EXPECT_EQ(report.demonstrations, 0);
  EXPECT_EQ(report.skipped, 1);
  EXPECT_EQ(report.steps, 0);
}

// A program the heuristic cannot demonstrate comes back with its error, in
// its place, and cloning learns from the others.
TEST(Imitation, AProgramThatDoesNotLoadIsLeftOut) {
  ScratchDir scratch;
  fs::path broken = scratch / "broken.mlir";
  writeFile(broken.string(), "func.func @f( {\n");
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  auto demos = collectDemonstrations(config.env,
                                     {fixturePath("add"), broken.string()}, 2);
  ASSERT_TRUE(demos.ok()) << demos.error().message;
  ASSERT_EQ(demos->size(), 2u);
  EXPECT_TRUE((*demos)[0].error.empty()) << (*demos)[0].error;
  EXPECT_FALSE((*demos)[1].error.empty());

  Learner learner(config);
  ImitationOptions options;
  options.epochs = 1;
  ImitationReport report =
      imitate(learner.policy, learner.optimizer, *demos, options);
  EXPECT_EQ(report.demonstrations, 1);
  EXPECT_EQ(report.skipped, 1);
  EXPECT_GT(report.steps, 0);
}

// The search teacher demonstrates the winner of the cost model's search
// (here in random order) through the same actions, and cloning learns it.
TEST(Imitation, ClonedPolicySchedulesLikeTheSearchTeacher) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  Teacher teacher;
  teacher.searchBudget = 3;
  teacher.costModelPath = "none";
  auto demos = collectDemonstrations(config.env, programs(), 2, teacher);
  ASSERT_TRUE(demos.ok()) << demos.error().message;
  ASSERT_EQ(demos->size(), programs().size());
  for (const linalg::Demonstration &demo : *demos) {
    EXPECT_TRUE(demo.error.empty()) << demo.error;
    EXPECT_GT(demo.speedup, 0) << demo.schedule;
  }
  expectClonesSchedules(config, *demos);
}

TEST(Imitation, ASearchTeacherWhoseCostModelDoesNotLoadStopsCollection) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  Teacher teacher;
  teacher.searchBudget = 2;
  teacher.costModelPath = (scratch / "missing-model.json").string();
  auto demos = collectDemonstrations(config.env, programs(), 2, teacher);
  ASSERT_FALSE(demos.ok());
  EXPECT_NE(demos.error().message.find("missing-model.json"), std::string::npos)
      << demos.error().message;
}

TEST(Imitation, StopEndsCollectionAndLearning) {
  ScratchDir scratch;
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  std::atomic<bool> stop{true};
  auto demos = collectDemonstrations(config.env, programs(), 2, {}, &stop);
  ASSERT_FALSE(demos.ok());
  EXPECT_NE(demos.error().message.find("stopped"), std::string::npos)
      << demos.error().message;

  stop = false;
  demos = collectDemonstrations(config.env, {fixturePath("add")}, 1);
  ASSERT_TRUE(demos.ok()) << demos.error().message;
  Learner learner(config);
  ImitationOptions options;
  options.epochs = 1000;
  options.stopRequested = &stop;
  stop = true;
  ImitationReport report =
      imitate(learner.policy, learner.optimizer, *demos, options);
  EXPECT_TRUE(report.stopped);
}

// Ctrl-C right after cloning: the clone is saved as iteration 0 and the run
// ends cleanly; --resume starts at iteration 1 without cloning again.
TEST(Imitation, StopAfterCloningKeepsTheClone) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  PpoConfig config = cloningConfig(scratch, 2);
  TrainOptions options = tinyTrainOptions(run);
  std::atomic<bool> stop{false};
  options.stopRequested = &stop;
  int cloned = 0;
  options.onImitation = [&](const ImitationReport &) {
    ++cloned;
    stop = true;
  };
  Status status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(cloned, 1);
  EXPECT_TRUE(readJsonLines(run / "metrics.jsonl").empty());
  EXPECT_TRUE(fs::exists(run / "checkpoint.pt"));
  EXPECT_TRUE(fs::exists(run / "policy.pt"));

  stop = false;
  options.resume = true;
  status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(cloned, 1);
  auto metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 1u);
  EXPECT_EQ(metrics[0].value("iteration", 0), 1);
}

TEST(Imitation, TrainingClonesOnceBeforeTheFirstIteration) {
  ScratchDir scratch;
  fs::path run = scratch / "run";
  PpoConfig config = cloningConfig(scratch, 5);
  TrainOptions options = tinyTrainOptions(run);
  int cloned = 0;
  options.onImitation = [&](const ImitationReport &) { ++cloned; };
  Status status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(cloned, 1);
  auto report = nlohmann::json::parse(readFile(run / "imitation.json"));
  EXPECT_EQ(report.value("demonstrations", 0), 3);
  EXPECT_GT(report.value("steps", 0), 3);
  EXPECT_GT(report.value("action_probability", 0.0), 0);
  EXPECT_EQ(readJsonLines(run / "metrics.jsonl").size(), 1u);

  // A resumed run continues from the checkpoint; it does not clone again.
  config.iterations = 2;
  options.resume = true;
  status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(cloned, 1);
  EXPECT_EQ(readJsonLines(run / "metrics.jsonl").size(), 2u);
}

// The demonstrations.jsonl of a cloning run in `first`, or empty when the
// run fails.
std::string savedDemonstrations(const fs::path &first,
                                const PpoConfig &config) {
  Status status = trainPpo(config, tinyTrainOptions(first), nullptr);
  EXPECT_TRUE(status.ok()) << status.error().message;
  return status.ok() ? (first / "demonstrations.jsonl").string() : "";
}

// A run saves what it cloned; another run clones the same demonstrations
// from that file without asking the teacher, and a file made for another
// action space is refused with its line.
TEST(Imitation, ARunsDemonstrationsCloneAgainWithoutMeasuring) {
  ScratchDir scratch;
  fs::path second = scratch / "second";
  PpoConfig config = cloningConfig(scratch, 2);
  std::string saved = savedDemonstrations(scratch / "first", config);
  ASSERT_FALSE(saved.empty());
  std::vector<nlohmann::json> lines = readJsonLines(saved);
  ASSERT_EQ(lines.size(), programs().size());
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(lines[i].value("program", ""), programs()[i]);

  auto loaded =
      loadDemonstrations(saved, linalg::LinalgEnv(config.env).spaces());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ(loaded->demos.size(), lines.size());
  EXPECT_EQ(loaded->programs, programs());
  EXPECT_FALSE(loaded->otherFeatures);
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(loaded->demos[i].schedule, lines[i].value("schedule", ""));

  config.imitationDemonstrations = saved;
  config.env.cachePath = (scratch / "empty-cache.sqlite").string();
  Status status = trainPpo(config, tinyTrainOptions(second), nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  auto report = nlohmann::json::parse(readFile(second / "imitation.json"));
  EXPECT_EQ(report.value("demonstrations", 0), (int)lines.size());
  EXPECT_FALSE(fs::exists(second / "demonstrations.jsonl"));

  linalg::EnvConfig other = config.env;
  other.tileSizes.push_back(512);
  auto refused = loadDemonstrations(saved, linalg::LinalgEnv(other).spaces());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(saved + ":1: demonstrated in "
                                                 "another action space"),
            std::string::npos)
      << refused.error().message;
}

// Saved under feature layout 1, cloned under layout 2: the run replays the
// saved schedules, so the demonstrations it clones and saves have the new
// observations and the same actions.
TEST(Imitation, DemonstrationsOfAnotherFeatureLayoutAreReplayed) {
  ScratchDir scratch;
  fs::path second = scratch / "second";
  PpoConfig config = cloningConfig(scratch, 2);
  std::string saved = savedDemonstrations(scratch / "first", config);
  ASSERT_FALSE(saved.empty());

  config.env.featureVersion = 2;
  auto spaces = linalg::LinalgEnv(config.env).spaces();
  auto loaded = loadDemonstrations(saved, spaces);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE(loaded->otherFeatures);

  config.imitationDemonstrations = saved;
  Status status = trainPpo(config, tinyTrainOptions(second), nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  auto replayed =
      loadDemonstrations((second / "demonstrations.jsonl").string(), spaces);
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  EXPECT_FALSE(replayed->otherFeatures);
  ASSERT_EQ(replayed->demos.size(), loaded->demos.size());
  for (size_t i = 0; i < loaded->demos.size(); ++i) {
    EXPECT_EQ(replayed->programs[i], loaded->programs[i]);
    const auto &now = replayed->demos[i].actions,
               &before = loaded->demos[i].actions;
    ASSERT_EQ(now.size(), before.size());
    for (size_t a = 0; a < now.size(); ++a)
      EXPECT_EQ(now[a].values, before[a].values);
    ASSERT_FALSE(replayed->demos[i].observations.empty());
    EXPECT_EQ((int64_t)replayed->demos[i].observations[0].features.size(),
              spaces.observation.size());
    EXPECT_EQ(replayed->demos[i].schedule, loaded->demos[i].schedule);
  }
  auto report = nlohmann::json::parse(readFile(second / "imitation.json"));
  EXPECT_EQ(report.value("demonstrations", 0), (int)loaded->demos.size());
}

// Killed after cloning, before the first iteration's checkpoint: the clone
// (iteration 0) is what --resume continues from, without cloning again.
TEST(Imitation, ResumeAfterCloningStartsAtTheFirstIteration) {
  ScratchDir scratch;
  fs::path run = scratch / "run", saved = scratch / "saved";
  fs::create_directories(saved);
  PpoConfig config = cloningConfig(scratch, 2);
  TrainOptions options = tinyTrainOptions(run);
  int cloned = 0;
  options.onImitation = [&](const ImitationReport &) {
    ++cloned;
    for (const char *file : {"checkpoint.pt", "optimizer.pt"})
      fs::copy_file(run / file, saved / file);
  };
  Status status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  ASSERT_EQ(cloned, 1);
  for (const char *file : {"checkpoint.pt", "optimizer.pt"})
    fs::copy_file(saved / file, run / file,
                  fs::copy_options::overwrite_existing);

  options.resume = true;
  status = trainPpo(config, options, nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(cloned, 1);
  auto metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 1u) << "iteration 1 once, not twice";
  EXPECT_EQ(metrics[0].value("iteration", 0), 1);
  EXPECT_TRUE(fs::exists(run / "imitation.json"));
}

} // namespace
