// PPO between measured batches: iterations that are not measured take their
// final rewards from a regression cost model, and say so in the run files.
#include "AgentTestUtil.h"

#include "rlopt/agent/linalg/PredictedReward.h"
#include "rlopt/costmodel/CostModel.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/ScheduleFeatures.h"
#include "rlopt/linalg/ScheduleMutation.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace rlopt;
using namespace rlopt::agent;
using namespace rlopt::agent::testing;

namespace {

/// A cost model fitted to made-up labels of the heuristic's variants of the
/// training programs, saved at `path`.
void saveModel(const std::string &path, const std::string &objective) {
  auto context = linalg::createContext();
  std::vector<costmodel::CostSample> samples;
  for (const std::string &file : tinyTrainPrograms()) {
    auto program = linalg::loadProgram(*context, file);
    ASSERT_TRUE(program.ok()) << program.error().message;
    std::vector<linalg::Schedule> variants =
        linalg::heuristicVariants(*program, linalg::HeuristicOptions());
    variants.push_back(linalg::Schedule());
    for (size_t i = 0; i < variants.size(); ++i) {
      auto features = linalg::scheduleFeatures(*program, variants[i]);
      ASSERT_TRUE(features.ok()) << features.error().message;
      samples.push_back({file, file, variants[i].str(), *features,
                         0.5 * static_cast<double>(i % 4)});
    }
  }
  costmodel::TrainOptions options;
  options.objective = objective;
  options.rounds = 20;
  auto model = costmodel::CostModel::train(samples, options);
  ASSERT_TRUE(model.ok()) << model.error().message;
  ASSERT_TRUE(model->save(path).ok());
}

/// The model's estimate for `schedule` of `file`, computed apart.
double estimate(const std::string &modelPath, const std::string &file,
                const std::string &scheduleText) {
  auto context = linalg::createContext();
  auto program = linalg::loadProgram(*context, file);
  auto schedule = linalg::parseSchedule(scheduleText);
  auto model = costmodel::CostModel::load(modelPath);
  EXPECT_TRUE(program.ok() && schedule.ok() && model.ok());
  auto features = linalg::scheduleFeatures(*program, *schedule);
  EXPECT_TRUE(features.ok());
  auto predicted = model->predict({*features});
  EXPECT_TRUE(predicted.ok());
  return predicted.ok() ? (*predicted)[0] : NAN;
}

} // namespace

TEST(PredictedReward, IterationsBetweenMeasuredOnesUseTheModelsEstimate) {
  ScratchDir scratch;
  std::string model = (scratch / "model.json").string();
  saveModel(model, "regression");
  fs::path run = scratch / "run";
  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.rewardModel = model;
  config.measuredEvery = 2;
  Status status = trainPpo(config, tinyTrainOptions(run), nullptr);
  ASSERT_TRUE(status.ok()) << status.error().message;

  std::vector<nlohmann::json> metrics = readJsonLines(run / "metrics.jsonl");
  ASSERT_EQ(metrics.size(), 2u);
  // Iteration 1 measured nothing: no measured speedup, an estimate instead.
  EXPECT_FALSE(metrics[0].contains("geomean_speedup")) << metrics[0].dump();
  ASSERT_TRUE(metrics[0].contains("predicted_speedup")) << metrics[0].dump();
  EXPECT_GT(metrics[0]["predicted_speedup"].get<double>(), 0);
  // Iteration 2 is measured.
  ASSERT_TRUE(metrics[1].contains("geomean_speedup")) << metrics[1].dump();
  EXPECT_GT(metrics[1]["geomean_speedup"].get<double>(), 0);
  EXPECT_FALSE(metrics[1].contains("predicted_speedup"));

  int predictedEpisodes = 0;
  for (const nlohmann::json &e : readJsonLines(run / "episodes.jsonl")) {
    SCOPED_TRACE(e.dump());
    bool predicted = e.at("predicted").get<bool>();
    EXPECT_EQ(predicted, e.at("iteration").get<int>() == 1);
    if (!predicted || e.at("failed").get<bool>())
      continue;
    ++predictedEpisodes;
    double expected = estimate(model, e.at("program"), e.at("schedule"));
    EXPECT_NEAR(std::log(e.at("speedup").get<double>()), expected, 1e-5);
  }
  EXPECT_GT(predictedEpisodes, 0);

  // The measured iteration's episodes are in the cache now, and the model
  // was fitted again to them (when they cover two programs or more).
  std::set<std::string> measuredPrograms;
  for (const nlohmann::json &e : readJsonLines(run / "episodes.jsonl"))
    if (e.at("iteration") == 2 && !e.at("failed").get<bool>())
      measuredPrograms.insert(e.at("program").get<std::string>());
  ASSERT_TRUE(metrics[1].contains("reward_model_samples"));
  if (measuredPrograms.size() >= 2)
    EXPECT_GE(metrics[1]["reward_model_samples"].get<double>(),
              static_cast<double>(measuredPrograms.size()));
  EXPECT_FALSE(metrics[0].contains("reward_model_samples"));
}

TEST(PredictedReward, ARankingModelIsRefusedWithTheReason) {
  ScratchDir scratch;
  std::string model = (scratch / "ranking.json").string();
  saveModel(model, "ranking");
  auto loaded = PredictedReward::load(model);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find(model), std::string::npos);
  EXPECT_NE(loaded.error().message.find("--objective regression"),
            std::string::npos)
      << loaded.error().message;

  PpoConfig config = tinyPpoConfig((scratch / "cache.sqlite").string());
  config.rewardModel = model;
  config.measuredEvery = 2;
  Status status = trainPpo(config, tinyTrainOptions(scratch / "run"), nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("regression"), std::string::npos);
  // Nothing is trained from a model that cannot give rewards.
  EXPECT_FALSE(fs::exists(scratch / "run" / "policy.pt"));
}

TEST(PredictedReward, AMissingModelIsAnErrorThatNamesIt) {
  auto loaded = PredictedReward::load("/nonexistent/model.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("/nonexistent/model.json"),
            std::string::npos);
}
