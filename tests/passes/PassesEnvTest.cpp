#include "rlopt/passes/PassesEnv.h"
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassRunner.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include "PassesTestUtil.h"

#include <gtest/gtest.h>

#include <set>

using namespace rlopt;
using namespace rlopt::passes;
using namespace rlopt::passes::testing;

namespace {

const std::string kData = RLOPT_TEST_DATA "/passes";

std::unique_ptr<PassesEnv> makeEnv(PassesEnvConfig config = {}) {
  auto env = PassesEnv::create(config, bundledSources());
  EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
  return env.takeValue();
}

Action pass(const std::string &name) {
  auto index = findPassAction(name);
  EXPECT_TRUE(index.has_value()) << name;
  return Action{{*index}};
}

} // namespace

TEST(PassCatalog, HasAboutOneHundredTwentyUniqueActions) {
  const auto &actions = passActions();
  EXPECT_GE(actions.size(), 110u);
  EXPECT_LE(actions.size(), 140u);
  std::set<std::string> names;
  for (const auto &action : actions) {
    EXPECT_TRUE(names.insert(action.name).second) << action.name;
    EXPECT_FALSE(action.purpose.empty()) << action.name;
  }
  EXPECT_FALSE(excludedPasses().empty());
}

TEST(PassesEnv, SpacesMatchTheConfig) {
  auto env = makeEnv();
  EXPECT_EQ(env->spaces().observation.size(), 56);
  ASSERT_EQ(env->spaces().action.nvec.size(), 1u);
  EXPECT_EQ(env->spaces().action.nvec[0],
            static_cast<int64_t>(passActions().size()));
}

TEST(PassesEnv, Mem2regShrinksTheProgramAndRewardsIt) {
  PassesEnvConfig config;
  config.reward = "IrInstructionCount";
  auto env = makeEnv(config);
  Observation obs = env->reset({kData + "/sum.c"}, 0);
  ASSERT_FALSE(env->lastError()) << env->lastError()->message;
  ASSERT_EQ(obs.features.size(), 56u);
  auto before = env->observe("IrInstructionCount");
  ASSERT_TRUE(before.ok());
  StepResult step = env->step(pass("mem2reg"));
  ASSERT_FALSE(step.info.contains("error")) << step.info.dump();
  EXPECT_TRUE(step.info["changed"].get<bool>());
  auto after = env->observe("IrInstructionCount");
  ASSERT_TRUE(after.ok());
  EXPECT_LT(after->get<int64_t>(), before->get<int64_t>());
  EXPECT_DOUBLE_EQ(step.reward, before->get<double>() - after->get<double>());
}

TEST(PassesEnv, OzRewardSumsToTheLeaderboardMetric) {
  auto env = makeEnv(); // IrInstructionCountOz
  ASSERT_TRUE(env->tryReset({kData + "/sum.c"}, 0).ok());
  double ic0 = *env->metric("IrInstructionCount");
  double icOz = *env->baseline("IrInstructionCount", "default<Oz>");
  ASSERT_LT(icOz, ic0);
  for (const char *name : {"sroa", "instcombine", "simplifycfg", "loop-rotate",
                           "indvars", "loop-deletion", "instcombine"})
    env->step(pass(name));
  double ic = *env->metric("IrInstructionCount");
  EXPECT_NEAR(env->episodeReward(), (ic0 - ic) / (ic0 - icOz), 1e-9);
}

TEST(PassesEnv, EpisodeIsTruncatedAtItsLength) {
  PassesEnvConfig config;
  config.episodeLength = 3;
  auto env = makeEnv(config);
  ASSERT_TRUE(env->tryReset({kData + "/sum.c"}, 0).ok());
  EXPECT_FALSE(env->step(pass("dce")).truncated);
  EXPECT_FALSE(env->step(pass("dce")).truncated);
  EXPECT_TRUE(env->step(pass("dce")).truncated);
  EXPECT_TRUE(env->step(pass("dce")).info.contains("error"));
}

TEST(PassesEnv, ForkIsIndependentOfItsParent) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kData + "/sum.c"}, 0).ok());
  env->step(pass("mem2reg"));
  std::string parentIr = printModule(env->module());
  auto child = env->fork();
  auto *childEnv = static_cast<PassesEnv *>(child.get());
  EXPECT_EQ(printModule(childEnv->module()), parentIr);
  childEnv->step(pass("instcombine"));
  childEnv->step(pass("simplifycfg"));
  EXPECT_NE(printModule(childEnv->module()), parentIr);
  EXPECT_EQ(printModule(env->module()), parentIr);
  EXPECT_EQ(env->actionHistory().size(), 1u);
  EXPECT_EQ(childEnv->actionHistory().size(), 3u);
  // The parent keeps working after its fork is gone.
  child.reset();
  StepResult step = env->step(pass("instcombine"));
  EXPECT_FALSE(step.info.contains("error"));
}

