#ifndef RLOPT_PASSES_BENCHMARKSPEC_H
#define RLOPT_PASSES_BENCHMARKSPEC_H

#include "rlopt/core/Result.h"
#include "rlopt/passes/Runtime.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace rlopt::passes {

struct BenchmarkSources;

/// A benchmark described by a JSON file beside its sources, so that a
/// program of several files, with arguments and input files, loads, runs and
/// validates. Paths are relative to the spec's directory:
///   {
///     "sources": ["src"],             C files, or directories of them
///     "bitcode": "prog.bc",           or one LLVM module (.bc or .ll)
///     "cflags": ["-DNDEBUG"],         for every source
///     "libs": ["-lm"],                link flags (default -lm)
///     "run": {                        how the program runs (optional)
///       "args": ["-d", "in.txt"],
///       "inputs": ["data/in.txt"],    copied into its working directory
///       "stdin": "data/stdin.txt",
///       "outputs": ["out.txt"]        files it writes, checked like stdout
///     },
///     "expected_stdout": "out.expected"  what a correct build prints
///   }
/// The benchmark's name is the spec's file name without ".json".
struct BenchmarkSpec {
  std::string path;                 ///< of the spec file
  std::string name;                 ///< its file name without ".json"
  std::vector<std::string> sources; ///< absolute; directories expanded
  std::string bitcode;              ///< absolute, or empty
  std::vector<std::string> cflags;
  ProgramRun run; ///< absolute paths
  bool runSpecified = false;
  std::string expectedStdout; ///< absolute path, or empty
};

/// Reads and checks a spec: unknown keys, wrong types, missing or
/// non-regular files and paths that leave the spec's directory tree through
/// ".." are one-line errors naming the spec.
Result<BenchmarkSpec> loadBenchmarkSpec(const std::string &path);

/// The spec's program as one module: its bitcode, or its sources compiled
/// with its flags and linked together.
Result<std::unique_ptr<llvm::Module>>
buildSpecModule(const BenchmarkSpec &spec, const BenchmarkSources &sources,
                llvm::LLVMContext &context);

/// Writes `spec` with `module` into `dir` as NAME.bc and NAME.json, with
/// the files it reads under NAME.files/, so it loads without compiling.
Status installSpec(const BenchmarkSpec &spec, const llvm::Module &module,
                   const std::string &dir);

} // namespace rlopt::passes

#endif
