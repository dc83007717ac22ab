// Benchmark URIs to LLVM modules: bundled C programs, generated programs and
// user files.
#include "rlopt/passes/Benchmark.h"

#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/core/Process.h"
#include "rlopt/core/Splits.h"
#include "rlopt/core/TempDir.h"
#include "rlopt/passes/BenchmarkSpec.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rlopt::passes {

namespace fs = std::filesystem;

namespace {

constexpr const char *kBundledSuite = "rlopt-v0";
constexpr const char *kBundledPrefix = "benchmark://rlopt-v0/";
constexpr const char *kDatasetPrefix = "benchmark://";
constexpr const char *kCsmithPrefix = "generator://csmith-v0/";
constexpr const char *kStressPrefix = "generator://llvm-stress-v0/";
constexpr const char *kFilePrefix = "file://";

std::string bundledDir(const BenchmarkSources &sources) {
  return sources.dataDir + "/programs/rlopt-v0";
}

std::optional<std::string> readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The first line of a tool's diagnostics that says "error", else the first.
std::string firstErrorLine(const std::string &diagnostics) {
  std::istringstream lines(diagnostics);
  std::string line, first;
  while (std::getline(lines, line)) {
    if (first.empty() && !line.empty())
      first = line;
    if (line.find("error") != std::string::npos)
      return line;
  }
  return first.empty() ? "failed without a message" : first;
}

/// Why a tool failed: its first error line when it exited with one, else
/// how it ended (a crash, a timeout, a limit).
std::string toolFailure(const ProcessResult &run,
                        const ProcessOptions &options) {
  if (run.exitCode > 0 && !run.err.empty())
    return firstErrorLine(run.err);
  return describeFailure(run, options);
}

Result<uint64_t> parseSeed(llvm::StringRef text, const std::string &uri) {
  uint64_t seed = 0;
  if (text.empty() || text.getAsInteger(10, seed))
    return makeError(uri + ": expected a decimal seed after the last '/'");
  return seed;
}

Result<std::unique_ptr<llvm::Module>> parseIr(llvm::MemoryBufferRef buffer,
                                              const std::string &where,
                                              llvm::LLVMContext &context) {
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseIR(buffer, diagnostic, context);
  if (!module) {
    std::string message = diagnostic.getMessage().str();
    if (diagnostic.getLineNo() > 0)
      return makeError(where + ":" + std::to_string(diagnostic.getLineNo()) +
                       ": " + message);
    return makeError(where + ": " + message);
  }
  // Passes assume valid IR: on IR that fails the verifier some loop forever.
  std::string problem;
  llvm::raw_string_ostream problemStream(problem);
  if (llvm::verifyModule(*module, &problemStream)) {
    problemStream.flush();
    std::string firstLine = problem.substr(0, problem.find('\n'));
    return makeError(where + ": invalid IR: " + firstLine);
  }
  return module;
}

} // namespace

Result<std::unique_ptr<llvm::Module>>
compileC(const std::string &cPath, const BenchmarkSources &sources,
         llvm::LLVMContext &context,
         const std::vector<std::string> &extraFlags) {
  auto dir = TempDir::create("rlopt-cc");
  if (!dir)
    return dir.error();
  std::string bc = dir->file("program.bc");
  // -disable-O0-optnone keeps the IR unoptimized yet optimizable;
  // -ffp-contract=off keeps floating-point results identical at every level.
  std::vector<std::string> args = {
      "-O0",        "-Xclang", "-disable-O0-optnone",
      "-emit-llvm", "-c",      "-ffp-contract=off",
      "-w"};
  args.insert(args.end(), extraFlags.begin(), extraFlags.end());
  args.insert(args.end(), {cPath, "-o", bc});
  args.insert(args.begin(), sources.clang);
  ProcessOptions options;
  options.timeoutSeconds = 120;
  auto run = runProcess(args, options);
  if (!run)
    return run.error();
  if (!run->succeeded())
    return makeError(cPath +
                     ": does not compile: " + toolFailure(*run, options));
  return readIrFile(bc, context);
}

Result<std::unique_ptr<llvm::Module>> readIrFile(const std::string &path,
                                                 llvm::LLVMContext &context) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  return parseIr(llvm::MemoryBufferRef(*text, path), path, context);
}

BenchmarkLoader::BenchmarkLoader(BenchmarkSources sources)
    : src(std::move(sources)) {}

BenchmarkLoader::~BenchmarkLoader() = default;