TEST(PassesEnv, ValidatePassesAnHonestEpisode) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kData + "/sum.c"}, 0).ok());
  for (const char *name : {"mem2reg", "instcombine", "loop-rotate", "licm",
                           "indvars", "loop-unroll-full", "gvn"})
    env->step(pass(name));
  Validation validation = env->validate();
  EXPECT_TRUE(validation.ok()) << validation.toJson().dump();
  EXPECT_TRUE(validation.replayMatches);
  EXPECT_TRUE(validation.outputChecked);
  EXPECT_TRUE(validation.outputMatches);
}

TEST(PassesEnv, ValidateCatchesAMiscompiledProgram) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kData + "/sum.c"}, 0).ok());
  env->step(pass("mem2reg"));
  // Miscompile by hand: every integer add becomes a subtract.
  std::vector<llvm::Instruction *> adds;
  for (llvm::Function &function : env->mutableModule())
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (inst.getOpcode() == llvm::Instruction::Add)
          adds.push_back(&inst);
  ASSERT_FALSE(adds.empty());
  for (llvm::Instruction *add : adds) {
    auto *sub = llvm::BinaryOperator::CreateSub(add->getOperand(0),
                                                add->getOperand(1), "", add);
    add->replaceAllUsesWith(sub);
    add->eraseFromParent();
  }
  Validation validation = env->validate();
  EXPECT_FALSE(validation.ok());
  EXPECT_TRUE(validation.outputChecked);
  EXPECT_FALSE(validation.outputMatches);
  EXPECT_FALSE(validation.replayMatches);
}

TEST(PassesEnv, BadInputsGetClearErrors) {
  auto env = makeEnv();
  auto broken = env->tryReset({kData + "/broken.c"}, 0);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("broken.c:2"), std::string::npos)
      << broken.error().message;
  EXPECT_NE(broken.error().message.find("does not compile"), std::string::npos);

  auto garbage = env->tryReset({kData + "/garbage.bc"}, 0);
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.error().message.find("garbage.bc"), std::string::npos);

  auto unknown = env->tryReset({"benchmark://rlopt-v0/no-such-program"}, 0);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown benchmark"),
            std::string::npos);

  auto scheme = env->tryReset({"cbench://qsort"}, 0);
  ASSERT_FALSE(scheme.ok());
  EXPECT_NE(scheme.error().message.find("unknown benchmark URI scheme"),
            std::string::npos);

  auto missing = env->tryReset({kData + "/missing.ll"}, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no such file"), std::string::npos);

  // reset() reports the same error through lastError().
  Observation obs = env->reset({kData + "/broken.c"}, 0);
  EXPECT_TRUE(obs.features.empty());
  ASSERT_TRUE(env->lastError().has_value());
}

TEST(PassesEnv, UnknownPassAndBadActionsAreErrorsNotCrashes) {
  EXPECT_FALSE(findPassAction("no-such-pass").has_value());
  auto runner = PassRunner::create();
  ASSERT_TRUE(runner.ok());
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kData + "/identity.ll"}, 0).ok());
  auto ran = (*runner)->run(env->mutableModule(), "no-such-pass");
  ASSERT_FALSE(ran.ok());
  EXPECT_NE(ran.error().message.find("no-such-pass"), std::string::npos);

  StepResult step = env->step(Action{{-1}});
  EXPECT_TRUE(step.terminated);
  EXPECT_TRUE(step.info.contains("error"));
}

TEST(PassesEnv, APassOverItsCpuTimeIsStoppedWithAnError) {
  auto runner = PassRunner::create();
  ASSERT_TRUE(runner.ok());
  (*runner)->limitCpuSeconds(0.02);
  // -O3 forty times over takes far longer than 20 ms on any machine. Twice:
  // the alarm must fire again after it stopped a run.
  std::string pipeline = "default<O3>";
  for (int i = 1; i < 40; ++i)
    pipeline += ",default<O3>";
  for (int attempt = 0; attempt < 2; ++attempt) {
    SCOPED_TRACE(attempt);
    auto env = makeEnv();
    ASSERT_TRUE(env->tryReset({"benchmark://rlopt-v0/bignum"}, 0).ok());
    auto ran = (*runner)->run(env->mutableModule(), pipeline);
    ASSERT_FALSE(ran.ok());
    EXPECT_NE(
        ran.error().message.find("did not finish within 0.02 s of CPU time"),
        std::string::npos)
        << ran.error().message;
    EXPECT_TRUE((*runner)->lastRunCrashed());
    env.release(); // its module may be corrupt: leaked, as step() leaks it
  }

  PassesEnvConfig config;
  config.passCpuSeconds = 0;
  auto refused = PassesEnv::create(config, bundledSources());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("pass_cpu_seconds"),
            std::string::npos);
}

