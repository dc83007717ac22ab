// `rlopt measure` and `rlopt inspect` as a user runs them: the measurement
// cache answers a repeated measurement, and the JSON output has the
// documented keys.
#include "ToolTestUtil.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <regex>

using namespace rlopt::tool::testing;

namespace {

nlohmann::json parseJson(const RunResult &run) {
  nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << "not JSON: " << run.out;
  return json;
}

TEST(MeasureCliTest, SecondRunIsAnsweredFromTheCache) {
  ScratchDir scratch;
  std::string db = (scratch / "measurements.sqlite").string();
  std::vector<std::string> args = {
      "measure",    fixturePath("matmul"),
      "--schedule", "op1: tile(16,16,16) vectorize",
      "--db",       db,
      "--json",     "--repetitions",
      "1"};
  RunResult first = runRlopt(args, scratch.path());
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_EQ(first.err, "");
  nlohmann::json a = parseJson(first);
  for (const char *key :
       {"baseline_ms", "candidate_ms", "speedup", "correct", "cached"})
    EXPECT_TRUE(a.contains(key)) << key << " missing in " << first.out;
  EXPECT_EQ(a["cached"], false);
  EXPECT_EQ(a["correct"], true);
  EXPECT_GT(a["baseline_ms"].get<double>(), 0);
  EXPECT_GT(a["candidate_ms"].get<double>(), 0);
  EXPECT_GT(a["speedup"].get<double>(), 0);
  EXPECT_TRUE(fs::exists(db));

  RunResult second = runRlopt(args, scratch.path());
  ASSERT_EQ(second.exitCode, 0) << second.err;
  nlohmann::json b = parseJson(second);
  EXPECT_EQ(b["cached"], true);
  EXPECT_EQ(b["baseline_ms"], a["baseline_ms"]);
  EXPECT_EQ(b["candidate_ms"], a["candidate_ms"]);
  EXPECT_EQ(b["speedup"], a["speedup"]);
  EXPECT_EQ(b["correct"], a["correct"]);
  EXPECT_EQ(b["program_hash"], a["program_hash"]);

  // The text form says so too.
  std::vector<std::string> textArgs(args.begin(), args.end() - 3);
  textArgs.insert(textArgs.end(), {"--repetitions", "1"});
  RunResult text = runRlopt(textArgs, scratch.path());
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_TRUE(std::regex_search(text.out, std::regex("cached +yes")))
      << text.out;

  // --no-cache measures again.
  std::vector<std::string> noCache = args;
  noCache.push_back("--no-cache");
  RunResult fresh = runRlopt(noCache, scratch.path());
  ASSERT_EQ(fresh.exitCode, 0) << fresh.err;
  EXPECT_EQ(parseJson(fresh)["cached"], false);
}

TEST(MeasureCliTest, DifferentSeedOrScheduleIsNotCached) {
  ScratchDir scratch;
  std::string db = (scratch / "m.sqlite").string();
  auto measure = [&](const std::string &schedule, const std::string &seed) {
    RunResult run =
        runRlopt({"measure", fixturePath("add"), "--schedule", schedule,
                  "--seed", seed, "--db", db, "--json", "--repetitions", "1"},
                 scratch.path());
    EXPECT_EQ(run.exitCode, 0) << run.err;
    return parseJson(run);
  };
  EXPECT_EQ(measure("op0: tile(16,16) vectorize", "1")["cached"], false);
  EXPECT_EQ(measure("op0: tile(16,16) vectorize", "1")["cached"], true);
  EXPECT_EQ(measure("op0: tile(16,16) vectorize", "2")["cached"], false);
  EXPECT_EQ(measure("op0: tile(8,16) vectorize", "1")["cached"], false);
}

TEST(MeasureCliTest, PlainMeasurementIsCorrect) {
  ScratchDir scratch;
  RunResult run = runRlopt({"measure", fixturePath("chain"), "--schedule",
                            "op3: fuse(16,16); op2: vectorize", "--threads",
                            "2", "--no-cache", "--repetitions", "1"},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  for (const char *line :
       {"baseline", "candidate", "speedup", "correct", "cached"})
    EXPECT_NE(run.out.find(line), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("NO"), std::string::npos) << run.out;
}

TEST(InspectCliTest, JsonShowsStridedConvAccess) {
  ScratchDir scratch;
  std::string file = fixturePath("conv_nhwc_stride2");
  RunResult run = runRlopt({"inspect", file, "--json"}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  nlohmann::json json = parseJson(run);
  EXPECT_EQ(json["file"], file);
  EXPECT_EQ(json["function"], "conv_nhwc_stride2");
  ASSERT_EQ(json["ops"].size(), 2u);
  const nlohmann::json &conv = json["ops"][1];
  EXPECT_EQ(conv["id"], "op1");
  EXPECT_EQ(conv["kind"], "linalg.conv_2d_nhwc_hwcf");
  EXPECT_EQ(conv["loop_ranges"], nlohmann::json({1, 5, 5, 16, 3, 3, 8}));
  EXPECT_EQ(conv["loads"][0][1], nlohmann::json({0, 2, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(conv["loads"][0][2], nlohmann::json({0, 0, 2, 0, 0, 1, 0, 0}));
  EXPECT_EQ(conv["producers"], nlohmann::json({0}));
  EXPECT_EQ(json["ops"][0]["consumers"], nlohmann::json({1}));
}

TEST(InspectCliTest, TextListsOpsWithRangesAndIterators) {
  ScratchDir scratch;
  std::string file = fixturePath("matmul");
  RunResult run = runRlopt({"inspect", file}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find(file + ": @matmul, 2 Linalg ops"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("op0  linalg.fill  (fill, line 5)"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("op1  linalg.matmul  (matmul, line 6)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("[64,64,64]  PPR"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("load       1,0,0,0 | 0,0,1,0"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("consumers  op1"), std::string::npos) << run.out;
}

// A measurement that fails in the worker (here: it outlives --timeout) is one
// line on stderr and exit code 1.
TEST(MeasureCliTest, CandidateFailureIsOneLine) {
  ScratchDir scratch;
  RunResult run = runRlopt({"measure", fixturePath("big_matmul"), "--no-cache",
                            "--repetitions", "1", "--timeout", "1"},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 1) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.rfind("rlopt: ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find("timed out"), std::string::npos) << run.err;
}

} // namespace

namespace {

void tamperWith(const std::string &db, const std::string &sql) {
  sqlite3 *handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(handle);
  ASSERT_EQ(rc, SQLITE_OK) << sql;
}

TEST(MeasureCliTest, ForgedOrMalformedCacheRowsAreMeasuredAgain) {
  ScratchDir scratch;
  std::string db = (scratch / "measurements.sqlite").string();
  std::vector<std::string> args = {
      "measure", fixturePath("add"), "--schedule", "op0: vectorize", "--db", db,
      "--json",  "--repetitions",    "1"};
  RunResult genuine = runRlopt(args, scratch.path());
  ASSERT_EQ(genuine.exitCode, 0) << genuine.err;
  const std::string forgeries[] = {"UPDATE samples SET payload = "
                                   "json_set(payload, '$.speedup', 1000000.0)",
                                   "UPDATE samples SET payload = '[1, 2]'",
                                   "UPDATE samples SET payload = 'not json'"};
  for (const std::string &forgery : forgeries) {
    SCOPED_TRACE(forgery);
    tamperWith(db, forgery);
    RunResult again = runRlopt(args, scratch.path());
    ASSERT_EQ(again.exitCode, 0) << again.err;
    nlohmann::json json = parseJson(again);
    EXPECT_EQ(json["cached"], false);
    EXPECT_EQ(json["correct"], true);
    EXPECT_LT(json["speedup"].get<double>(), 1000);
    EXPECT_NE(again.err.find("ignoring a row"), std::string::npos) << again.err;
    // The fresh measurement answers the next run.
    EXPECT_EQ(parseJson(runRlopt(args, scratch.path()))["cached"], true);
  }
}

} // namespace

TEST(MeasureCliTest, TimesAHandWrittenTransformScriptUncached) {
  // The script `apply --emit-transform` writes for a schedule measures the
  // same program, correct, and leaves no cache behind.
  ScratchDir scratch;
  std::string script = (scratch / "schedule.transform.mlir").string();
  RunResult applied =
      runRlopt({"apply", fixturePath("matmul"), "--schedule",
                "op1: tile(16,16,16) vectorize", "-o",
                (scratch / "out.mlir").string(), "--emit-transform", script},
               scratch.path());
  ASSERT_EQ(applied.exitCode, 0) << applied.err;
  std::string db = (scratch / "measurements.sqlite").string();
  RunResult run = runRlopt({"measure", fixturePath("matmul"), "--transform",
                            script, "--db", db, "--json", "--repetitions", "1"},
                           scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  nlohmann::json json = parseJson(run);
  EXPECT_EQ(json["correct"], true);
  EXPECT_EQ(json["cached"], false);
  EXPECT_FALSE(json.contains("schedule"));
  EXPECT_FALSE(fs::exists(db));

  // A script that is not one fails in one line, naming what.
  writeFile(scratch / "broken.mlir", "module { this is not MLIR");
  RunResult broken = runRlopt({"measure", fixturePath("matmul"), "--transform",
                               (scratch / "broken.mlir").string()},
                              scratch.path());
  EXPECT_EQ(broken.exitCode, 1) << broken.err;
  EXPECT_NE(broken.err.find("transform script does not parse"),
            std::string::npos)
      << broken.err;
  RunResult both = runRlopt({"measure", fixturePath("matmul"), "--transform",
                             script, "--schedule", "op1: stop"},
                            scratch.path());
  EXPECT_EQ(both.exitCode, 2);
  EXPECT_NE(both.err.find("exclude each other"), std::string::npos) << both.err;
  RunResult missing = runRlopt({"measure", fixturePath("matmul"), "--transform",
                                (scratch / "nowhere.mlir").string()},
                               scratch.path());
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("nowhere.mlir"), std::string::npos) << missing.err;
}

TEST(ApplyCliTest, HeuristicScheduleIsTheOneMeasureTimes) {
  ScratchDir scratch;
  std::string written = (scratch / "schedule.txt").string();
  RunResult applied =
      runRlopt({"apply", fixturePath("matmul"), "--heuristic", "-o",
                (scratch / "out.mlir").string(), "--emit-schedule", written},
               scratch.path());
  ASSERT_EQ(applied.exitCode, 0) << applied.err;
  RunResult measured =
      runRlopt({"measure", fixturePath("matmul"), "--heuristic", "--no-cache",
                "--json", "--repetitions", "1"},
               scratch.path());
  ASSERT_EQ(measured.exitCode, 0) << measured.err;
  EXPECT_EQ(readFile(written),
            parseJson(measured)["schedule"].get<std::string>() + "\n");
  EXPECT_NE(readFile(scratch / "out.mlir").find("vector."), std::string::npos);
  // With threads, the heuristic's schedule for that many. A reduction of
  // 929 is too long to fuse its fill, so the threads split the op first.
  std::string oneThread = (scratch / "one_thread.txt").string();
  RunResult single =
      runRlopt({"apply", fixturePath("matmul_prime_depth"), "--heuristic", "-o",
                (scratch / "out1.mlir").string(), "--emit-schedule", oneThread},
               scratch.path());
  ASSERT_EQ(single.exitCode, 0) << single.err;
  RunResult threaded = runRlopt(
      {"apply", fixturePath("matmul_prime_depth"), "--heuristic", "--threads",
       "2", "-o", (scratch / "out2.mlir").string(), "--emit-schedule", written},
      scratch.path());
  ASSERT_EQ(threaded.exitCode, 0) << threaded.err;
  RunResult measuredThreaded =
      runRlopt({"measure", fixturePath("matmul_prime_depth"), "--heuristic",
                "--threads", "2", "--no-cache", "--json", "--repetitions", "1"},
               scratch.path());
  ASSERT_EQ(measuredThreaded.exitCode, 0) << measuredThreaded.err;
  std::string threadedSchedule =
      parseJson(measuredThreaded)["schedule"].get<std::string>();
  EXPECT_EQ(readFile(written), threadedSchedule + "\n");
  EXPECT_NE(readFile(oneThread), threadedSchedule + "\n");

  // Exactly one source of schedule, and --threads only sizes the heuristic's.
  for (std::vector<std::string> args :
       {std::vector<std::string>{"apply", fixturePath("matmul")},
        {"apply", fixturePath("matmul"), "--heuristic", "--schedule",
         "op1: stop"},
        {"apply", fixturePath("matmul"), "--schedule", "op1: stop", "--threads",
         "2"}}) {
    RunResult bad = runRlopt(args, scratch.path());
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  }
}
