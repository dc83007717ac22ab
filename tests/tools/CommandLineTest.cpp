// The command line as a new user meets it: every command and subcommand
// answers --help (and `rlopt help ...`) with its usage and exit code 0, the
// three environments share one shape (`rlopt linalg|passes|graph VERB`),
// and the Linalg verbs keep their old top-level names.
#include "ToolTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt::tool::testing;

namespace {

const std::vector<std::vector<std::string>> kCommands = {
    {"inspect"},
    {"apply"},
    {"measure"},
    {"search"},
    {"train"},
    {"optimize"},
    {"eval"},
    {"report"},
    {"peak"},
    {"gen", "ops"},
    {"gen", "chains"},
    {"gen", "nets"},
    {"linalg", "inspect"},
    {"linalg", "train"},
    {"linalg", "eval"},
    {"linalg", "gen", "ops"},
    {"passes", "list"},
    {"passes", "run"},
    {"passes", "search"},
    {"passes", "eval"},
    {"passes", "train"},
    {"graph", "inspect"},
    {"graph", "list"},
    {"graph", "run"},
    {"graph", "eval"},
    {"graph", "train"}};

std::string joined(const std::vector<std::string> &words) {
  std::string text;
  for (const std::string &word : words)
    text += (text.empty() ? "" : " ") + word;
  return text;
}

TEST(CommandLineTest, EveryCommandAnswersHelpWithItsUsage) {
  ScratchDir scratch;
  for (const auto &command : kCommands) {
    SCOPED_TRACE(joined(command));
    std::vector<std::string> args = command;
    args.push_back("--help");
    RunResult run = runRlopt(args, scratch.path());
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.err, "");
    EXPECT_NE(run.out.find("usage:\n  rlopt " + joined(command) + " "),
              std::string::npos)
        << run.out;

    std::vector<std::string> asked = {"help"};
    asked.insert(asked.end(), command.begin(), command.end());
    RunResult help = runRlopt(asked, scratch.path());
    EXPECT_EQ(help.exitCode, 0) << help.err;
    EXPECT_EQ(help.out, run.out);
  }
  EXPECT_TRUE(scratch.entries().empty()) << "--help ran a command";
}

TEST(CommandLineTest, HelpAnywhereAfterTheVerbIsUsageNotAnError) {
  ScratchDir scratch;
  RunResult run = runRlopt({"eval", "--suite", "x", "--help", "--out", "y"},
                           scratch.path());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("rlopt eval --suite DIR"), std::string::npos);
  EXPECT_TRUE(scratch.entries().empty());
}

TEST(CommandLineTest, GroupsListTheirVerbs) {
  ScratchDir scratch;
  for (const char *group : {"linalg", "passes", "graph", "gen"}) {
    SCOPED_TRACE(group);
    RunResult run = runRlopt({group, "--help"}, scratch.path());
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out.rfind(std::string("usage: rlopt ") + group, 0), 0u)
        << run.out;
    RunResult bare = runRlopt({group}, scratch.path());
    EXPECT_EQ(bare.exitCode, 2);
    EXPECT_EQ(
        bare.err.rfind(std::string("rlopt: ") + group + ": expected a ", 0), 0u)
        << bare.err;
  }
  RunResult top = runRlopt({"--help"}, scratch.path());
  EXPECT_EQ(top.exitCode, 0);
  for (const char *heading :
       {"Linalg scheduling", "LLVM pass ordering", "HLO graph pass ordering"})
    EXPECT_NE(top.out.find(heading), std::string::npos) << heading;
  EXPECT_EQ(runRlopt({"help"}, scratch.path()).out, top.out);
}

TEST(CommandLineTest, UnknownVerbsNameWhatIsExpected) {
  ScratchDir scratch;
  RunResult linalg = runRlopt({"linalg", "frobnicate"}, scratch.path());
  EXPECT_EQ(linalg.exitCode, 2);
  EXPECT_EQ(linalg.err, "rlopt: linalg: unknown command 'frobnicate' "
                        "(expected inspect, apply, measure, search, train, "
                        "optimize, eval, costmodel or gen)\n");
  RunResult flag = runRlopt({"--frobnicate"}, scratch.path());
  EXPECT_EQ(flag.exitCode, 2);
  EXPECT_EQ(flag.err,
            "rlopt: unknown option '--frobnicate' (see rlopt --help)\n");
  RunResult help = runRlopt({"help", "frobnicate"}, scratch.path());
  EXPECT_EQ(help.exitCode, 2);
  EXPECT_EQ(help.err, "rlopt: unknown command 'frobnicate' (see rlopt "
                      "--help)\n");
}

TEST(CommandLineTest, LinalgVerbsRunUnderBothNames) {
  ScratchDir scratch;
  RunResult old =
      runRlopt({"inspect", fixturePath("matmul"), "--json"}, scratch.path());
  ASSERT_EQ(old.exitCode, 0) << old.err;
  RunResult grouped = runRlopt(
      {"linalg", "inspect", fixturePath("matmul"), "--json"}, scratch.path());
  ASSERT_EQ(grouped.exitCode, 0) << grouped.err;
  EXPECT_EQ(grouped.out, old.out);

  RunResult gen =
      runRlopt({"linalg", "gen", "ops", "--out", (scratch / "ops").string(),
                "--seed", "3", "--count", "26"},
               scratch.path());
  EXPECT_EQ(gen.exitCode, 0) << gen.err;
  EXPECT_TRUE(fs::exists(scratch / "ops" / "manifest.json"));
}

TEST(CommandLineTest, GenOpsDrawsRandomShapesOrSaysWhatItTakes) {
  ScratchDir scratch;
  RunResult random =
      runRlopt({"gen", "ops", "--out", (scratch / "random").string(),
                "--shapes", "random", "--count", "13"},
               scratch.path());
  ASSERT_EQ(random.exitCode, 0) << random.err;
  auto manifest = nlohmann::json::parse(
      readFile((scratch / "random" / "manifest.json").string()));
  EXPECT_EQ(manifest["shape_source"], "random");
  EXPECT_EQ(manifest["benchmarks"].size(), 13u);

  RunResult bad = runRlopt(
      {"gen", "ops", "--out", (scratch / "bad").string(), "--shapes", "square"},
      scratch.path());
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(bad.err, "rlopt: gen ops: --shapes: expected table or random, got "
                     "'square'\n");
  EXPECT_FALSE(fs::exists(scratch / "bad"));
}

} // namespace
