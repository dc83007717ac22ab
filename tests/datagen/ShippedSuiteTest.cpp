// The bundled suites (data/suites/ops-small, chains-small, nets-small): each
// loads, every program validates, and each is exactly what its generator
// writes today.
#include "../tools/ToolTestUtil.h"

#include "rlopt/data/ChainSuite.h"
#include "rlopt/data/NetSuite.h"
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

/// A bundled suite and how to make it again.
struct Shipped {
  std::string dir;
  size_t count;
  std::string regenerate; ///< the command
  std::vector<BenchmarkSpec> (*generate)();
  nlohmann::json (*info)();
};

const std::vector<Shipped> &shippedSuites() {
  static const std::vector<Shipped> suites = {
      {"ops-small", 60,
       "rlopt gen ops --out data/suites/ops-small --seed 0 --count 60 "
       "--scale small",
       [] {
         OpSuiteOptions o;
         o.count = 60;
         return generateOpSuite(o);
       },
       [] {
         OpSuiteOptions o;
         o.count = 60;
         return opSuiteInfo(o);
       }},
      {"chains-small", 40,
       "rlopt gen chains --out data/suites/chains-small --seed 0 --count 40 "
       "--scale small",
       [] { return generateChainSuite(ChainSuiteOptions()); },
       [] { return chainSuiteInfo(ChainSuiteOptions()); }},
      {"nets-small", 7,
       "rlopt gen nets --out data/suites/nets-small --scale small",
       [] { return generateNetSuite(NetSuiteOptions()); },
       [] { return netSuiteInfo(NetSuiteOptions()); }},
  };
  return suites;
}

std::string shippedDir(const std::string &name) {
  return (fs::path(RLOPT_TEST_DATA) / ".." / ".." / "data" / "suites" / name)
      .lexically_normal()
      .string();
}

TEST(ShippedSuite, LoadsAndValidates) {
  auto context = linalg::createContext();
  uintmax_t bytes = 0;
  for (const Shipped &shipped : shippedSuites()) {
    SCOPED_TRACE(shipped.dir);
    auto suite = loadSuite(shippedDir(shipped.dir));
    ASSERT_TRUE(suite.ok()) << suite.error().message;
    EXPECT_EQ(suite->benchmarks.size(), shipped.count);
    for (const BenchmarkSpec &b : suite->benchmarks) {
      bytes += fs::file_size(suite->path(b));
      auto program = linalg::loadProgram(*context, suite->path(b));
      EXPECT_TRUE(program.ok()) << program.error().message;
    }
  }
  EXPECT_LT(bytes, 4u << 20) << "the shipped suites should stay small";
}

TEST(ShippedSuite, OpsAndChainsHoldEverySplitAndClass) {
  for (const char *name : {"ops-small", "chains-small"}) {
    auto suite = loadSuite(shippedDir(name));
    ASSERT_TRUE(suite.ok()) << suite.error().message;
    std::set<std::string> splits, classes;
    for (const BenchmarkSpec &b : suite->benchmarks) {
      splits.insert(b.split);
      classes.insert(b.opClass);
    }
    EXPECT_EQ(splits.size(), 3u) << name;
    if (std::string(name) == "ops-small")
      EXPECT_EQ(classes.size(), opSuiteClasses().size());
    else
      EXPECT_EQ(classes, std::set<std::string>{"chain"});
  }
}

TEST(ShippedSuite, IsWhatTheGeneratorWrites) {
  for (const Shipped &shipped : shippedSuites()) {
    SCOPED_TRACE(shipped.dir);
    rlopt::tool::testing::ScratchDir scratch;
    fs::path fresh = scratch / shipped.dir;
    ASSERT_TRUE(
        writeSuite(shipped.generate(), fresh.string(), shipped.info()).ok());
    std::string dir = shippedDir(shipped.dir);
    std::set<std::string> freshFiles, shippedFiles;
    for (const auto &entry : fs::directory_iterator(fresh))
      freshFiles.insert(entry.path().filename().string());
    for (const auto &entry : fs::directory_iterator(dir))
      shippedFiles.insert(entry.path().filename().string());
    ASSERT_EQ(shippedFiles, freshFiles)
        << "regenerate it with: " << shipped.regenerate;
    for (const std::string &name : freshFiles)
      EXPECT_EQ(readFile(fs::path(dir) / name), readFile(fresh / name))
          << name << " differs; regenerate it with: " << shipped.regenerate;
  }
}

} // namespace
