// The same actions on the same benchmark give the same IR, bit for bit,
// however the episode is run: step by step in an environment that has
// played other episodes, replayed in a fresh environment, or continued on
// a fork. Long random episodes on large modules, where a pass that depends
// on more than the module's IR shows up.
#include "rlopt/core/Process.h"
#include "rlopt/core/TempDir.h"
#include "rlopt/passes/ModuleCopy.h"
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassesEnv.h"

#include "PassesTestUtil.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace rlopt;
using namespace rlopt::passes;
using namespace rlopt::passes::testing;

namespace {

std::unique_ptr<PassesEnv> makeEnv() {
  PassesEnvConfig config;
  config.episodeLength = 1000;
  config.reward = "IrInstructionCount";
  auto env = PassesEnv::create(config, bundledSources());
  EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
  return env.takeValue();
}

/// `length` uniformly random actions; the same on every platform.
std::vector<int> randomActions(uint64_t seed, int length) {
  std::mt19937_64 rng(seed);
  std::vector<int> actions;
  for (int i = 0; i < length; ++i)
    actions.push_back(static_cast<int>(rng() % passActions().size()));
  return actions;
}

/// How an episode ended: the printed IR, and the error that ended it early.
struct Outcome {
  std::string ir;
  std::string error;
  size_t steps = 0;
};

/// Runs actions[from..] on `env` until one fails.
Outcome play(PassesEnv &env, const std::vector<int> &actions, size_t from) {
  Outcome outcome;
  for (size_t i = from; i < actions.size() && outcome.error.empty(); ++i) {
    StepResult step = env.step(Action{{actions[i]}});
    outcome.steps = i + 1;
    if (step.info.contains("error"))
      outcome.error = passActions()[actions[i]].name + ": " +
                      step.info["error"].get<std::string>();
  }
  // After a crash inside LLVM there is no module left to print.
  auto ir = env.observe("Ir");
  outcome.ir = ir.ok() ? ir->get<std::string>() : ir.error().message;
  return outcome;
}

/// The first line where two IR texts differ, for a readable failure.
std::string firstDifference(const std::string &a, const std::string &b) {
  std::istringstream left(a), right(b);
  std::string l, r;
  for (int line = 1;; ++line) {
    bool moreLeft = static_cast<bool>(std::getline(left, l));
    bool moreRight = static_cast<bool>(std::getline(right, r));
    if (!moreLeft && !moreRight)
      return "identical";
    if (l != r || moreLeft != moreRight)
      return "line " + std::to_string(line) + ":\n  " + l + "\n  " + r;
  }
}

/// Plays one random episode per seed in `env`, which keeps going from
/// episode to episode as training does, and replays each in a fresh
/// environment and on a fork taken halfway.
void expectEpisodesReplay(const std::string &uri,
                          const std::vector<uint64_t> &seeds, int length) {
  auto env = makeEnv();
  for (uint64_t seed : seeds) {
    SCOPED_TRACE(uri + " seed " + std::to_string(seed));
    std::vector<int> actions = randomActions(seed, length);
    ASSERT_TRUE(env->tryReset({uri}, 0).ok());
    Outcome stepped = play(*env, actions, 0);
    actions.resize(stepped.steps);

    auto fresh = makeEnv();
    ASSERT_TRUE(fresh->tryReset({uri}, 0).ok());
    Outcome replayed = play(*fresh, actions, 0);
    EXPECT_EQ(replayed.error, stepped.error);
    EXPECT_TRUE(replayed.ir == stepped.ir)
        << "a fresh environment differs at "
        << firstDifference(replayed.ir, stepped.ir);

    size_t half = actions.size() / 2;
    ASSERT_TRUE(fresh->tryReset({uri}, 0).ok());
    play(*fresh, std::vector<int>(actions.begin(), actions.begin() + half), 0);
    auto fork = fresh->fork();
    Outcome forked = play(static_cast<PassesEnv &>(*fork), actions, half);
    EXPECT_EQ(forked.error, stepped.error);
    EXPECT_TRUE(forked.ir == stepped.ir)
        << "a fork at step " << half << " differs at "
        << firstDifference(forked.ir, stepped.ir);
  }
}

} // namespace

TEST(Determinism, LongEpisodesOnTheLargestBundledProgramReplay) {
  expectEpisodesReplay("benchmark://rlopt-v0/large_lisp", {1, 2}, 60);
}

TEST(Determinism, LongEpisodesOnACsmithProgramReplay) {
  expectEpisodesReplay("generator://csmith-v0/42", {3, 4}, 60);
}

TEST(Determinism, LongEpisodesOnLargeLlvmStressModulesReplay) {
  auto dir = TempDir::create("rlopt-determinism");
  ASSERT_TRUE(dir.ok());
  for (int seed : {5, 6}) {
    // Larger than the llvm-stress URIs, which use -size=200.
    std::string path = dir->file("stress" + std::to_string(seed) + ".ll");
    auto run =
        runProcess({bundledSources().llvmStress,
                    "-seed=" + std::to_string(seed), "-size=2000", "-o", path});
    ASSERT_TRUE(run.ok() && run->succeeded());
    expectEpisodesReplay(path, {7}, 100);
  }
}

// newgvn leaves floyd's use lists in an order that differs from run to run,
// with the same printed IR. Passes walk use lists, and the masks name
// modules by their bitcode, so neither the module the next pass sees nor
// the mask may carry that order.
TEST(Determinism, AnEpisodePlayedAgainLeavesTheSameUseLists) {
  auto env = makeEnv();
  // An episode of a training run.
  std::vector<std::string> names = {"loop-unroll-and-jam",
                                    "reassociate",
                                    "lower-atomic",
                                    "gvn<no-pre>",
                                    "newgvn",
                                    "strip-dead-debug-info",
                                    "canonicalize-aliases",
                                    "scalarizer",
                                    "simple-loop-unswitch",
                                    "dfa-jump-threading",
                                    "newgvn",
                                    "name-anon-globals",
                                    "lower-invoke",
                                    "simple-loop-unswitch"};
  std::vector<int> actions;
  for (const std::string &name : names) {
    std::optional<int> action = findPassAction(name);
    ASSERT_TRUE(action) << name;
    actions.push_back(*action);
  }
  std::vector<std::string> first;
  for (int round = 0; round < 40; ++round) {
    ASSERT_TRUE(env->tryReset({"benchmark://rlopt-v0/floyd"}, 0).ok());
    for (size_t i = 0; i < actions.size(); ++i) {
      StepResult step = env->step(Action{{actions[i]}});
      ASSERT_FALSE(step.info.contains("error")) << names[i];
      std::string state = writeModuleBitcode(env->module());
      state.append(step.obs.masks[0].begin(), step.obs.masks[0].end());
      if (round == 0) {
        first.push_back(state);
      } else if (state != first[i]) {
        ADD_FAILURE() << "round " << round << ": after step " << i + 1 << " ("
                      << names[i]
                      << ") the use lists or the mask differ from round 0's";
        break;
      }
    }
  }
}
