// data/suites/ops-small, the default suite: it loads, every program
// validates, and it is exactly what the generator writes today.
#include "../tools/ToolTestUtil.h"

#include "rlopt/data/OpSuite.h"
#include "rlopt/data/Suite.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Program.h"

#include <gtest/gtest.h>

#include <set>

using namespace rlopt;
using namespace rlopt::data;
using rlopt::tool::testing::readFile;
namespace fs = std::filesystem;

namespace {

const std::string kRegenerate =
    "regenerate it with: rlopt gen ops --out data/suites/ops-small --seed 0 "
    "--count 60 --scale small";

std::string shippedDir() {
  return (fs::path(RLOPT_TEST_DATA) / ".." / ".." / "data" / "suites" /
          "ops-small")
      .lexically_normal()
      .string();
}

TEST(ShippedSuite, LoadsAndValidates) {
  auto suite = loadSuite(shippedDir());
  ASSERT_TRUE(suite.ok()) << suite.error().message;
  EXPECT_EQ(suite->benchmarks.size(), 60u);
  EXPECT_LE(suite->benchmarks.size(), 100u);
  std::set<std::string> splits, classes;
  auto context = linalg::createContext();
  uintmax_t bytes = 0;
  for (const BenchmarkSpec &b : suite->benchmarks) {
    splits.insert(b.split);
    classes.insert(b.opClass);
    bytes += fs::file_size(suite->path(b));
    auto program = linalg::loadProgram(*context, suite->path(b));
    EXPECT_TRUE(program.ok()) << program.error().message;
  }
  EXPECT_EQ(splits.size(), 3u);
  EXPECT_EQ(classes.size(), opSuiteClasses().size());
  EXPECT_LT(bytes, 4u << 20) << "the shipped suite should stay small";
}

TEST(ShippedSuite, IsWhatTheGeneratorWrites) {
  OpSuiteOptions options;
  options.seed = 0;
  options.count = 60;
  options.scale = Scale::Small;
  rlopt::tool::testing::ScratchDir scratch;
  fs::path fresh = scratch / "ops-small";
  ASSERT_TRUE(
      writeSuite(generateOpSuite(options), fresh.string(), opSuiteInfo(options))
          .ok());
  std::set<std::string> freshFiles, shippedFiles;
  for (const auto &entry : fs::directory_iterator(fresh))
    freshFiles.insert(entry.path().filename().string());
  for (const auto &entry : fs::directory_iterator(shippedDir()))
    shippedFiles.insert(entry.path().filename().string());
  ASSERT_EQ(shippedFiles, freshFiles) << kRegenerate;
  for (const std::string &name : freshFiles)
    EXPECT_EQ(readFile(fs::path(shippedDir()) / name), readFile(fresh / name))
        << name << " differs; " << kRegenerate;
}

} // namespace