TEST(PassesEnv, IrFilesWithoutATripleGetTheHostOne) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({kData + "/identity.ll"}, 0).ok());
  EXPECT_FALSE(env->module().getTargetTriple().empty());
  EXPECT_FALSE(env->runnable());
  StepResult step = env->step(pass("instcombine"));
  EXPECT_TRUE(step.info["changed"].get<bool>());
  EXPECT_EQ(env->observe("IrInstructionCount")->get<int64_t>(), 1);
  auto runtime = env->observe("Runtime");
  ASSERT_FALSE(runtime.ok());
  EXPECT_NE(runtime.error().message.find("not runnable"), std::string::npos);
}

TEST(PassesEnv, ConfigRejectsUnknownKeysAndSpaces) {
  auto unknownKey = PassesEnvConfig::fromJson({{"rewrad", "x"}}, "c.json");
  ASSERT_FALSE(unknownKey.ok());
  EXPECT_NE(unknownKey.error().message.find("rewrad"), std::string::npos);
  PassesEnvConfig badReward;
  badReward.reward = "Speed";
  EXPECT_FALSE(PassesEnv::create(badReward, bundledSources()).ok());
  PassesEnvConfig badObservation;
  badObservation.observation = "Ir";
  EXPECT_FALSE(PassesEnv::create(badObservation, bundledSources()).ok());
}

TEST(PassesEnv, GeneratedProgramsLoadBySeed) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({"generator://llvm-stress-v0/3"}, 0).ok());
  EXPECT_FALSE(env->runnable());
  EXPECT_GT(env->observe("IrInstructionCount")->get<int64_t>(), 50);

  ASSERT_TRUE(env->tryReset({"generator://csmith-v0/7"}, 0).ok());
  EXPECT_TRUE(env->runnable());
  int64_t csmithSize = env->observe("IrInstructionCount")->get<int64_t>();
  EXPECT_GT(csmithSize, 100);
  // The same seed gives the same program; another seed another one.
  ASSERT_TRUE(env->tryReset({"generator://csmith-v0/7"}, 0).ok());
  EXPECT_EQ(env->observe("IrInstructionCount")->get<int64_t>(), csmithSize);
  ASSERT_TRUE(env->tryReset({"generator://csmith-v0/8"}, 0).ok());
  EXPECT_NE(env->observe("IrInstructionCount")->get<int64_t>(), csmithSize);

  auto badSeed = env->tryReset({"generator://csmith-v0/seven"}, 0);
  ASSERT_FALSE(badSeed.ok());
  EXPECT_NE(badSeed.error().message.find("expected a decimal seed"),
            std::string::npos);
}

TEST(PassesEnv, ACsmithEpisodeValidates) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({"generator://csmith-v0/7"}, 0).ok());
  for (const char *name : {"sroa", "instcombine", "gvn", "simplifycfg", "licm",
                           "loop-unroll", "dse"})
    env->step(pass(name));
  Validation validation = env->validate();
  EXPECT_TRUE(validation.ok()) << validation.toJson().dump();
  EXPECT_TRUE(validation.outputChecked);
}

TEST(PassesEnv, APassThatChangedNothingIsMaskedUntilTheModuleChanges) {
  auto env = makeEnv();
  auto obs = env->tryReset({"benchmark://rlopt-v0/qsort"}, 0);
  ASSERT_TRUE(obs.ok());
  int mem2reg = *findPassAction("mem2reg");
  int instcombine = *findPassAction("instcombine");
  EXPECT_TRUE(obs->masks[0][mem2reg]);
  StepResult first = env->step(pass("mem2reg"));
  EXPECT_TRUE(first.info["changed"].get<bool>());
  EXPECT_TRUE(first.obs.masks[0][mem2reg]);
  StepResult second = env->step(pass("mem2reg"));
  EXPECT_FALSE(second.info["changed"].get<bool>());
  EXPECT_EQ(second.reward, 0);
  EXPECT_FALSE(second.obs.masks[0][mem2reg]);
  EXPECT_TRUE(second.obs.masks[0][instcombine]);
  // Choosing it anyway is allowed and changes nothing.
  StepResult again = env->step(pass("mem2reg"));
  EXPECT_FALSE(again.info.contains("error"));
  EXPECT_FALSE(again.info["changed"].get<bool>());
  StepResult third = env->step(pass("instcombine"));
  EXPECT_TRUE(third.info["changed"].get<bool>());
  EXPECT_TRUE(third.obs.masks[0][mem2reg]);
  // A fork keeps what is known.
  StepResult fourth = env->step(pass("mem2reg"));
  ASSERT_FALSE(fourth.info["changed"].get<bool>());
  auto fork = env->fork();
  StepResult forked = fork->step(pass("instcombine"));
  EXPECT_TRUE(forked.info["changed"].get<bool>() ||
              !forked.obs.masks[0][instcombine]);
  EXPECT_EQ(forked.obs.masks[0][mem2reg], forked.info["changed"] ? 1 : 0);

  PassesEnvConfig unmasked;
  unmasked.maskUnchangedPasses = false;
  unmasked.maskRevisitingPasses = false;
  auto plain = makeEnv(unmasked);
  ASSERT_TRUE(plain->tryReset({"benchmark://rlopt-v0/qsort"}, 0).ok());
  plain->step(pass("mem2reg"));
  StepResult repeat = plain->step(pass("mem2reg"));
  EXPECT_TRUE(repeat.obs.masks[0][mem2reg]);
}

