// The HTML report: built from synthetic eval results and a training log,
// self-contained, and drawn by a real browser (headless Chromium).
#include "../tools/ToolTestUtil.h"

#include "rlopt/eval/Report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sys/stat.h>
#include <unistd.h>

using namespace rlopt;
using namespace rlopt::eval;
using namespace rlopt::tool::testing;

namespace {

BenchmarkResult makeResult(const std::string &name, const std::string &cls,
                           double speedup, const std::string &error = "") {
  BenchmarkResult r;
  r.benchmark.name = name;
  r.benchmark.opClass = cls;
  r.benchmark.split = "test";
  r.benchmark.flops = 2e9;
  r.benchmark.bytes = 3e7;
  r.schedule = "op0: tile(8,8,8) vectorize";
  r.error = error;
  r.correct = error.empty();
  r.baselineMs = 10;
  r.speedup = error.empty() ? speedup : 0;
  r.candidateMs = error.empty() ? 10 / speedup : 0;
  r.gflops = error.empty() ? 20 * speedup : 0;
  r.percentPeak = error.empty() ? 10 * speedup : 0;
  r.gbps = error.empty() ? 3 * speedup : 0;
  return r;
}

const char *kClasses[] = {"matmul", "conv_2d", "matvec", "add", "relu"};

/// An eval output directory written by the real writer: 15 benchmarks over
/// compute- and memory-bound classes, speedups spread by `scale`, and
/// `failures` failed ones.
void writeAgent(const fs::path &dir, const std::string &agent, double scale,
                int failures) {
  std::vector<BenchmarkResult> results;
  for (int i = 0; i < 15; ++i) {
    std::string cls = kClasses[i % 5];
    std::string name = cls + "_" + std::to_string(i);
    if (i < failures)
      results.push_back(
          makeResult(name, cls, 0, "compile failed: op" + std::to_string(i)));
    else
      results.push_back(
          makeResult(name, cls, std::exp(scale * std::sin(i * 1.7))));
  }
  nlohmann::json meta = {{"suite", "suites/ops"},
                         {"split", "test"},
                         {"agent", agent},
                         {"threads", 1},
                         {"seed", 0},
                         {"peak_gflops_1thread", 200.0},
                         {"rlopt_version", "0.1.0"},
                         {"date", 1763780000}};
  ASSERT_TRUE(writeResults(dir.string(), results, meta).ok());
}

/// metrics.jsonl as `rlopt train` writes it, with validation every 5th
/// iteration.
void writeRun(const fs::path &dir, int iterations) {
  fs::create_directories(dir);
  std::ofstream out(dir / "metrics.jsonl");
  for (int i = 1; i <= iterations; ++i) {
    nlohmann::json line = {
        {"iteration", i},
        {"episodes", 64},
        {"failures", i % 3},
        {"steps", 500},
        {"mean_reward", -0.4 + 0.03 * i},
        {"geomean_speedup", 0.8 + 0.05 * i},
        {"entropy", 3.0 - 0.04 * i},
        {"policy_loss", -0.01 * std::sin(i)},
        {"value_loss", 1.0 / i},
        {"approx_kl", 0.01},
        {"clip_fraction", 0.1},
        {"time", {{"elapsed_s", 60.0 * i}, {"learn_s", 3.0}}}};
    if (i % 5 == 0)
      line["validation_geomean_speedup"] = 0.9 + 0.04 * i;
    out << line.dump() << "\n";
  }
}

/// The first executable `name` on PATH, or "".
std::string onPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

/// The flags the test gives Chromium: headless, offline, a throwaway profile.
std::vector<std::string> chromiumArgs(const fs::path &profile) {
  return {"--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--user-data-dir=" + profile.string()};
}

/// Each <svg>...</svg> element of a document.
std::vector<std::string> svgElements(const std::string &document) {
  std::vector<std::string> elements;
  for (size_t at = 0; (at = document.find("<svg", at)) != std::string::npos;) {
    size_t end = document.find("</svg>", at);
    if (end == std::string::npos)
      break;
    elements.push_back(document.substr(at, end - at));
    at = end;
  }
  return elements;
}

class ReportTest : public ::testing::Test {
protected:
  void SetUp() override {
    writeAgent(scratch / "heuristic", "heuristic", 1.0, 2);
    writeAgent(scratch / "random", "random:16", 0.5, 1);
    writeRun(scratch / "run", 12);
    dirs = {(scratch / "heuristic").string(), (scratch / "random").string(),
            (scratch / "run").string()};
  }