namespace {

/// A suite is a directory of programs: the bundled one holds C files, an
/// installed dataset holds benchmark specs. A name is a URI path segment.
struct SuiteDir {
  std::string dir, extension;
};

Result<SuiteDir> suiteDirOf(const BenchmarkSources &src,
                            const std::string &suite) {
  if (suite == kBundledSuite)
    return SuiteDir{bundledDir(src), ".c"};
  std::string dir = src.datasetsDir + "/" + suite;
  std::error_code error;
  if (suite.empty() || suite.find('/') != std::string::npos || suite == "." ||
      suite == ".." || !fs::is_directory(dir, error))
    return makeError("unknown suite '" + suite +
                     "' (rlopt-v0, or a dataset "
                     "`rlopt passes dataset list` shows)");
  return SuiteDir{dir, ".json"};
}

std::vector<std::string> programNames(const SuiteDir &suite) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(suite.dir, ec))
    if (entry.path().extension() == suite.extension &&
        entry.path().stem() != "splits")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

std::string defaultDatasetsDir() {
  if (const char *dir = std::getenv("RLOPT_DATASETS"); dir && *dir)
    return dir;
  if (const char *data = std::getenv("XDG_DATA_HOME"); data && *data)
    return std::string(data) + "/rlopt/datasets";
  const char *home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") +
         "/.local/share/rlopt/datasets";
}

std::vector<std::string> BenchmarkLoader::bundledUris() const {
  return *suiteSplit(kBundledSuite, "all");
}

Result<std::vector<std::string>>
BenchmarkLoader::bundledSplit(const std::string &split) const {
  return suiteSplit(kBundledSuite, split);
}

std::vector<std::string> BenchmarkLoader::installedDatasets() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(src.datasetsDir, ec))
    if (entry.is_directory() && entry.path().filename().string()[0] != '.')
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::vector<std::string>>
BenchmarkLoader::suitesSplit(const std::string &suites,
                             const std::string &split) const {
  std::vector<std::string> uris;
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(suites).split(items, ',');
  for (llvm::StringRef item : items) {
    auto [suite, own] = item.trim().split(':');
    auto some = suiteSplit(suite.str(), own.empty() ? split : own.str());
    if (!some)
      return some.error();
    uris.insert(uris.end(), some->begin(), some->end());
  }
  return uris;
}

Result<std::vector<std::string>>
BenchmarkLoader::suiteSplit(const std::string &suite,
                            const std::string &split) const {
  auto dir = suiteDirOf(src, suite);
  if (!dir)
    return dir.error();
  std::vector<std::string> programs = programNames(*dir);
  Result<std::vector<std::string>> names = programs;
  if (split != "all") {
    auto splits = readSplits(dir->dir + "/splits.json", programs);
    if (!splits)
      return splits.error();
    names = splits->of(split, programs);
  }
  if (!names)
    return names.error();
  std::vector<std::string> uris;
  for (const std::string &name : *names)
    uris.push_back("benchmark://" + suite + "/" + name);
  return uris;
}

Result<Benchmark> BenchmarkLoader::load(const std::string &uri) {
  auto it = pristine.find(uri);
  if (it == pristine.end()) {
    auto loaded = loadUncached(uri);
    if (!loaded)
      return loaded.error();
    it = pristine.emplace(uri, loaded.takeValue()).first;
  }
  const Pristine &original = it->second;
  // Every load parses the same bytes into a new context, so no load can see
  // what an earlier episode did to its own context.
  auto module = readModuleBitcode(original.bitcode, uri);
  if (!module)
    return module.error();
  Benchmark copy;
  copy.uri = original.info.uri;
  copy.module = module.takeValue();
  copy.runnable = original.info.runnable;
  copy.run = original.info.run;
  copy.runSpecified = original.info.runSpecified;
  copy.expectedOutput = original.info.expectedOutput;
  return copy;
}

Result<std::unique_ptr<llvm::Module>>
BenchmarkLoader::loadSpec(const std::string &path, llvm::LLVMContext &context,
                          Benchmark &benchmark) {
  auto spec = loadBenchmarkSpec(path);
  if (!spec)
    return spec.error();
  auto module = buildSpecModule(*spec, src, context);
  if (!module)
    return module.error();
  llvm::Function *main = (*module)->getFunction("main");
  benchmark.runnable = main && !main->isDeclaration();
  benchmark.runSpecified = spec->runSpecified;
  benchmark.run = spec->run;
  if (!spec->expectedStdout.empty()) {
    auto expected = readRegularFile(spec->expectedStdout);
    if (!expected)
      return expected.error();
    benchmark.expectedOutput = *expected;
  }
  return module;
}

Result<BenchmarkLoader::Pristine>
BenchmarkLoader::loadUncached(const std::string &uri) {
  llvm::LLVMContext context;
  Pristine loaded;
  loaded.info.uri = uri;
  auto module = loadModule(uri, context, loaded.info);
  if (!module)
    return module.error();
  // The IR was read from a scratch file whose name differs on every load;
  // the URI names the module the same way in every process.
  (*module)->setModuleIdentifier(uri);
  // Without use-list order: episodes, baselines and validation all start
  // from the module as the IR alone gives it (see writeCanonicalBitcode).
  loaded.bitcode = writeCanonicalBitcode(**module);
  return loaded;
}

