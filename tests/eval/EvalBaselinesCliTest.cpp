// `rlopt eval --baselines torch,onednn` on a two-program suite: both
// baselines are checked and timed beside the candidate, results.json and
// results.csv carry their times, correctness, ratio and oneDNN's kernel, and
// the printed table has a ratio column per baseline.
#include "../tools/ToolTestUtil.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>

using namespace rlopt::tool::testing;

namespace {

/// The cells of a CSV line; quoted cells may hold commas and "" quotes.
std::vector<std::string> splitCsv(const std::string &line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      cells.back() += line[++i];
    else if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      cells.emplace_back();
    else
      cells.back() += c;
  }
  return cells;
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

class EvalBaselinesCliTest : public ::testing::Test {
protected:
  /// A suite of the matmul fixture (with its manifest shapes) and the add
  /// fixture, which oneDNN does not cover.
  void SetUp() override {
    fs::create_directories(suite);
    nlohmann::json manifest = {
        {"benchmarks",
         {{{"name", "matmul"},
           {"op_class", "matmul"},
           {"split", "test"},
           {"flops", 2.0 * 64 * 64 * 64},
           {"shapes", {{"M", 64}, {"K", 64}, {"N", 64}}}},
          {{"name", "add"},
           {"op_class", "add"},
           {"split", "test"},
           {"flops", 64.0 * 48}}}}};
    writeFile(suite / "manifest.json", manifest.dump(2));
    for (const char *name : {"matmul", "add"})
      fs::copy_file(fixturePath(name), suite / (std::string(name) + ".mlir"));
    writeFile(scratch / "env.json", R"({"repetitions": 1, "max_rounds": 1})");
  }

  RunResult eval(const std::string &baselines, const fs::path &out) {
    return runRlopt({"eval", "--suite", suite.string(), "--agent", "heuristic",
                     "--baselines", baselines, "--out", out.string(), "--db",
                     (scratch / "m.sqlite").string(), "--config",
                     (scratch / "env.json").string()},
                    scratch.path());
  }

  ScratchDir scratch;
  fs::path suite = scratch / "suite";
};

TEST_F(EvalBaselinesCliTest, TorchAndOnednnAreCheckedTimedAndReported) {
  fs::path out = scratch / "out";
  RunResult run = eval("torch,onednn", out);
  ASSERT_EQ(run.exitCode, 0) << run.err << run.out;

  auto json = nlohmann::json::parse(readFile(out / "results.json"));
  EXPECT_EQ(json.value("onednn_configuration", "").rfind("oneDNN ", 0), 0u)
      << json.dump(2);
  std::map<std::string, nlohmann::json> onednn, torch;
  for (const auto &row : json["results"]) {
    ASSERT_EQ(row["externals"].size(), 2u) << row.dump();
    for (const auto &e : row["externals"])
      (e["name"] == "onednn" ? onednn : torch)[row["name"]] = e;
  }
  const nlohmann::json &matmul = onednn["matmul"];
  EXPECT_TRUE(matmul["correct"].get<bool>()) << matmul.dump();
  EXPECT_GT(matmul["ms"].get<double>(), 0) << matmul.dump();
  EXPECT_GT(matmul["candidate_vs_external"].get<double>(), 0) << matmul.dump();
  EXPECT_NE(matmul["impl"].get<std::string>(), "") << matmul.dump();
  EXPECT_LT(matmul["max_abs_error"].get<double>(), 1e-4) << matmul.dump();
  EXPECT_NE(onednn["add"]["error"].get<std::string>().find("does not cover"),
            std::string::npos)
      << onednn["add"].dump();
  for (const char *name : {"matmul", "add"})
    EXPECT_TRUE(torch[name]["correct"].get<bool>()) << torch[name].dump();

  // The CSV: a column group per baseline, filled for the matmul row.
  std::vector<std::string> csv = lines(readFile(out / "results.csv"));
  ASSERT_EQ(csv.size(), 3u) << readFile(out / "results.csv");
  std::vector<std::string> header = splitCsv(csv[0]);
  auto column = [&](const std::string &name) {
    return std::find(header.begin(), header.end(), name) - header.begin();
  };
  for (const char *key :
       {"torch_ms", "candidate_vs_torch", "onednn_ms", "onednn_correct",
        "onednn_impl", "candidate_vs_onednn", "onednn_error"})
    ASSERT_LT(column(key), (long)header.size()) << key << " in " << csv[0];
  for (size_t i = 1; i < csv.size(); ++i) {
    std::vector<std::string> row = splitCsv(csv[i]);
    ASSERT_EQ(row.size(), header.size()) << csv[i];
    if (row[column("name")] != "matmul")
      continue;
    EXPECT_EQ(row[column("onednn_correct")], "true") << csv[i];
    EXPECT_EQ(row[column("onednn_impl")], matmul["impl"]) << csv[i];
    EXPECT_GT(std::stod(row[column("candidate_vs_onednn")]), 0) << csv[i];
  }

  // The table: a ratio column per baseline, and oneDNN's kernels.
  EXPECT_NE(run.out.find("vs torch"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("vs onednn"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("onednn kernels: " +
                         matmul["impl"].get<std::string>() + " (1)"),
            std::string::npos)
      << run.out;
}

TEST_F(EvalBaselinesCliTest, UnknownAndRepeatedBaselinesAreUsageErrors) {
  RunResult run = eval("torch,mkl", scratch / "bad");
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("unknown baseline 'mkl' (expected torch or onednn)"),
            std::string::npos)
      << run.err;
  run = eval("onednn,onednn", scratch / "bad");
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("'onednn' given twice"), std::string::npos) << run.err;
}

} // namespace