  ScratchDir scratch;
  std::vector<std::string> dirs;
};

TEST_F(ReportTest, LoadsEvalResultsAndTrainingRuns) {
  auto inputs = loadReportInputs(dirs);
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  ASSERT_EQ(inputs->agents.size(), 2u);
  ASSERT_EQ(inputs->runs.size(), 1u);
  EXPECT_EQ(inputs->agents[0].label, "heuristic");
  EXPECT_EQ(inputs->agents[1].label, "random:16");
  EXPECT_EQ(inputs->runs[0].label, "run");
  // Failures are kept with their errors.
  const auto &results = inputs->agents[0].results;
  ASSERT_EQ(results.size(), 15u);
  EXPECT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error, "compile failed: op0");
  EXPECT_TRUE(results[5].ok());
  EXPECT_EQ(inputs->agents[0].meta["threads"], 1);
  EXPECT_FALSE(inputs->agents[0].meta.contains("results"));
  const auto &points = inputs->runs[0].points;
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(points[4].iteration, 5);
  EXPECT_DOUBLE_EQ(points[4].validationGeomean, 0.9 + 0.04 * 5);
  EXPECT_DOUBLE_EQ(points[3].validationGeomean, -1);
  EXPECT_DOUBLE_EQ(points[11].elapsedSeconds, 720);
}

TEST_F(ReportTest, SameAgentTwiceGetsDistinctLabels) {
  writeAgent(scratch / "heuristic4", "heuristic", 1.2, 0);
  auto inputs = loadReportInputs(
      {(scratch / "heuristic").string(), (scratch / "heuristic4").string()});
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  EXPECT_EQ(inputs->agents[0].label, "heuristic (heuristic)");
  EXPECT_EQ(inputs->agents[1].label, "heuristic (heuristic4)");
}

TEST_F(ReportTest, TrainingLogBeingWrittenIsRead) {
  // A last line without its newline is still being written: skipped.
  {
    std::ofstream out(scratch / "run" / "metrics.jsonl", std::ios::app);
    out << "{\"iteration\": 13, \"mean_re";
  }
  auto run = loadTrainingRun((scratch / "run").string());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->points.size(), 12u);
  // The same garbage on a finished line is an error naming the line.
  {
    std::ofstream out(scratch / "run" / "metrics.jsonl", std::ios::app);
    out << "\n";
  }
  run = loadTrainingRun((scratch / "run").string());
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("metrics.jsonl:13: not valid JSON"),
            std::string::npos)
      << run.error().message;
}

TEST_F(ReportTest, ResumedRunKeepsTheLastLineOfAnIteration) {
  {
    std::ofstream out(scratch / "run" / "metrics.jsonl", std::ios::app);
    out << R"({"iteration": 3, "mean_reward": 7.5})"
        << "\n";
  }
  auto run = loadTrainingRun((scratch / "run").string());
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 12u);
  EXPECT_DOUBLE_EQ(run->points[2].meanReward, 7.5);
}

TEST_F(ReportTest, IterationsWithPredictedRewardsAreNotDrawnAsMeasured) {
  // Every other iteration measured nothing: its speedup is the cost
  // model's estimate, a line of its own.
  fs::create_directories(scratch / "predicted");
  {
    std::ofstream out(scratch / "predicted" / "metrics.jsonl");
    for (int i = 1; i <= 4; ++i) {
      nlohmann::json line = {{"iteration", i},
                             {"episodes", 64},
                             {"mean_reward", 1.0},
                             {"entropy", 0.5},
                             {"time", {{"elapsed_s", 5.0 * i}}}};
      if (i % 2 == 0)
        line["geomean_speedup"] = 3.0 + i;
      else
        line["predicted_speedup"] = 10.0 + i;
      out << line.dump() << "\n";
    }
  }
  auto run = loadTrainingRun((scratch / "predicted").string());
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 4u);
  EXPECT_DOUBLE_EQ(run->points[0].geomeanSpeedup, -1);
  EXPECT_DOUBLE_EQ(run->points[0].predictedSpeedup, 11);
  EXPECT_DOUBLE_EQ(run->points[1].geomeanSpeedup, 5);
  EXPECT_DOUBLE_EQ(run->points[1].predictedSpeedup, -1);

  auto inputs = loadReportInputs({(scratch / "predicted").string()});
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  auto report = renderReport(*inputs, ReportOptions());
  ASSERT_TRUE(report.ok()) << report.error().message;
  // The summary's geomean is the last measured one (iteration 4's 7x),
  // and the chart names the estimate's line.
  EXPECT_NE(report->html.find("7.00×"), std::string::npos);
  EXPECT_NE(report->html.find("predicted by the cost model"),
            std::string::npos);
}

