// splits.json as datasets write it and as users get it wrong: one reader for
// the pass-ordering suites, the graph corpus and dataset installs.
#include "rlopt/core/Splits.h"
#include "rlopt/core/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace rlopt;

namespace {

const std::vector<std::string> kNames = {"a", "b", "c", "d"};

/// readSplits over `text` written to a fresh splits.json.
Result<Splits> splitsOf(const std::string &text) {
  auto dir = TempDir::create("rlopt-splits-test");
  EXPECT_TRUE(dir.ok());
  std::ofstream(dir->file("splits.json")) << text;
  return readSplits(dir->file("splits.json"), kNames);
}

std::string errorOf(const std::string &text) {
  auto splits = splitsOf(text);
  return splits ? "" : splits.error().message;
}

} // namespace

TEST(Splits, ASplitLeftOutIsTheRestInTheDatasetsOrder) {
  auto onlyTest = splitsOf(R"({"about": "why", "test": ["c", "a"]})");
  ASSERT_TRUE(onlyTest.ok()) << onlyTest.error().message;
  EXPECT_EQ(onlyTest->test, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(onlyTest->train, (std::vector<std::string>{"b", "d"}));
  auto onlyTrain = splitsOf(R"({"train": ["d"]})");
  ASSERT_TRUE(onlyTrain.ok());
  EXPECT_EQ(onlyTrain->test, (std::vector<std::string>{"a", "b", "c"}));
  // Both given: each lists exactly its own; "b" is in neither.
  auto both = splitsOf(R"({"train": ["a", "d"], "test": ["c"]})");
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->train, (std::vector<std::string>{"a", "d"}));
  EXPECT_EQ(both->test, (std::vector<std::string>{"c"}));
  EXPECT_EQ(*both->of("all", kNames), kNames);
  EXPECT_EQ(*both->of("test", kNames), both->test);
  EXPECT_EQ(both->of("holdout", kNames).error().message,
            "split 'holdout': expected train, test or all");
}

TEST(Splits, MistakesAreOneLineErrorsNamingTheFile) {
  for (auto [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"[]", "expected an object with train and test arrays"},
           {R"({"about": "x"})", "expected a train or a test array"},
           {R"({"tests": ["a"]})",
            "unknown key 'tests' (expected train, test and about)"},
           {R"({"test": "a"})", "test: expected an array of names"},
           {R"({"test": ["z"]})",
            "test: \"z\" is not a program of the dataset"},
           {R"({"test": [1]})", "test: 1 is not a program of the dataset"},
           {R"({"train": ["a"], "test": ["a"]})", "\"a\" is in two splits"},
           {R"({"about": 3, "test": []})", "about: expected a string"},
           {R"({"test": [)", "parse error"}}) {
    std::string error = errorOf(text);
    EXPECT_NE(error.find("splits.json"), std::string::npos) << text;
    EXPECT_NE(error.find(expected), std::string::npos)
        << text << " -> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}
