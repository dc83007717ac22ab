#ifndef RLOPT_PASSES_DATASET_H
#define RLOPT_PASSES_DATASET_H

#include "rlopt/core/Result.h"
#include "rlopt/passes/Benchmark.h"

#include <functional>
#include <string>
#include <vector>

namespace rlopt::passes {

/// A directory of benchmark specs (and an optional splits.json with "train"
/// and "test" arrays of program names), installed under
/// `sources.datasetsDir/NAME` with every program built to bitcode, so that
/// benchmark://NAME/PROGRAM loads without compiling and
/// `--suite NAME` evaluates them all.
struct DatasetInstall {
  std::string sourceDir;
  std::string name;     ///< empty: the source directory's name
  bool replace = false; ///< replace an installed dataset of that name
  /// Called with each program's name before it is built.
  std::function<void(const std::string &)> progress;
};

struct InstalledDataset {
  std::string name, dir;
  std::vector<std::string> programs;
};

/// Installs all of the dataset or nothing: a spec that does not load or a
/// program that does not build is an error naming it, and the installed
/// datasets are left as they were.
Result<InstalledDataset> installDataset(const DatasetInstall &request,
                                        const BenchmarkSources &sources);

} // namespace rlopt::passes

#endif
