// What the LLVM pass-ordering tests share: the bundled programs.
#ifndef RLOPT_TESTS_PASSES_PASSESTESTUTIL_H
#define RLOPT_TESTS_PASSES_PASSESTESTUTIL_H

#include "rlopt/passes/Benchmark.h"

namespace rlopt::passes::testing {

/// Sources whose data directory holds the bundled programs (data/).
inline BenchmarkSources bundledSources() {
  BenchmarkSources sources;
  sources.dataDir = RLOPT_TEST_DATA "/../../data";
  return sources;
}

} // namespace rlopt::passes::testing

#endif
