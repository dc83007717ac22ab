// Suites on disk: writeSuite and loadSuite round-trip, a suite directory is
// overwritten cleanly, and bad directories give one-line errors.
#include "../tools/ToolTestUtil.h"

#include "rlopt/data/OpSuite.h"
#include "rlopt/data/Suite.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rlopt;
using namespace rlopt::data;
using rlopt::tool::testing::readFile;
using rlopt::tool::testing::ScratchDir;
using rlopt::tool::testing::writeFile;
namespace fs = std::filesystem;

namespace {

std::vector<BenchmarkSpec> smallSuite(int count, uint64_t seed = 0) {
  OpSuiteOptions options;
  options.count = count;
  options.seed = seed;
  return generateOpSuite(options);
}

void expectOneLineMentioning(const Error &error, const std::string &what) {
  EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
  EXPECT_NE(error.message.find(what), std::string::npos)
      << "'" << error.message << "' does not mention '" << what << "'";
}

TEST(Suite, RoundTrip) {
  ScratchDir scratch;
  std::string dir = (scratch / "suite").string();
  std::vector<BenchmarkSpec> suite = smallSuite(20);
  ASSERT_TRUE(writeSuite(suite, dir, {{"seed", 0}, {"scale", "small"}}).ok());

  auto loaded = loadSuite(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->info["seed"], 0);
  EXPECT_EQ(loaded->info["scale"], "small");
  EXPECT_EQ(loaded->info["count"], 20);
  ASSERT_EQ(loaded->benchmarks.size(), suite.size());
  for (size_t i = 0; i < suite.size(); ++i) {
    const BenchmarkSpec &a = suite[i], &b = loaded->benchmarks[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.opClass, b.opClass);
    EXPECT_EQ(a.split, b.split);
    EXPECT_EQ(a.shapeKey, b.shapeKey);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.shapes, b.shapes);
    EXPECT_EQ(a.flops, b.flops);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_TRUE(b.mlir.empty());
    EXPECT_EQ(readFile(loaded->path(b)), a.mlir);
  }
  // Nothing but the programs and the manifest, and no temporary left.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}),
            std::ptrdiff_t(suite.size() + 1));
}

TEST(Suite, SameSeedSameBytes) {
  ScratchDir scratch;
  std::string a = (scratch / "a").string(), b = (scratch / "b").string();
  ASSERT_TRUE(writeSuite(smallSuite(30, 4), a).ok());
  ASSERT_TRUE(writeSuite(smallSuite(30, 4), b).ok());
  size_t files = 0;
  for (const auto &entry : fs::directory_iterator(a)) {
    std::string name = entry.path().filename().string();
    EXPECT_EQ(readFile(entry.path()), readFile(fs::path(b) / name)) << name;
    ++files;
  }
  EXPECT_EQ(files, 31u);
}

TEST(Suite, OverwritesASuiteAndRemovesItsOldPrograms) {
  ScratchDir scratch;
  std::string dir = (scratch / "suite").string();
  std::vector<BenchmarkSpec> first = smallSuite(30, 1),
                             second = smallSuite(10, 2);
  ASSERT_TRUE(writeSuite(first, dir).ok());
  writeFile(fs::path(dir) / "notes.txt", "mine");
  ASSERT_TRUE(writeSuite(second, dir).ok());
  auto loaded = loadSuite(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->benchmarks.size(), 10u);
  // The old suite's programs are gone; files it did not list stay.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 12);
  EXPECT_TRUE(fs::exists(fs::path(dir) / "notes.txt"));
}

TEST(Suite, RefusesANonEmptyDirectoryWithoutManifest) {
  ScratchDir scratch;
  fs::path dir = scratch / "mine";
  fs::create_directories(dir);
  writeFile(dir / "thesis.tex", "precious");
  Status status = writeSuite(smallSuite(5), dir.string());
  ASSERT_FALSE(status.ok());
  expectOneLineMentioning(status.error(), dir.string());
  expectOneLineMentioning(status.error(), "manifest.json");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 1);

  writeFile(scratch / "file", "x");
  Status onFile = writeSuite(smallSuite(5), (scratch / "file").string());
  ASSERT_FALSE(onFile.ok());
  expectOneLineMentioning(onFile.error(), "not a directory");
}

TEST(Suite, BadDirectories) {
  ScratchDir scratch;
  fs::path root = scratch.path();

  auto missing = loadSuite((root / "nowhere").string());
  ASSERT_FALSE(missing.ok());
  expectOneLineMentioning(missing.error(), "nowhere: no such directory");

  fs::create_directories(root / "empty");
  auto noManifest = loadSuite((root / "empty").string());
  ASSERT_FALSE(noManifest.ok());
  expectOneLineMentioning(noManifest.error(), "no manifest.json");

  fs::create_directories(root / "garbled");
  writeFile(root / "garbled" / "manifest.json", "{\"benchmarks\": [");
  auto garbled = loadSuite((root / "garbled").string());
  ASSERT_FALSE(garbled.ok());
  expectOneLineMentioning(garbled.error(), "garbled/manifest.json");
  expectOneLineMentioning(garbled.error(), "not valid JSON");

  fs::create_directories(root / "shape");
  writeFile(root / "shape" / "manifest.json", "{\"benchmarks\": 3}");
  auto wrongShape = loadSuite((root / "shape").string());
  ASSERT_FALSE(wrongShape.ok());
  expectOneLineMentioning(wrongShape.error(), "\"benchmarks\" array");

  std::string dir = (root / "suite").string();
  std::vector<BenchmarkSpec> suite = smallSuite(5);
  ASSERT_TRUE(writeSuite(suite, dir).ok());
  fs::remove(fs::path(dir) / (suite[2].name + ".mlir"));
  auto lost = loadSuite(dir);
  ASSERT_FALSE(lost.ok());
  expectOneLineMentioning(lost.error(), suite[2].name + ".mlir is missing");

  fs::create_directories(root / "split");
  writeFile(root / "split" / "manifest.json",
            R"({"benchmarks": [{"name": "a", "op_class": "add",
                                "split": "holdout"}]})");
  writeFile(root / "split" / "a.mlir", "");
  auto badSplit = loadSuite((root / "split").string());
  ASSERT_FALSE(badSplit.ok());
  expectOneLineMentioning(badSplit.error(), "unknown split 'holdout'");

  fs::create_directories(root / "escape");
  writeFile(root / "escape" / "manifest.json",
            R"({"benchmarks": [{"name": "../x", "op_class": "add",
                                "split": "train"}]})");
  auto escape = loadSuite((root / "escape").string());
  ASSERT_FALSE(escape.ok());
  expectOneLineMentioning(escape.error(), "not a valid file name");

  fs::create_directories(root / "noname");
  writeFile(root / "noname" / "manifest.json",
            R"({"benchmarks": [{"op_class": "add", "split": "train"}]})");
  auto noName = loadSuite((root / "noname").string());
  ASSERT_FALSE(noName.ok());
  expectOneLineMentioning(noName.error(), "benchmarks[0]: missing string");
}

} // namespace