TEST_F(ReportTest, GreedyReturnsOfAKeepBestRunAreALineOfTheirOwn) {
  // A discrete run with keep_best_every 2: the greedy policy's return,
  // negative here, on every other iteration.
  fs::create_directories(scratch / "dqn");
  {
    std::ofstream out(scratch / "dqn" / "metrics.jsonl");
    for (int i = 1; i <= 4; ++i) {
      nlohmann::json line = {{"iteration", i},
                             {"episodes", 6},
                             {"mean_reward", 0.1 * i},
                             {"time", {{"elapsed_s", 5.0 * i}}}};
      if (i % 2 == 0)
        line["greedy_return"] = -0.5 * i;
      out << line.dump() << "\n";
    }
  }
  auto run = loadTrainingRun((scratch / "dqn").string());
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 4u);
  EXPECT_TRUE(std::isnan(run->points[0].greedyReturn));
  EXPECT_DOUBLE_EQ(run->points[1].greedyReturn, -1);
  EXPECT_DOUBLE_EQ(run->points[3].greedyReturn, -2);

  auto inputs = loadReportInputs({(scratch / "dqn").string()});
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  auto report = renderReport(*inputs, ReportOptions());
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_NE(report->html.find("dqn: greedy policy"), std::string::npos);
}

TEST(ReportSvgTest, InlineSvgDropsNamespacesAndPrefixesIds) {
  std::string svg =
      "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
      "<svg \n viewBox=\"0 0 10 10\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
      " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n"
      "<title>Gnuplot</title>\n<g id=\"gnuplot_canvas\">\n"
      "<path id='gpPt0' d='M0,0'/><use xlink:href='#gpPt0' "
      "filter='url(#textbox)'/>\n<text>id='x' href='#y'</text></g></svg>\n";
  std::string out = inlineSvg(svg, "c7-", "A <chart>");
  EXPECT_EQ(out.find("<?xml"), std::string::npos);
  EXPECT_EQ(out.find("http"), std::string::npos) << out;
  EXPECT_EQ(out.rfind("<svg", 0), 0u);
  EXPECT_NE(out.find("viewBox=\"0 0 10 10\""), std::string::npos) << out;
  EXPECT_NE(out.find("id=\"c7-gnuplot_canvas\""), std::string::npos) << out;
  EXPECT_NE(out.find("id='c7-gpPt0'"), std::string::npos) << out;
  EXPECT_NE(out.find("xlink:href='#c7-gpPt0'"), std::string::npos) << out;
  EXPECT_NE(out.find("url(#c7-textbox)"), std::string::npos) << out;
  EXPECT_NE(out.find("<text>id='x' href='#y'</text>"), std::string::npos)
      << out; // text is not touched
  EXPECT_NE(out.find("<title>A &lt;chart&gt;</title>"), std::string::npos)
      << out;
}

TEST(ReportSvgTest, GnuplotStringsAreSingleQuoted) {
  EXPECT_EQ(gnuplotQuote("plain"), "'plain'");
  EXPECT_EQ(gnuplotQuote("it's `rm -rf` \"x\"\n"), "'it''s `rm -rf` \"x\" '");
}

TEST_F(ReportTest, GnuplotMissingIsAClearError) {
  ReportOptions options;
  options.gnuplot = (scratch / "no-such-gnuplot").string();
  auto inputs = loadReportInputs(dirs);
  ASSERT_TRUE(inputs.ok());
  auto report = renderReport(*inputs, options);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().message.find("scripts/bootstrap"), std::string::npos)
      << report.error().message;
}

