// `rlopt gen ops|chains|nets`: writes a loadable suite and prints a
// summary; bad flags give exit code 2 and one line.
#include "../tools/ToolTestUtil.h"

#include "rlopt/data/Suite.h"

#include <gtest/gtest.h>

using namespace rlopt::tool::testing;
namespace fs = std::filesystem;

namespace {

TEST(GenCli, WritesASuite) {
  ScratchDir scratch;
  std::string out = (scratch / "ops").string();
  RunResult run =
      runRlopt({"gen", "ops", "--out", out, "--seed", "3", "--count", "26"},
               scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("conv_2d"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("total"), std::string::npos) << run.out;
  auto suite = rlopt::data::loadSuite(out);
  ASSERT_TRUE(suite.ok()) << suite.error().message;
  EXPECT_EQ(suite->benchmarks.size(), 26u);
  EXPECT_EQ(suite->info["seed"], 3);
  EXPECT_EQ(suite->info["scale"], "small");

  // A program of the suite is one `rlopt inspect` takes.
  RunResult inspect =
      runRlopt({"inspect", suite->path(suite->benchmarks[0])}, scratch.path());
  EXPECT_EQ(inspect.exitCode, 0) << inspect.err;

  // Writing again over the suite works and gives the same manifest.
  std::string manifest = readFile(fs::path(out) / "manifest.json");
  run = runRlopt({"gen", "ops", "--out", out, "--seed", "3", "--count=26"},
                 scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(readFile(fs::path(out) / "manifest.json"), manifest);
}

TEST(GenCli, WritesChainAndNetSuites) {
  ScratchDir scratch;
  std::string chains = (scratch / "chains").string();
  RunResult run = runRlopt(
      {"gen", "chains", "--out", chains, "--seed", "5", "--count", "6"},
      scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("total"), std::string::npos) << run.out;
  auto suite = rlopt::data::loadSuite(chains);
  ASSERT_TRUE(suite.ok()) << suite.error().message;
  EXPECT_EQ(suite->benchmarks.size(), 6u);
  EXPECT_EQ(suite->info["seed"], 5);
  EXPECT_EQ(suite->benchmarks[0].opClass, "chain");
  RunResult inspect =
      runRlopt({"inspect", suite->path(suite->benchmarks[0])}, scratch.path());
  EXPECT_EQ(inspect.exitCode, 0) << inspect.err;

  std::string nets = (scratch / "nets").string();
  run = runRlopt({"gen", "nets", "--out", nets}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("resnet18"), std::string::npos) << run.out;
  suite = rlopt::data::loadSuite(nets);
  ASSERT_TRUE(suite.ok()) << suite.error().message;
  EXPECT_EQ(suite->benchmarks.size(), 7u);
  EXPECT_EQ(suite->info["scale"], "small");
}

struct BadCase {
  std::vector<std::string> args;
  std::string mention;
};

TEST(GenCli, BadFlags) {
  ScratchDir scratch;
  std::string out = (scratch / "ops").string();
  fs::create_directories(scratch / "taken");
  writeFile(scratch / "taken" / "notes.txt", "mine");
  std::vector<BadCase> cases = {
      {{"gen"}, "suite kind"},
      {{"gen", "foo"}, "unknown suite kind 'foo'"},
      {{"gen", "ops"}, "--out"},
      {{"gen", "ops", "--out", out, "--scale", "huge"}, "'huge'"},
      {{"gen", "ops", "--out", out, "--count", "-1"}, "--count"},
      {{"gen", "ops", "--out", out, "--count", "many"}, "--count"},
      {{"gen", "ops", "--out", out, "--seed", "x"}, "--seed"},
      {{"gen", "ops", "--out", out, "--bogus", "1"}, "--bogus"},
      {{"gen", "ops", "--out", out, "extra"}, "extra"},
      {{"gen", "ops", "--out", (scratch / "taken").string()}, "manifest.json"},
      {{"gen", "chains"}, "--out"},
      {{"gen", "chains", "--out", out, "--count", "x"}, "--count"},
      {{"gen", "nets", "--out", out, "--seed", "1"}, "--seed"},
  };
  for (const BadCase &c : cases) {
    RunResult run = runRlopt(c.args, scratch.path());
    std::string what = c.args.back();
    EXPECT_EQ(run.exitCode, 2) << what << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1)
        << what << ": " << run.err;
    EXPECT_EQ(run.err.rfind("rlopt: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find(c.mention), std::string::npos)
        << what << ": " << run.err;
    EXPECT_EQ(run.out, "") << what;
  }
  EXPECT_FALSE(fs::exists(out));
}

} // namespace
