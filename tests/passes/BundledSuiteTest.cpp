#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassRunner.h"

#include "rlopt/passes/PassesEnv.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "PassesTestUtil.h"

#include <gtest/gtest.h>

#include <set>

using namespace rlopt;
using namespace rlopt::passes;
using namespace rlopt::passes::testing;

namespace {

std::vector<std::string> bundledUris() {
  BenchmarkLoader loader(bundledSources());
  return loader.bundledUris();
}

} // namespace

TEST(BundledSuite, HasTwentyOrMorePrograms) {
  EXPECT_GE(bundledUris().size(), 20u);
}

// Every action, on a fork of every bundled program's start state, runs and
// leaves a valid module.
TEST(BundledSuite, EveryActionRunsOnEveryProgram) {
  auto env = PassesEnv::create({}, bundledSources());
  ASSERT_TRUE(env.ok());
  for (const std::string &uri : bundledUris()) {
    auto started = (*env)->tryReset({uri}, 0);
    ASSERT_TRUE(started.ok()) << started.error().message;
    for (size_t a = 0; a < passActions().size(); ++a) {
      if (!passActions()[a].disabled.empty())
        continue; // refused by design (PassesEnvTest covers it)
      auto trial = (*env)->fork();
      StepResult step = trial->step(Action{{static_cast<int64_t>(a)}});
      EXPECT_FALSE(step.info.contains("error"))
          << uri << " " << passActions()[a].name << ": " << step.info.dump();
    }
  }
}

// After mem2reg, which most sequences start with, every action still runs.
TEST(BundledSuite, EveryActionRunsAfterMem2reg) {
  auto env = PassesEnv::create({}, bundledSources());
  ASSERT_TRUE(env.ok());
  for (const std::string &uri : bundledUris()) {
    ASSERT_TRUE((*env)->tryReset({uri}, 0).ok());
    (*env)->step(Action{{*findPassAction("mem2reg")}});
    for (size_t a = 0; a < passActions().size(); ++a) {
      if (!passActions()[a].disabled.empty())
        continue; // refused by design (PassesEnvTest covers it)
      auto trial = (*env)->fork();
      StepResult step = trial->step(Action{{static_cast<int64_t>(a)}});
      EXPECT_FALSE(step.info.contains("error"))
          << uri << " " << passActions()[a].name << ": " << step.info.dump();
    }
  }
}

// A bundled program's unoptimized build prints its expected output, and -Oz
// and -O3 keep it: the suite's reference outputs are trustworthy.
TEST(BundledSuite, ProgramsPrintTheirExpectedOutput) {
  auto env = PassesEnv::create({}, bundledSources());
  ASSERT_TRUE(env.ok());
  for (const std::string &uri : {std::string("benchmark://rlopt-v0/qsort"),
                                 std::string("benchmark://rlopt-v0/sha256")}) {
    ASSERT_TRUE((*env)->tryReset({uri}, 0).ok());
    Validation validation = (*env)->validate();
    EXPECT_TRUE(validation.ok()) << uri << validation.toJson().dump();
    EXPECT_TRUE(validation.outputChecked);
  }
}

// LLVM's fatal errors (here instcombine's fixpoint self-check, which the
// action list turns off) end the pass with an error, not the process.
TEST(BundledSuite, AFatalLlvmErrorIsAnErrorNotAnExit) {
  auto env = PassesEnv::create({}, bundledSources());
  ASSERT_TRUE(env.ok());
  ASSERT_TRUE((*env)->tryReset({"benchmark://rlopt-v0/editdist"}, 0).ok());
  auto runner = PassRunner::create();
  ASSERT_TRUE(runner.ok());
  auto ran = (*runner)->run((*env)->mutableModule(), "instcombine");
  ASSERT_FALSE(ran.ok());
  EXPECT_NE(ran.error().message.find("fixpoint"), std::string::npos)
      << ran.error().message;
  // The action named instcombine runs without the self-check.
  ASSERT_TRUE((*env)->tryReset({"benchmark://rlopt-v0/editdist"}, 0).ok());
  StepResult step = (*env)->step(Action{{*findPassAction("instcombine")}});
  EXPECT_FALSE(step.info.contains("error")) << step.info.dump();
}

TEST(BundledSuite, EveryProgramIsInExactlyOneSplit) {
  BenchmarkLoader loader(bundledSources());
  auto train = loader.bundledSplit("train");
  auto test = loader.bundledSplit("test");
  ASSERT_TRUE(train.ok()) << train.error().message;
  ASSERT_TRUE(test.ok()) << test.error().message;
  std::set<std::string> seen;
  for (const auto *split : {&*train, &*test})
    for (const auto &uri : *split)
      EXPECT_TRUE(seen.insert(uri).second) << uri << " is in two splits";
  EXPECT_EQ(seen.size(), loader.bundledUris().size());
  EXPECT_GE(test->size(), 5u);
  EXPECT_FALSE(loader.bundledSplit("validation").ok());
}

// A crash inside a pass (unify-loop-exits on large_lisp, which is why it is
// not an action) is reported, and work goes on in a fresh context.
TEST(BundledSuite, ACrashInsideAPassIsReportedAndWorkGoesOn) {
  auto runner = PassRunner::create();
  ASSERT_TRUE(runner.ok());
  BenchmarkLoader loader(bundledSources());
  auto lisp = loader.load("benchmark://rlopt-v0/large_lisp");
  ASSERT_TRUE(lisp.ok()) << lisp.error().message;
  auto ran = (*runner)->run(*lisp->module, "unify-loop-exits");
  ASSERT_FALSE(ran.ok());
  EXPECT_TRUE((*runner)->lastRunCrashed());
  EXPECT_NE(ran.error().message.find("crashed inside LLVM"), std::string::npos);
  // The crashed module and its context stay leaked, as the environment
  // leaves them.
  lisp->module.release();

  auto qsort = loader.load("benchmark://rlopt-v0/qsort");
  ASSERT_TRUE(qsort.ok());
  auto again = (*runner)->run(*qsort->module, "mem2reg");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE((*runner)->lastRunCrashed());
  EXPECT_TRUE(*again);
}
