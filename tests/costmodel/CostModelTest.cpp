#include "rlopt/costmodel/CostModel.h"
#include "rlopt/costmodel/Ranking.h"
#include "rlopt/linalg/ScheduleFeatures.h"
#include "rlopt/linalg/ScheduleMutation.h"

#include "../linalg/LinalgTestUtil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>

using namespace rlopt;
using namespace rlopt::costmodel;
using rlopt::linalg::testing::loadFixture;
namespace fs = std::filesystem;

namespace {

/// A made-up cost the model can only learn from the features: vectorized
/// ops and small tiles of the first loop are "fast".
double syntheticLogSpeedup(const linalg::Program &program,
                           const linalg::Schedule &schedule) {
  double value = 0;
  for (const linalg::OpSchedule &op : schedule.ops)
    for (const linalg::TransformStep &step : op.steps) {
      if (step.name == "vectorize")
        value += 1;
      if (step.name == "tile" && !step.params.empty()) {
        int64_t range = program.findOp(op.opId)->loopRanges[0];
        int64_t size = step.params[0] == 0 ? range : step.params[0];
        value -= 0.2 * std::log2(static_cast<double>(size));
      }
    }
  return value;
}

/// Distinct schedules of `fixture` reached by mutating the heuristic's.
std::vector<CostSample> samplesOf(const std::string &fixture, size_t count,
                                  uint64_t seed) {
  auto program = loadFixture(fixture);
  EXPECT_TRUE(program.ok()) << program.error().message;
  std::vector<CostSample> samples;
  if (!program)
    return samples;
  std::mt19937_64 rng(seed);
  std::vector<linalg::Schedule> pool =
      linalg::heuristicVariants(*program, linalg::HeuristicOptions());
  std::set<std::string> seen;
  for (int attempt = 0; attempt < 5000 && samples.size() < count; ++attempt) {
    linalg::Schedule parent = pool[rng() % pool.size()];
    auto child = linalg::mutateSchedule(*program, parent, rng);
    if (!child || !seen.insert(child->str()).second)
      continue;
    pool.push_back(*child);
    auto features = linalg::scheduleFeatures(*program, *child);
    EXPECT_TRUE(features.ok());
    if (features)
      samples.push_back({fixture, fixture, child->str(), *features,
                         syntheticLogSpeedup(*program, *child)});
  }
  return samples;
}

fs::path tempFile(const std::string &name) {
  return fs::path(testing::TempDir()) / name;
}

} // namespace

TEST(KendallTau, OrdersCompare) {
  EXPECT_DOUBLE_EQ(kendallTau({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(kendallTau({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_DOUBLE_EQ(kendallTau({1, 1, 1}, {1, 2, 3}), 0.0);
  // One swapped pair of six: (5 - 1) / 6.
  EXPECT_NEAR(kendallTau({1, 2, 3, 4}, {1, 3, 2, 4}), 4.0 / 6.0, 1e-12);
}

TEST(CostModel, OrdersSchedulesItWasNotShown) {
  std::vector<CostSample> train = samplesOf("matmul", 160, 1);
  ASSERT_GE(train.size(), 100u);
  std::vector<CostSample> heldOut(train.end() - 40, train.end());
  train.resize(train.size() - 40);
  for (const std::string objective : {"regression", "ranking"}) {
    TrainOptions options;
    options.objective = objective;
    options.rounds = 60;
    auto model = CostModel::train(train, options);
    ASSERT_TRUE(model.ok()) << model.error().message;
    auto quality = rankingQuality(*model, heldOut);
    ASSERT_TRUE(quality.ok()) << quality.error().message;
    EXPECT_EQ(quality->programs, 1u);
    EXPECT_GT(quality->kendallTau, 0.5) << objective;
    EXPECT_LT(quality->top5Regret, quality->top1Regret + 1e-12) << objective;
  }
}

TEST(CostModel, SavedModelPredictsTheSame) {
  std::vector<CostSample> samples = samplesOf("matmul", 40, 3);
  ASSERT_FALSE(samples.empty());
  TrainOptions options;
  options.rounds = 20;
  auto model = CostModel::train(samples, options);
  ASSERT_TRUE(model.ok()) << model.error().message;
  std::string path = tempFile("costmodel-roundtrip.json").string();
  ASSERT_TRUE(model->save(path).ok());
  auto loaded = CostModel::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->objective(), "ranking");
  EXPECT_EQ(loaded->trainedOn(), samples.size());
  std::vector<std::vector<float>> rows;
  for (const CostSample &s : samples)
    rows.push_back(s.features);
  auto before = model->predict(rows);
  auto after = loaded->predict(rows);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(*before, *after);
}

TEST(CostModel, BadFilesAreOneLineErrorsNamingTheFile) {
  std::string path = tempFile("costmodel-bad.json").string();
  struct Case {
    std::string text, expected;
  };
  std::vector<Case> cases = {
      {"not json", "not a cost model"},
      {"[1, 2]", "not a cost model"},
      {R"({"format": "something"})", "not a cost model"},
      {R"({"format": "rlopt-costmodel", "version": 99})", "format version"},
      {R"({"format": "rlopt-costmodel", "version": 1, "feature_version": 1,
           "features": 3, "objective": "regression", "xgboost": {}})",
       "another feature layout"},
      {R"({"format": "rlopt-costmodel", "version": 1, "feature_version": 1,
           "features": )" +
           std::to_string(linalg::scheduleFeatureSize()) + "}",
       "lacks"},
      {R"({"format": "rlopt-costmodel", "version": 1, "feature_version": 1,
           "features": )" +
           std::to_string(linalg::scheduleFeatureSize()) +
           R"(, "objective": "regression", "xgboost": {"learner": 5}})",
       "XGBoost cannot read"},
  };
  for (const Case &c : cases) {
    std::ofstream(path) << c.text;
    auto model = CostModel::load(path);
    ASSERT_FALSE(model.ok()) << c.text;
    const std::string &message = model.error().message;
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  auto missing = CostModel::load(tempFile("no-such-model.json").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read"), std::string::npos);
}

TEST(CostModel, RefusesNothingToLearnAndUnknownObjectives) {
  EXPECT_FALSE(CostModel::train({}, TrainOptions()).ok());
  std::vector<CostSample> samples = samplesOf("matmul", 5, 4);
  TrainOptions options;
  options.objective = "guess";
  auto model = CostModel::train(samples, options);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().message.find("guess"), std::string::npos);
}
