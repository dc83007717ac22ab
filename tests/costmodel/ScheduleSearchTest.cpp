#include "rlopt/costmodel/ScheduleSearch.h"
#include "rlopt/costmodel/CostDataset.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/ScheduleFeatures.h"
#include "rlopt/linalg/ScheduleMutation.h"

#include "../linalg/LinalgTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <unistd.h>

using namespace rlopt;
using namespace rlopt::costmodel;
using rlopt::linalg::testing::loadFixture;
using rlopt::linalg::testing::quickMeasureOptions;
namespace fs = std::filesystem;

TEST(HeuristicVariants, StartWithTheHostsScheduleAndAreDistinct) {
  for (const char *fixture : {"matmul", "conv_nhwc", "row_max", "chain"}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    linalg::HeuristicOptions options;
    std::vector<linalg::Schedule> variants =
        linalg::heuristicVariants(*program, options);
    ASSERT_FALSE(variants.empty());
    EXPECT_EQ(variants.front().str(),
              linalg::heuristicSchedule(*program, options).str());
    std::set<std::string> distinct;
    for (const linalg::Schedule &s : variants)
      EXPECT_TRUE(distinct.insert(s.str()).second) << s.str();
  }
}

TEST(MutateSchedule, EveryMutantDiffersAndApplies) {
  for (const char *fixture :
       {"matmul", "conv_nchw", "pool_nhwc_max", "chain"}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    linalg::Schedule parent = linalg::heuristicSchedule(*program);
    std::mt19937_64 rng(7);
    int mutants = 0;
    for (int i = 0; i < 200; ++i) {
      auto child = linalg::mutateSchedule(*program, parent, rng);
      if (!child)
        continue;
      ++mutants;
      EXPECT_NE(child->str(), parent.str());
      auto script = linalg::buildTransformScript(*program, *child);
      EXPECT_TRUE(script.ok())
          << fixture << ": " << child->str() << ": " << script.error().message;
    }
    EXPECT_GT(mutants, 20) << fixture;
  }
}

TEST(ProposeCandidates, HeuristicFirstThenDistinct) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  SearchOptions options;
  options.budget = 6;
  options.seed = 3;
  auto candidates = proposeCandidates(*program, options);
  ASSERT_TRUE(candidates.ok()) << candidates.error().message;
  ASSERT_GE(candidates->size(), 6u);
  EXPECT_EQ(candidates->front().schedule.str(),
            linalg::heuristicSchedule(*program).str());
  std::set<std::string> distinct;
  for (const Candidate &c : *candidates)
    EXPECT_TRUE(distinct.insert(c.schedule.str()).second);
  // The same seed proposes the same candidates.
  auto again = proposeCandidates(*program, options);
  ASSERT_TRUE(again.ok());
  for (size_t i = 0; i < candidates->size(); ++i)
    EXPECT_EQ((*again)[i].schedule.str(), (*candidates)[i].schedule.str());
}

TEST(ProposeCandidates, APolicysGreedyScheduleIsMeasuredSecond) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  linalg::Schedule heuristic = linalg::heuristicSchedule(*program);
  std::mt19937_64 rng(11);
  std::vector<linalg::Schedule> proposals;
  for (int i = 0; i < 50 && proposals.size() < 2; ++i) {
    auto mutant = linalg::mutateSchedule(*program, heuristic, rng);
    if (mutant && (proposals.empty() || mutant->str() != proposals[0].str()))
      proposals.push_back(*mutant);
  }
  ASSERT_EQ(proposals.size(), 2u);
  SearchOptions options;
  options.generations = 1;
  options.proposals = proposals;
  auto candidates = proposeCandidates(*program, options);
  ASSERT_TRUE(candidates.ok()) << candidates.error().message;
  ASSERT_GE(candidates->size(), 3u);
  EXPECT_EQ((*candidates)[0].schedule.str(), heuristic.str());
  EXPECT_EQ((*candidates)[1].schedule.str(), proposals[0].str());
  // The other proposals join the population.
  EXPECT_TRUE(std::any_of(candidates->begin(), candidates->end(),
                          [&](const Candidate &c) {
                            return c.schedule.str() == proposals[1].str();
                          }));
}

TEST(SearchSchedule, MeasuredCandidatesBecomeCostModelSamples) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  std::string dir =
      (fs::path(testing::TempDir()) / "rlopt-search-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  auto cache = measure::Cache::open(dir + "/cache.sqlite");
  ASSERT_TRUE(cache.ok()) << cache.error().message;

  SearchOptions options;
  options.budget = 3;
  options.generations = 1;
  auto found =
      searchSchedule(*program, options, quickMeasureOptions(), cache->get());
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_LE(found->measured, 3);
  EXPECT_GE(found->measured, 2);
  EXPECT_TRUE(found->measurement.correct);
  EXPECT_GT(found->measurement.speedup, 0);

  auto dataset = loadCostDataset(**cache, "");
  ASSERT_TRUE(dataset.ok()) << dataset.error().message;
  EXPECT_EQ(dataset->programs, 1u);
  // Two schedules that lower to the same code are measured once: the
  // second is answered from the cache and adds no row.
  EXPECT_GE(dataset->samples.size(), 1u);
  EXPECT_LE(dataset->samples.size(), 3u - found->failed);
  for (const CostSample &s : dataset->samples) {
    EXPECT_EQ(s.features.size(), linalg::scheduleFeatureSize());
    EXPECT_TRUE(std::isfinite(s.logSpeedup));
    EXPECT_GT(s.logSpeedup, 0) << "a 64^3 matmul schedule slower than naive";
  }
  // Another machine's rows are not this machine's samples.
  auto other = loadCostDataset(**cache, "another machine");
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->samples.empty());
  fs::remove_all(dir);
}

TEST(SearchSchedule, AWinnerOtherThanTheHeuristicIsMeasuredAgain) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  std::string dir =
      (fs::path(testing::TempDir()) / "rlopt-confirm-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  auto cache = measure::Cache::open(dir + "/cache.sqlite");
  ASSERT_TRUE(cache.ok()) << cache.error().message;

  SearchOptions options;
  options.budget = 6;
  options.generations = 1;
  options.seed = 5;
  linalg::MeasureOptions measure = quickMeasureOptions();
  auto found = searchSchedule(*program, options, measure, cache->get());
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_LE(found->measured, options.budget);
  ASSERT_TRUE(found->measurement.correct);
  measure::CacheKey winner{found->measurement.programHash,
                           measure::hostMachine().fingerprint(measure.threads)};
  bool heuristic =
      found->schedule.str() == linalg::heuristicSchedule(*program).str();
  if (found->keptHeuristic)
    EXPECT_TRUE(heuristic) << found->schedule.str();
  // The figure returned for another schedule is its second sample, taken
  // after it was chosen; the first stays in the cache beside it.
  if (!heuristic)
    EXPECT_GE((*cache)->count(winner), 2) << found->schedule.str();
  fs::remove_all(dir);
}