Result<std::unique_ptr<llvm::Module>>
BenchmarkLoader::loadModule(const std::string &uri, llvm::LLVMContext &context,
                            Benchmark &benchmark) {
  llvm::StringRef ref(uri);

  if (ref.starts_with(kBundledPrefix)) {
    std::string name = ref.drop_front(strlen(kBundledPrefix)).str();
    std::string base = bundledDir(src) + "/" + name;
    if (name.empty() || name.find('/') != std::string::npos ||
        !fs::exists(base + ".c"))
      return makeError(uri + ": unknown benchmark (rlopt passes list "
                             "shows the bundled ones)");
    auto module = compileC(base + ".c", src, context);
    if (!module)
      return module.error();
    benchmark.runnable = true;
    benchmark.runSpecified = true;
    benchmark.expectedOutput = readText(base + ".expected");
    return module;
  }

  if (ref.starts_with(kDatasetPrefix)) {
    auto [dataset, name] = ref.drop_front(strlen(kDatasetPrefix)).split('/');
    auto dir = suiteDirOf(src, dataset.str());
    if (!dir)
      return makeError(uri + ": " + dir.error().message);
    std::string spec = dir->dir + "/" + name.str() + ".json";
    if (name.empty() || name.contains('/') || name == "splits" ||
        !fs::exists(spec))
      return makeError(uri + ": no such program in dataset " + dataset.str() +
                       " (" + dir->dir + ")");
    return loadSpec(spec, context, benchmark);
  }

  if (ref.starts_with(kCsmithPrefix)) {
    auto seed = parseSeed(ref.drop_front(strlen(kCsmithPrefix)), uri);
    if (!seed)
      return seed.error();
    auto dir = TempDir::create("rlopt-csmith");
    if (!dir)
      return dir.error();
    std::string cPath = dir->file("csmith.c");
    // Csmith also writes platform.info into its working directory, so it
    // runs inside the scratch directory.
    ProcessOptions options;
    options.workingDirectory = dir->path();
    auto run = runProcess(
        {src.csmith, "--seed", std::to_string(*seed), "--output", "csmith.c"},
        options);
    if (!run)
      return run.error();
    if (!run->succeeded())
      return makeError(uri + ": csmith failed: " + toolFailure(*run, options));
    auto module = compileC(cPath, src, context, {"-I/usr/include/csmith"});
    if (!module)
      return makeError(uri + ": " + module.error().message);
    (*module)->setSourceFileName(uri);
    benchmark.runnable = true;
    return module;
  }

  if (ref.starts_with(kStressPrefix)) {
    auto seed = parseSeed(ref.drop_front(strlen(kStressPrefix)), uri);
    if (!seed)
      return seed.error();
    ProcessOptions options;
    auto run = runProcess(
        {src.llvmStress, "-seed=" + std::to_string(*seed), "-size=200"},
        options);
    if (!run)
      return run.error();
    if (!run->succeeded())
      return makeError(uri +
                       ": llvm-stress failed: " + toolFailure(*run, options));
    auto buffer = llvm::MemoryBuffer::getMemBuffer(run->out, uri);
    auto module = parseIr(buffer->getMemBufferRef(), uri, context);
    if (!module)
      return module.error();
    return module;
  }

  std::string path = ref.starts_with(kFilePrefix)
                         ? ref.drop_front(strlen(kFilePrefix)).str()
                         : uri;
  if (ref.contains("://") && !ref.starts_with(kFilePrefix))
    return makeError(uri + ": unknown benchmark URI scheme (expected "
                           "benchmark://SUITE/NAME, generator://csmith-v0/"
                           "SEED, generator://llvm-stress-v0/SEED or a file)");
  if (!fs::exists(path))
    return makeError(path + ": no such file");
  llvm::StringRef ext = llvm::StringRef(path).rsplit('.').second;
  if (ext == "c") {
    // clang would block on a FIFO and read a device forever.
    if (auto text = readRegularFile(path); !text)
      return text.error();
    auto module = compileC(path, src, context);
    if (!module)
      return module.error();
    benchmark.runnable = true;
    return module;
  }
  if (ext == "json")
    return loadSpec(path, context, benchmark);
  if (ext != "ll" && ext != "bc")
    return makeError(path + ": expected a .c, .ll, .bc or .json (benchmark "
                            "spec) file");
  auto module = readIrFile(path, context);
  if (!module)
    return module.error();
  llvm::Function *main = (*module)->getFunction("main");
  benchmark.runnable = main && !main->isDeclaration();
  return module;
}

} // namespace rlopt::passes