TEST_F(ReportTest, NamesAreEscapedEverywhere) {
  std::vector<BenchmarkResult> results = {
      makeResult("<script>alert(1)</script>", "matmul", 2.0),
      makeResult("q'\"`echo hi`&amp;", "add", 1.5),
      makeResult("bad <b>", "add", 0, "error with <markup> & \"quotes\"")};
  ASSERT_TRUE(writeResults((scratch / "odd").string(), results,
                           {{"agent", "<i>agent</i>"}})
                  .ok());
  auto inputs = loadReportInputs({(scratch / "odd").string()});
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  ReportOptions options;
  options.title = "Title & <b>bold</b>";
  auto report = renderReport(*inputs, options);
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string &html = report->html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_EQ(html.find("<markup>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("error with &lt;markup&gt; &amp; &quot;quotes&quot;"),
            std::string::npos);
  EXPECT_NE(html.find("<title>Title &amp; &lt;b&gt;bold&lt;/b&gt;</title>"),
            std::string::npos);
}

TEST_F(ReportTest, ChromiumDrawsEveryChart) {
  std::string chromium = onPath("chromium");
  ASSERT_FALSE(chromium.empty())
      << "chromium is not installed (the report test renders the page in "
         "it); run scripts/bootstrap";

  auto inputs = loadReportInputs(dirs);
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  ReportOptions options;
  options.title = "Report test";
  auto report = renderReport(*inputs, options);
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string &html = report->html;

  // Charts: per class, overall, sorted per benchmark, one per agent, % of
  // peak, GB/s; training: reward, geomean, entropy, policy and value loss.
  const int expectedCharts = 1 + 1 + 1 + 2 + 1 + 1 + 5;
  EXPECT_EQ(report->charts, expectedCharts);

  // Self-contained: nothing fetched, nothing run.
  for (const char *external : {"http://", "https://", "src=", "<script",
                               "<link", "@import", "<iframe", "<img"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  for (size_t at = 0; (at = html.find("url(", at)) != std::string::npos; ++at)
    EXPECT_EQ(html.compare(at, 5, "url(#"), 0) << html.substr(at, 40);
  // Every failure is listed with its error.
  int listed = 0;
  for (size_t at = 0; (at = html.find("<td class=\"bad\">compile failed: op",
                                      at)) != std::string::npos;
       ++at)
    ++listed;
  EXPECT_EQ(listed, 3); // heuristic: op0, op1; random:16: op0

  fs::path page = scratch / "report.html";
  writeFile(page, html);
  std::string url = "file://" + page.string();

  // The DOM as Chromium builds it.
  std::vector<std::string> args = {"120", chromium};
  for (const std::string &a : chromiumArgs(scratch / "profile-dom"))
    args.push_back(a);
  args.insert(args.end(), {"--dump-dom", url});
  RunResult dom = runCommand("timeout", args, scratch.path());
  ASSERT_EQ(dom.exitCode, 0) << dom.err;
  EXPECT_NE(dom.out.find("<h1>Report test</h1>"), std::string::npos);
  EXPECT_NE(dom.out.find("compile failed: op1"), std::string::npos);
  std::vector<std::string> svgs = svgElements(dom.out);
  EXPECT_EQ(svgs.size(), size_t(expectedCharts));
  for (size_t i = 0; i < svgs.size(); ++i) {
    // Each chart has drawn shapes and at least one plotted data set.
    const std::string &svg = svgs[i];
    size_t plot = svg.find("gnuplot_plot_1");
    ASSERT_NE(plot, std::string::npos) << "chart " << i << " plots nothing";
    std::string data = svg.substr(plot);
    EXPECT_TRUE(data.find("<path") != std::string::npos ||
                data.find("<rect") != std::string::npos)
        << "chart " << i << " draws no shape";
    EXPECT_NE(svg.find("viewBox"), std::string::npos);
  }

  // A screenshot: the page paints (a blank page compresses to a few KB).
  fs::path png = scratch / "report.png";
  args = {"120", chromium};
  for (const std::string &a : chromiumArgs(scratch / "profile-png"))
    args.push_back(a);
  args.insert(args.end(),
              {"--window-size=1200,4000", "--screenshot=" + png.string(), url});
  RunResult shot = runCommand("timeout", args, scratch.path());
  ASSERT_EQ(shot.exitCode, 0) << shot.err;
  ASSERT_TRUE(fs::exists(png)) << shot.err;
  EXPECT_GT(fs::file_size(png), 60000u);
  EXPECT_EQ(readFile(png).substr(1, 3), "PNG");
}

} // namespace
