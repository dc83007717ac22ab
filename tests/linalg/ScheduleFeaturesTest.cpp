#include "rlopt/linalg/ScheduleFeatures.h"

#include "LinalgTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using rlopt::linalg::testing::loadFixture;

namespace {

std::vector<float> featuresOf(const Program &program, const std::string &text) {
  auto schedule = parseSchedule(text);
  EXPECT_TRUE(schedule.ok()) << text;
  auto features = scheduleFeatures(program, *schedule);
  EXPECT_TRUE(features.ok()) << text << ": " << features.error().message;
  return features ? *features : std::vector<float>();
}

TEST(ScheduleFeatures, FixedLengthForEveryProgramAndSchedule) {
  for (const char *fixture : {"matmul", "chain", "conv_nhwc", "row_max"}) {
    auto program = loadFixture(fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    EXPECT_EQ(featuresOf(*program, "").size(), scheduleFeatureSize());
  }
}

TEST(ScheduleFeatures, TellApartWhatTheEnvironmentsFeaturesLeaveOut) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  // The same innermost tile reached through different cache tiles, and the
  // same steps in another loop order, are different schedules.
  std::vector<std::string> schedules = {
      "op1: tile(32,32,64) tile(8,16,1) vectorize",
      "op1: tile(16,64,64) tile(8,16,1) vectorize",
      "op1: tile(32,32,64) interchange(1,0,2) tile(8,16,1) vectorize",
      "op1: tile(32,32,64) tile(8,16,1)", ""};
  std::vector<std::vector<float>> all;
  for (const std::string &text : schedules)
    all.push_back(featuresOf(*program, text));
  for (size_t a = 0; a < all.size(); ++a)
    for (size_t b = a + 1; b < all.size(); ++b)
      EXPECT_NE(all[a], all[b]) << schedules[a] << " vs " << schedules[b];
}

TEST(ScheduleFeatures, AScheduleThatDoesNotApplyIsAnError) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok());
  auto schedule = parseSchedule("op1: tile(32,32) vectorize");
  ASSERT_TRUE(schedule.ok());
  auto features = scheduleFeatures(*program, *schedule);
  ASSERT_FALSE(features.ok());
  EXPECT_EQ(features.error().message.find('\n'), std::string::npos);
}

} // namespace
