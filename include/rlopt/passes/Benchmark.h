#ifndef RLOPT_PASSES_BENCHMARK_H
#define RLOPT_PASSES_BENCHMARK_H

#include "rlopt/core/Result.h"
#include "rlopt/passes/ModuleCopy.h"
#include "rlopt/passes/Runtime.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace rlopt::passes {

/// A loaded program. URIs follow CompilerGym's naming:
///   benchmark://rlopt-v0/NAME        bundled C program (checked output)
///   benchmark://DATASET/NAME         a program of an installed dataset
///                                    (`rlopt passes dataset install`)
///   generator://csmith-v0/SEED       Csmith program from a seed
///   generator://llvm-stress-v0/SEED  random IR from llvm-stress
///   file:///path/x.c|.ll|.bc|.json, or a plain path (.json: a benchmark
///                                    spec, see BenchmarkSpec.h)
struct Benchmark {
  std::string uri;
  IsolatedModule module;
  bool runnable = false; ///< has a main that terminates
  ProgramRun run;        ///< how it links and runs
  /// The benchmark says how it runs (a bundled program, or a spec with a
  /// "run" section); otherwise it runs without arguments or inputs, which
  /// may not be how it is meant to run.
  bool runSpecified = false;
  std::optional<std::string> expectedOutput; ///< what a correct build prints
};

/// $RLOPT_DATASETS, else $XDG_DATA_HOME/rlopt/datasets, else
/// ~/.local/share/rlopt/datasets.
std::string defaultDatasetsDir();

/// Where bundled data lives and which tools build programs.
struct BenchmarkSources {
  std::string dataDir; ///< holds programs/rlopt-v0/*.c
  /// Installed datasets, one directory each; defaultDatasetsDir() unless set.
  std::string datasetsDir = defaultDatasetsDir();
  std::string clang = "clang-19";
  std::string csmith = "csmith";
  std::string llvmStress = "llvm-stress-19";
};

/// Loads benchmarks and keeps each one's unoptimized bitcode, so a reset is a
/// parse rather than a recompile. Every load is a module in a context of its
/// own, identical to every other load of the same URI.
class BenchmarkLoader {
public:
  explicit BenchmarkLoader(BenchmarkSources sources);
  ~BenchmarkLoader();

  /// A fresh copy of the benchmark's unoptimized module.
  Result<Benchmark> load(const std::string &uri);

  /// The URIs of the bundled suite, sorted.
  std::vector<std::string> bundledUris() const;
  /// The URIs of one split ("train" or "test", from the suite's
  /// splits.json) or "all".
  Result<std::vector<std::string>> bundledSplit(const std::string &split) const;
  /// The same for any suite: rlopt-v0 or an installed dataset.
  Result<std::vector<std::string>> suiteSplit(const std::string &suite,
                                              const std::string &split) const;
  /// The programs of a list of suites, `SUITE[:SPLIT],...`: each suite's
  /// own split, else `split` (e.g. "rlopt-v0,csmith-train:all").
  Result<std::vector<std::string>> suitesSplit(const std::string &suites,
                                               const std::string &split) const;
  /// The installed datasets' names, sorted.
  std::vector<std::string> installedDatasets() const;

  const BenchmarkSources &sources() const { return src; }

private:
  /// A loaded benchmark without its module, and the module as bitcode.
  struct Pristine {
    Benchmark info;
    std::string bitcode;
  };
  Result<Pristine> loadUncached(const std::string &uri);
  /// Compiles, generates or reads the benchmark into `context`.
  Result<std::unique_ptr<llvm::Module>> loadModule(const std::string &uri,
                                                   llvm::LLVMContext &context,
                                                   Benchmark &info);

  /// Builds a benchmark spec's program and fills in how it runs.
  Result<std::unique_ptr<llvm::Module>> loadSpec(const std::string &path,
                                                 llvm::LLVMContext &context,
                                                 Benchmark &info);

  BenchmarkSources src;
  std::map<std::string, Pristine> pristine;
};

/// Compiles C to unoptimized IR that passes can still optimize (no optnone).
Result<std::unique_ptr<llvm::Module>>
compileC(const std::string &cPath, const BenchmarkSources &sources,
         llvm::LLVMContext &context,
         const std::vector<std::string> &extraFlags = {});

/// Reads a `.ll` or `.bc` file.
Result<std::unique_ptr<llvm::Module>> readIrFile(const std::string &path,
                                                 llvm::LLVMContext &context);

} // namespace rlopt::passes

#endif
