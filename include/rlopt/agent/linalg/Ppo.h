#ifndef RLOPT_AGENT_LINALG_PPO_H
#define RLOPT_AGENT_LINALG_PPO_H

#include "rlopt/agent/TrainingRun.h"
#include "rlopt/agent/linalg/Imitation.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/linalg/EnvConfig.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace rlopt::agent {

/// Every PPO hyperparameter, named once, with the MLIR RL paper's value.
struct PpoConfig {
  double learningRate = 1e-3; ///< Adam
  double gamma = 1.0;         ///< whole programs, final log-speedup reward
  double gaeLambda = 0.95;
  double clip = 0.2;
  double valueCoef = 0.5;
  double entropyCoef = 0.01;
  double maxGradNorm = 0.5;
  int epochs = 4;
  int minibatches = 4;
  int programsPerIteration = 64; ///< episodes per iteration
  int iterations = 100;
  int workers = 2;         ///< environment processes (default: cores)
  int checkpointEvery = 1; ///< iterations between checkpoints
  /// A distributed run (mpirun) stops, with a checkpoint, when a rank
  /// sends nothing for this long.
  double rankTimeoutSeconds = 3600;
  int evalEvery = 5;    ///< iterations between validation runs; 0 = never
  int evalPrograms = 8; ///< validation programs per evaluation
  uint64_t seed = 0;
  /// Epochs of behaviour cloning from a teacher's schedules of the training
  /// programs before the first iteration; 0 = none (the paper).
  int imitationEpochs = 0;
  /// Behaviour cloning takes many small steps: its own rate and minibatch
  /// size, so PPO can fine-tune the cloned policy with a gentler rate.
  double imitationLearningRate = 1e-3;
  int imitationMinibatchSize = 64; ///< demonstrated steps per update
  /// Cloning's entropy bonus. A teacher is deterministic, so 0 fits it
  /// best; PPO afterwards uses `entropyCoef`.
  double imitationEntropyCoef = 0.01;
  /// The teacher cloned: 0 = the heuristic; N > 0 = for each program, the
  /// fastest of N schedules the cost model's search measures (the search
  /// step of expert iteration; at least as fast as the heuristic).
  int imitationSearchBudget = 0;
  /// The cost model that orders the search's candidates: a file, or "none"
  /// (or empty) for random order. `rlopt train` puts the shipped model's
  /// path here when the config leaves it empty.
  std::string imitationCostModel;
  /// A run's demonstrations.jsonl to clone instead of asking the teacher
  /// again: the same demonstrations, without measuring them again.
  std::string imitationDemonstrations;
  /// A cost model trained with the regression objective: iterations not
  /// measured take their final rewards from its estimate of the log
  /// speedup (rlopt costmodel train --objective regression). Empty: every
  /// iteration is measured (the paper).
  std::string rewardModel;
  /// With `rewardModel`, iteration i is measured when i is a multiple of
  /// this and predicted otherwise; validation is always measured.
  int measuredEvery = 1;
  /// After each measured iteration, fit the reward model again to the
  /// measurement cache, which now holds that iteration's episodes.
  bool refitRewardModel = true;
  PolicyConfig policy;
  linalg::EnvConfig env;

  nlohmann::json toJson() const;
  static Result<PpoConfig> fromJson(const nlohmann::json &json,
                                    const std::string &where);
  static Result<PpoConfig> load(const std::string &path);
};

struct TrainOptions {
  std::string runDir;
  bool resume = false;
  std::vector<std::string> trainPrograms, validationPrograms;
  /// Set from a signal handler: checkpoint and stop after the current
  /// episode batch.
  const std::atomic<bool> *stopRequested = nullptr;
  /// Called once behaviour cloning (imitationEpochs > 0) has finished.
  std::function<void(const ImitationReport &)> onImitation;
};

/// PPO (Schulman et al. 2017) as CleanRL writes it, over whole-program
/// rollouts from `workers` environment processes, into the run directory
/// of every trainer (agent/TrainingRun.h): config.json, metrics.jsonl,
/// episodes.jsonl (program, schedule and speedup of every episode),
/// checkpoint.pt (the policy, naming its iteration) + optimizer.pt, and
/// policy.pt at the end; imitation.json and demonstrations.jsonl when it
/// clones a teacher first.
/// `resume` continues from the last checkpoint.
Status
trainPpo(const PpoConfig &config, const TrainOptions &options,
         const std::function<void(const IterationMetrics &)> &onIteration);

} // namespace rlopt::agent

#endif
