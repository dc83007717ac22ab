// A measurement read back from the cache is checked before it is believed:
// a row with the wrong shape or numbers that no measurement produces is
// refused (and measured again), never an abort and never a speedup.
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

using namespace rlopt::linalg;
using nlohmann::json;

namespace {

json genuine() {
  Measurement m;
  m.baselineMs = 8;
  m.candidateMs = 2;
  m.speedup = 4;
  m.correct = true;
  m.rounds = 3;
  m.programHash = "abc";
  m.externals.push_back({"torch", "", 1.5, 0.01, true, 0});
  return m.toJson();
}

std::string problemWith(const json &row) {
  auto m = Measurement::fromStoredJson(row);
  return m ? "" : m.error().message;
}

TEST(StoredMeasurementTest, GenuineRowRoundTrips) {
  auto m = Measurement::fromStoredJson(genuine());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->speedup, 4);
  EXPECT_TRUE(m->correct);
  ASSERT_EQ(m->externals.size(), 1u);
  EXPECT_EQ(m->externals[0].ms, 1.5);
}

TEST(StoredMeasurementTest, WrongCandidateWithANaNErrorIsStillARow) {
  json row = genuine();
  row["correct"] = false;
  row["speedup"] = 0;
  row["max_abs_error"] = nullptr; // how NaN is written
  auto m = Measurement::fromStoredJson(row);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_FALSE(m->correct);
  EXPECT_TRUE(std::isnan(m->maxAbsError));
}

TEST(StoredMeasurementTest, SpeedupThatDisagreesWithTheTimesIsRefused) {
  json row = genuine();
  row["speedup"] = 1000000;
  EXPECT_EQ(problemWith(row), "the speedup does not match the times");
  row = genuine();
  row["correct"] = false;
  EXPECT_EQ(problemWith(row), "a wrong candidate has a speedup");
}

TEST(StoredMeasurementTest, WrongShapesAreRefused) {
  EXPECT_EQ(problemWith(json::array({1, 2})), "not an object");
  json row = genuine();
  row.erase("candidate_ms");
  EXPECT_EQ(problemWith(row),
            "candidate_ms is missing or not a non-negative number");
  row = genuine();
  row["baseline_ms"] = "8";
  EXPECT_EQ(problemWith(row),
            "baseline_ms is missing or not a non-negative number");
  row = genuine();
  row["correct"] = 1;
  EXPECT_EQ(problemWith(row), "correct is missing or not a boolean");
  row = genuine();
  row["rounds"] = "three";
  EXPECT_EQ(problemWith(row), "a field has the wrong type");
  row = genuine();
  row["externals"][0]["ms"] = "fast";
  EXPECT_EQ(problemWith(row), "an external timing is malformed");
  EXPECT_EQ(problemWith(json::parse("null")), "not an object");
}

} // namespace
