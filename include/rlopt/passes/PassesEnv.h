#ifndef RLOPT_PASSES_PASSESENV_H
#define RLOPT_PASSES_PASSESENV_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"
#include "rlopt/core/TransitionMemory.h"
#include "rlopt/passes/Benchmark.h"
#include "rlopt/passes/Runtime.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rlopt::passes {

class PassRunner;

/// Observation spaces, by CompilerGym's names.
extern const std::vector<std::string> kObservationSpaces;

/// Reward spaces: a metric (IrInstructionCount, ObjectTextSize, Runtime)
/// with a suffix: none = the raw decrease, Norm = divided by the initial
/// value, Oz / O3 = divided by the decrease LLVM's -Oz / -O3 pipeline
/// achieves. Summed over an episode, IrInstructionCountOz is CompilerGym's
/// leaderboard metric (IC0 - IC) / (IC0 - IC_Oz).
extern const std::vector<std::string> kRewardSpaces;

struct PassesEnvConfig {
  std::string observation = "Autophase"; ///< the feature vector agents see
  std::string reward = "IrInstructionCountOz";
  int episodeLength = 45;
  /// A pass that left the module unchanged is masked until another pass
  /// changes it, so agents do not repeat no-ops.
  bool maskUnchangedPasses = true;
  /// A pass already taken from this very module in the episode is masked:
  /// it would lead back to a module the episode has been in, so it changes
  /// nothing or closes a cycle (sink, loop-fusion, sink, ...) in which a
  /// greedy policy would spend the rest of its episode.
  bool maskRevisitingPasses = true;
  /// CPU seconds one pass may run before the step ends with an error.
  double passCpuSeconds = 60;
  RuntimeOptions runtime;

  /// Reads the keys above from a JSON object; unknown keys are an error.
  static Result<PassesEnvConfig> fromJson(const nlohmann::json &json,
                                          const std::string &where);
};

/// How much `validate` checks.
enum class ValidationMode {
  Replay, ///< the actions replayed on a fresh copy give the same IR
  /// Replay, and the optimized program prints what the unoptimized one does;
  /// a program that cannot run is an error.
  Run,
  /// Replay, and the run when the program can run: a program whose run the
  /// benchmark does not describe, and which fails unoptimized, is noted as
  /// not run rather than failed.
  Auto,
};

/// "replay", "run" or "auto" to a mode.
Result<ValidationMode> parseValidationMode(const std::string &text);

/// What `validate` found.
struct Validation {
  bool replayMatches =
      false; ///< the same actions gave the same IR (and reward)
  bool outputChecked = false; ///< the program ran and its output was compared
  bool outputMatches = false;
  std::vector<std::string> errors;
  /// Why the output was not checked, when it was not.
  std::string notChecked;
  /// What was compared, e.g. "replay (IR and reward), output (stdout and
  /// out.txt)".
  std::string checked() const;
  bool ok() const { return errors.empty(); }
  nlohmann::json toJson() const;
};

/// CompilerGym's LLVM environment on LLVM 19: each step runs one
/// new-pass-manager pass in-process on the module.
class PassesEnv : public Env {
public:
  static Result<std::unique_ptr<PassesEnv>>
  create(const PassesEnvConfig &config, const BenchmarkSources &sources);
  ~PassesEnv() override;

  const Spaces &spaces() const override { return envSpaces; }
  Result<Observation> tryReset(const BenchmarkRef &benchmark,
                               uint64_t seed) override;
  StepResult step(const Action &action) override;
  std::unique_ptr<Env> fork() const override;
  /// Runs the pass on a copy and measures it, without the bitcode round
  /// trips a step makes to keep the episode replayable.
  Result<double> probe(const Action &action) const override;

  /// Any observation space by name, as JSON (numbers, vectors or text).
  Result<nlohmann::json> observe(const std::string &space);
  /// The reward metric's value now, initially, and after -Oz / -O3.
  Result<double> metric(const std::string &metricName);
  Result<double> baseline(const std::string &metricName,
                          const std::string &pipeline);

  /// Replays the actions on a fresh copy and checks the result reproduces;
  /// then, as `mode` says, runs the unoptimized and the optimized build and
  /// compares their output (and the benchmark's expected output).
  Validation validate(ValidationMode mode = ValidationMode::Auto);

  const std::vector<int> &actionHistory() const { return history; }
  double episodeReward() const { return totalReward; }
  const std::string &benchmarkUri() const { return current.uri; }
  bool runnable() const { return current.runnable; }
  const PassesEnvConfig &config() const { return cfg; }
  const llvm::Module &module() const { return *current.module; }
  /// Direct access to the module, for tools and tests that edit IR.
  llvm::Module &mutableModule() {
    snapshot.clear();
    return *current.module;
  }

private:
  struct Shared;
  PassesEnv(PassesEnvConfig config, std::shared_ptr<Shared> shared);
  Observation observation();
  std::vector<uint8_t> actionMask() const;
  Result<double> measureMetric(const llvm::Module &module,
                               const std::string &metricName) const;
  Status reloadFromBitcode();
  /// An exact copy of the module in a context of its own: read from the
  /// snapshot when there is one.
  Result<IsolatedModule> copyOfModule() const;

  PassesEnvConfig cfg;
  std::shared_ptr<Shared> shared;
  Spaces envSpaces;
  Benchmark current;
  /// The module's bitcode after the last step, which fork() reads; empty
  /// when the module was edited since.
  std::string snapshot;
  std::vector<int> history;
  /// What each pass did this episode, modules named by their bitcode's
  /// hash; empty of knowledge while the snapshot is.
  TransitionMemory transitions;
  double totalReward = 0;
  double previousMetric = 0;
  double rewardScale = 1;
  bool ended = false;
};

} // namespace rlopt::passes

#endif