TEST(PassesEnv, APassThatOnlyReordersTheBitcodeChangesNothing) {
  // After reg2mem on bignum, loop-fusion writes the module's constants and
  // use lists in another order and nothing else. Judged by those bytes it
  // "changed" the module, which unmasked sink again, and a greedy policy
  // alternated the two for the rest of its episode.
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({"benchmark://rlopt-v0/bignum"}, 0).ok());
  env->step(pass("reg2mem"));
  std::string before = printModule(env->module());
  StepResult sunk = env->step(pass("sink"));
  EXPECT_FALSE(sunk.info["changed"].get<bool>());
  StepResult fused = env->step(pass("loop-fusion"));
  EXPECT_EQ(printModule(env->module()), before);
  EXPECT_FALSE(fused.info["changed"].get<bool>());
  EXPECT_FALSE(fused.obs.masks[0][*findPassAction("sink")]);
  EXPECT_FALSE(fused.obs.masks[0][*findPassAction("loop-fusion")]);
}

TEST(PassesEnv, ProbeGivesTheRewardTheStepWouldWithoutMovingTheEpisode) {
  auto env = makeEnv();
  ASSERT_TRUE(env->tryReset({"benchmark://rlopt-v0/qsort"}, 0).ok());
  for (const char *taken : {"mem2reg", "mem2reg", "instcombine"}) {
    std::string before = printModule(env->module());
    for (int index = 0; index < static_cast<int>(passActions().size());
         index += 7) {
      Action action{{index}};
      auto probed = env->probe(action);
      StepResult stepped = env->fork()->step(action);
      ASSERT_EQ(probed.ok(), !stepped.info.contains("error"))
          << passActions()[index].name;
      if (probed.ok())
        EXPECT_DOUBLE_EQ(*probed, stepped.reward)
            << passActions()[index].name << " after " << taken;
    }
    EXPECT_EQ(printModule(env->module()), before);
    env->step(pass(taken));
  }
  EXPECT_FALSE(env->probe(Action{{-1}}).ok());
}

TEST(PassesEnv, DisabledActionsKeepTheirIndexButAreMaskedAndRefused) {
  // The attributors deduce different attributes from run to run on the same
  // module; as actions they would break replay.
  PassesEnvConfig unmasked;
  unmasked.maskUnchangedPasses = false;
  for (const PassesEnvConfig &config : {PassesEnvConfig{}, unmasked}) {
    auto env = makeEnv(config);
    auto obs = env->tryReset({"benchmark://rlopt-v0/mergesort"}, 0);
    ASSERT_TRUE(obs.ok());
    for (const char *name :
         {"attributor-light", "attributor-cgscc", "attributor-light-cgscc"}) {
      auto index = findPassAction(name);
      ASSERT_TRUE(index.has_value()) << name;
      EXPECT_FALSE(passActions()[*index].disabled.empty()) << name;
      EXPECT_FALSE(obs->masks[0][*index]) << name;
      EXPECT_FALSE(env->probe(pass(name)).ok()) << name;
    }
    StepResult refused = env->fork()->step(pass("attributor-light-cgscc"));
    ASSERT_TRUE(refused.info.contains("error"));
    EXPECT_NE(refused.info["error"].get<std::string>().find("disabled"),
              std::string::npos);
    EXPECT_TRUE(refused.terminated);
  }
}

TEST(PassesEnv, CallsThatNeedAnEpisodeSaySoBeforeReset) {
  auto env = makeEnv();
  ASSERT_TRUE(env);
  auto metric = env->metric("IrInstructionCount");
  ASSERT_FALSE(metric.ok());
  EXPECT_EQ(metric.error().message, "metric: no episode; call reset");
  auto observed = env->observe("InstCount");
  ASSERT_FALSE(observed.ok());
  EXPECT_EQ(observed.error().message, "observe: no episode; call reset");
  Validation validation = env->validate();
  ASSERT_EQ(validation.errors.size(), 1u);
  EXPECT_EQ(validation.errors[0], "validate: no episode; call reset");
}
