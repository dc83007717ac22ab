#ifndef RLOPT_EVAL_EVALUATE_H
#define RLOPT_EVAL_EVALUATE_H

#include "rlopt/core/Result.h"
#include "rlopt/eval/AgentSpec.h"
#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/ExternalBaseline.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace rlopt::eval {

/// One program to evaluate, as a suite manifest lists it.
struct EvalBenchmark {
  std::string name, opClass, split, path;
  double flops = 0, bytes = 0;
  nlohmann::json shapes; ///< the manifest's shapes (external baselines)
};

/// Per-benchmark outcome. A failure is kept (error set), never dropped.
struct BenchmarkResult {
  EvalBenchmark benchmark;
  std::string schedule, error;
  double baselineMs = 0, candidateMs = 0;
  double baselineSpread = 0, candidateSpread = 0;
  double speedup = 0;
  bool correct = false;
  bool cached = false;
  double gflops = 0;      ///< candidate FLOP rate
  double percentPeak = 0; ///< of threads x single-thread FMA peak
  double gbps = 0;        ///< candidate bytes moved per second
  /// gbps as a share of the single-thread triad bandwidth (0 = unknown).
  double percentBandwidth = 0;
  /// External baselines (LibTorch, oneDNN) timed in the same run.
  std::vector<linalg::ExternalTiming> externals;

  bool ok() const { return error.empty() && correct; }
  nlohmann::json toJson() const;
  nlohmann::json externalsJson() const;
};

struct EvalOptions {
  AgentSpec agent;
  linalg::EnvConfig env; ///< measurement, threads, cache, search knobs
  double peakGflops = 0; ///< single-thread FP32 peak; 0 = do not report %
  /// Single-thread STREAM triad bandwidth in GB/s; 0 = do not report %.
  double bandwidthGbps = 0;
  std::vector<std::string> baselines; ///< "torch", "onednn"
  uint64_t seed = 0;
  /// The cost model of search:N; empty: candidates in random order.
  std::string costModelPath;
};

/// Evaluates every benchmark; `onReady` is called once the agent is set up,
/// `onDone` after each benchmark. An agent that cannot be set up (a policy
/// file that does not load or does not fit the environment) is an error.
Result<std::vector<BenchmarkResult>>
evaluate(const std::vector<EvalBenchmark> &benchmarks,
         const EvalOptions &options,
         const std::function<void()> &onReady = nullptr,
         const std::function<void(size_t, const BenchmarkResult &)> &onDone =
             nullptr);

/// Classes whose speed is reported as GFLOP/s and % of peak; the others as
/// GB/s and % of the memory bandwidth.
bool isComputeBound(const std::string &opClass);

/// results.json (with `meta`) and results.csv in `dir` (created if needed),
/// each written atomically.
Status writeResults(const std::string &dir,
                    const std::vector<BenchmarkResult> &results,
                    const nlohmann::json &meta);

/// The table printed at the end: per op class, count, failures, the
/// geometric mean speedup over naive and, per external baseline, the
/// geometric mean of its time over the candidate's (failed benchmarks
/// excluded and listed), then the kernels each external baseline ran.
std::string summaryTable(const std::vector<BenchmarkResult> &results);

} // namespace rlopt::eval

#endif
