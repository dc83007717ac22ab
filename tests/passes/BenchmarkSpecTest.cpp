// Benchmark specs: programs of several files with arguments, inputs and
// output files load, run and validate; every mistake in a spec is one line.
#include "rlopt/passes/BenchmarkSpec.h"
#include "rlopt/passes/Dataset.h"
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassesEnv.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include "PassesTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

using namespace rlopt;
using namespace rlopt::passes;
using namespace rlopt::passes::testing;
namespace fs = std::filesystem;

namespace {

const std::string kSpecs = RLOPT_TEST_DATA "/passes/specs";

class ScratchDir {
public:
  ScratchDir() {
    std::string pattern =
        (fs::path(::testing::TempDir()) / "spec-XXXXXX").string();
    dir = mkdtemp(pattern.data());
  }
  ~ScratchDir() { fs::remove_all(dir); }
  std::string file(const std::string &name) const { return dir + "/" + name; }
  std::string dir;
};

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream(path) << text;
}

/// The error loading a spec with `json` in `dir` gives.
std::string specError(const ScratchDir &dir, const std::string &json) {
  writeFile(dir.file("p.json"), json);
  auto spec = loadBenchmarkSpec(dir.file("p.json"));
  return spec ? "" : spec.error().message;
}

std::unique_ptr<PassesEnv> makeEnv(const BenchmarkSources &sources) {
  auto env = PassesEnv::create({}, sources);
  EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
  return env.takeValue();
}

/// Bundled sources whose datasets go into `home`.
BenchmarkSources sourcesIn(const ScratchDir &home) {
  BenchmarkSources sources = bundledSources();
  sources.datasetsDir = home.file("datasets");
  return sources;
}

void step(PassesEnv &env, const std::string &pass) {
  StepResult result = env.step(Action{{*findPassAction(pass)}});
  ASSERT_FALSE(result.info.contains("error")) << result.info.dump();
}

} // namespace

TEST(BenchmarkSpec, ResolvesSourcesInputsAndOutputs) {
  auto spec = loadBenchmarkSpec(kSpecs + "/wordstat.json");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->name, "wordstat");
  ASSERT_EQ(spec->sources.size(), 2u); // the directory's two .c files
  EXPECT_EQ(fs::path(spec->sources[0]).filename(), "count.c");
  EXPECT_EQ(spec->cflags, std::vector<std::string>{"-DSCALE=1"});
  EXPECT_TRUE(spec->runSpecified);
  EXPECT_EQ(spec->run.args.size(), 4u);
  ASSERT_EQ(spec->run.inputs.size(), 1u);
  EXPECT_TRUE(fs::path(spec->run.inputs[0]).is_absolute());
  EXPECT_EQ(spec->run.outputs, std::vector<std::string>{"histogram.txt"});
}

