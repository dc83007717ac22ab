#ifndef RLOPT_PASSES_BENCHMARK_H
#define RLOPT_PASSES_BENCHMARK_H

#include "rlopt/core/Result.h"
#include "rlopt/passes/ModuleCopy.h"

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
///   benchmark://rlopt-v0/NAME      bundled C program (runnable, checked
///   output) generator://csmith-v0/SEED     Csmith program from a seed
///   (runnable) generator://llvm-stress-v0/SEED random IR from llvm-stress (not
///   runnable) file:///path/x.c|.ll|.bc, or a plain path
struct Benchmark {
  std::string uri;
  IsolatedModule module;
  bool runnable = false;                     ///< has a main that terminates
  std::vector<std::string> libs;             ///< link flags, e.g. "-lm"
  std::optional<std::string> expectedOutput; ///< bundled programs only
};

/// Where bundled data lives and which tools build programs.
struct BenchmarkSources {
  std::string dataDir; ///< holds programs/rlopt-v0/*.c
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