TEST(BenchmarkSpec, MistakesAreOneLineErrorsNamingTheSpec) {
  ScratchDir dir;
  writeFile(dir.file("a.c"), "int main(void) { return 0; }\n");
  writeFile(dir.file("in.txt"), "x\n");
  struct Case {
    const char *json, *expected;
  };
  for (
      const Case &c : std::initializer_list<Case>{
          {R"({"sources": ["a.c"], "colour": 1})", "unknown key 'colour'"},
          {R"({"sources": "a.c"})", "sources: wrong type"},
          {R"({})", "either \"sources\""},
          {R"({"sources": ["a.c"], "bitcode": "a.bc"})", "either \"sources\""},
          {R"({"sources": ["missing.c"]})", "missing.c: no such file"},
          {R"({"sources": ["in.txt"]})", "not a .c file"},
          {R"({"sources": ["a.c"], "run": {"inputs": ["nope"]}})",
           "run: inputs: nope: no such file"},
          {R"({"sources": ["a.c"], "run": {"outputs": ["../x"]}})",
           "without '/'"},
          {R"({"sources": ["a.c"], "run": {"args": [1]}})", "args: wrong type"},
          {R"({"sources": ["a.c"], "run": {"inputs": ["in.txt", "./in.txt"]}})",
           "two inputs are named in.txt"},
          {R"([1])", "expected a JSON object"},
      }) {
    std::string error = specError(dir, c.json);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.json << " gave: " << error;
    EXPECT_NE(error.find("p.json"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(BenchmarkSpec, AFifoInputIsRefusedBeforeAnythingRuns) {
  ScratchDir dir;
  writeFile(dir.file("a.c"), "int main(void) { return 0; }\n");
  ASSERT_EQ(mkfifo(dir.file("pipe").c_str(), 0600), 0);
  std::string error =
      specError(dir, R"({"sources": ["a.c"], "run": {"stdin": "pipe"}})");
  EXPECT_NE(error.find("pipe is not a regular file"), std::string::npos)
      << error;
}

TEST(BenchmarkSpec, MultiFileProgramWithArgumentsRunsAndValidates) {
  auto env = makeEnv(bundledSources());
  ASSERT_TRUE(env->tryReset({kSpecs + "/wordstat.json"}, 0).ok());
  EXPECT_TRUE(env->runnable());
  for (const char *pass : {"mem2reg", "instcombine", "simplifycfg", "licm"})
    step(*env, pass);
  Validation validation = env->validate(ValidationMode::Run);
  EXPECT_TRUE(validation.ok()) << validation.toJson().dump();
  EXPECT_TRUE(validation.outputChecked);
  EXPECT_NE(validation.checked().find("output"), std::string::npos);
  // The Runtime observation runs it the same way, with its arguments.
  auto runtime = env->observe("Runtime");
  EXPECT_TRUE(runtime.ok()) << runtime.error().message;
}

TEST(BenchmarkSpec, OutputFileDifferencesAreCaught) {
  // The same program with another SCALE writes another histogram but the
  // same stdout: only the output file tells them apart.
  ScratchDir dir;
  fs::copy(kSpecs + "/wordstat", dir.file("wordstat"));
  fs::create_directory(dir.file("inputs"));
  fs::copy(kSpecs + "/inputs/text.txt", dir.file("inputs/text.txt"));
  std::string spec = R"({"sources": ["wordstat"], "cflags": ["-DSCALE=2"],
      "run": {"args": ["--input", "text.txt", "--histogram", "h.txt"],
              "inputs": ["inputs/text.txt"], "outputs": ["h.txt"]}})";
  writeFile(dir.file("two.json"), spec);
  auto env = makeEnv(bundledSources());
  ASSERT_TRUE(env->tryReset({dir.file("two.json")}, 0).ok());
  step(*env, "mem2reg");
  auto &module = env->mutableModule();
  // Scale the histogram by 2 again in the optimized build: a miscompile.
  bool changed = false;
  for (auto &function : module)
    for (auto &block : function)
      for (auto &inst : block)
        if (auto *mul = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
            mul && mul->getOpcode() == llvm::Instruction::Mul && !changed) {
          mul->setOperand(1, llvm::ConstantInt::get(mul->getType(), 4));
          changed = true;
        }
  ASSERT_TRUE(changed);
  Validation validation = env->validate(ValidationMode::Run);
  EXPECT_FALSE(validation.ok());
  EXPECT_TRUE(validation.outputChecked);
}

TEST(BenchmarkSpec, ProgramsNeedingArgumentsAreNotedNotFailedInAutoMode) {
  auto env = makeEnv(bundledSources());
  ASSERT_TRUE(env->tryReset({RLOPT_TEST_DATA "/passes/needs_args.c"}, 0).ok());
  step(*env, "mem2reg");
  Validation automatic = env->validate(ValidationMode::Auto);
  EXPECT_TRUE(automatic.ok()) << automatic.toJson().dump();
  EXPECT_FALSE(automatic.outputChecked);
  EXPECT_NE(automatic.notChecked.find("exited with code 1"), std::string::npos)
      << automatic.notChecked;
  Validation run = env->validate(ValidationMode::Run);
  EXPECT_FALSE(run.ok());
  Validation replay = env->validate(ValidationMode::Replay);
  EXPECT_TRUE(replay.ok());
  EXPECT_TRUE(replay.replayMatches);
}

TEST(Dataset, InstallsAllOrNothingAndLoadsByUri) {
  ScratchDir home;
  BenchmarkSources sources = sourcesIn(home);
  DatasetInstall request;
  request.sourceDir = kSpecs;
  request.name = "mini";
  auto installed = installDataset(request, sources);
  ASSERT_TRUE(installed.ok()) << installed.error().message;
  EXPECT_EQ(installed->programs,
            (std::vector<std::string>{"rot13", "wordstat"}));

  BenchmarkLoader loader(sources);
  EXPECT_EQ(loader.installedDatasets(), std::vector<std::string>{"mini"});
  auto test = loader.suiteSplit("mini", "test");
  ASSERT_TRUE(test.ok()) << test.error().message;
  EXPECT_EQ(*test, std::vector<std::string>{"benchmark://mini/wordstat"});
  // Several suites, each with its own split or the one given.
  auto both = loader.suitesSplit("mini:train, rlopt-v0", "test");
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(both->front(), "benchmark://mini/rot13");
  EXPECT_EQ(both->size(), 1 + loader.bundledSplit("test")->size());
  EXPECT_FALSE(loader.suitesSplit("mini,nope", "all").ok());

  // The installed program loads from bitcode and still runs with its inputs.
  auto env = makeEnv(sources);
  ASSERT_TRUE(env->tryReset({"benchmark://mini/rot13"}, 0).ok());
  step(*env, "mem2reg");
  Validation validation = env->validate(ValidationMode::Run);
  EXPECT_TRUE(validation.ok()) << validation.toJson().dump();
  EXPECT_TRUE(validation.outputChecked);
  EXPECT_FALSE(env->tryReset({"benchmark://mini/nothing"}, 0).ok());
  EXPECT_FALSE(env->tryReset({"benchmark://other/rot13"}, 0).ok());

  // Installing again needs --replace; a broken spec installs nothing and
  // leaves the installed dataset as it was.
  EXPECT_FALSE(installDataset(request, sources).ok());
  ScratchDir broken;
  fs::copy(kSpecs, broken.dir, fs::copy_options::recursive);
  writeFile(broken.file("zz.json"), R"({"sources": ["missing.c"]})");
  request.sourceDir = broken.dir;
  request.replace = true;
  auto failed = installDataset(request, sources);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("zz.json"), std::string::npos);
  EXPECT_TRUE(fs::exists(sources.datasetsDir + "/mini/wordstat.bc"));
  EXPECT_FALSE(fs::exists(sources.datasetsDir + "/mini/zz.json"));
  std::vector<std::string> leftovers;
  for (const auto &entry : fs::directory_iterator(sources.datasetsDir))
    leftovers.push_back(entry.path().filename().string());
  EXPECT_EQ(leftovers, std::vector<std::string>{"mini"});
}

TEST(Dataset, BadNamesAndSplitsAreRefused) {
  ScratchDir home;
  BenchmarkSources sources = sourcesIn(home);
  DatasetInstall request;
  request.sourceDir = kSpecs;
  for (const char *name : {"rlopt-v0", "../up", ".hidden", "a b"}) {
    request.name = name;
    EXPECT_FALSE(installDataset(request, sources).ok()) << name;
  }
  ScratchDir source;
  fs::copy(kSpecs, source.dir, fs::copy_options::recursive);
  writeFile(source.file("splits.json"), R"({"test": ["rot13", "ghost"]})");
  request.sourceDir = source.dir;
  request.name = "x";
  auto result = installDataset(request, sources);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("\"ghost\" is not a program"),
            std::string::npos)
      << result.error().message;
}
