#ifndef RLOPT_AGENT_LINALG_IMITATION_H
#define RLOPT_AGENT_LINALG_IMITATION_H

#include "rlopt/agent/linalg/LinalgPolicy.h"
#include "rlopt/linalg/Demonstration.h"
#include "rlopt/linalg/EnvConfig.h"

#include <torch/torch.h>

#include <atomic>
#include <string>
#include <vector>

namespace rlopt::agent {

/// Whose schedules behaviour cloning learns.
struct Teacher {
  /// 0: the heuristic's. N > 0: the fastest of N schedules measured by the
  /// cost model's search (costmodel/ScheduleSearch.h), with the
  /// environment's opt-in transformations so its actions can replay them.
  int searchBudget = 0;
  std::string costModelPath; ///< empty or "none": candidates in random order
  uint64_t seed = 0;         ///< the search's, plus the program's index
  /// Non-empty: replay schedules[i] on program i instead (a saved run's
  /// schedules, demonstrated again under another feature layout).
  std::vector<std::string> schedules;
};

/// The teacher's demonstration of every program in `programs`, in that
/// order, collected by up to `workers` forked processes. Fork before LibTorch
/// starts its threads. A program that cannot be demonstrated (it does not
/// load, its schedule fails) gets a demonstration with an `error`; a worker
/// that crashes, a cost model that does not load, or `stopRequested` ends the
/// collection with an error.
Result<std::vector<linalg::Demonstration>>
collectDemonstrations(const linalg::EnvConfig &env,
                      const std::vector<std::string> &programs, int workers,
                      const Teacher &teacher = {},
                      const std::atomic<bool> *stopRequested = nullptr);

/// Demonstrations as JSON lines, each with its "program": `demos[i]` is
/// the demonstration of `programs[i]`.
std::string
demonstrationsToJsonLines(const std::vector<std::string> &programs,
                          const std::vector<linalg::Demonstration> &demos);

/// A run's saved demonstrations (demonstrations.jsonl).
struct SavedDemonstrations {
  std::vector<std::string> programs; ///< programs[i] is demos[i]'s
  std::vector<linalg::Demonstration> demos;
  /// Observed under another feature layout: the actions fit, but the
  /// observations must be made again by replaying each demo's schedule.
  bool otherFeatures = false;
};

/// The demonstrations a run saved, so that another run can learn from them
/// without measuring again. Each must fit `env`'s action heads, and all
/// observations have one size; anything else is a one-line error naming the
/// file and line.
Result<SavedDemonstrations> loadDemonstrations(const std::string &path,
                                               const Spaces &env);

/// Makes `teacher` replay the schedules of `saved`'s correct
/// demonstrations, to observe them under the environment's feature layout;
/// returns their programs, in the order of `teacher.schedules`.
std::vector<std::string> replaySchedules(const SavedDemonstrations &saved,
                                         Teacher &teacher);

struct ImitationOptions {
  int epochs = 20;
  int minibatchSize = 64; ///< demonstrated steps per update
  double gamma = 1.0;
  double valueCoef = 0.5;
  double entropyCoef = 0.01;
  double maxGradNorm = 0.5;
  /// Checked between epochs: when set, learning ends early.
  const std::atomic<bool> *stopRequested = nullptr;
};

/// What behaviour cloning did (imitation.json of a training run).
struct ImitationReport {
  int demonstrations = 0; ///< measured, correct ones learned from
  int skipped = 0;        ///< failed or wrong ones, left out
  int steps = 0;
  double demonstrationGeomean = 0; ///< the demonstrations' speedup
  /// Mean probability the policy gives the demonstrated actions, after.
  double actionProbability = 0;
  double valueLoss = 0;
  double collectSeconds = 0, learnSeconds = 0;
  bool stopped = false; ///< learning ended early on `stopRequested`
  nlohmann::json toJson() const;
};

/// Behaviour cloning before PPO: `epochs` passes of minibatch updates in
/// which the actor maximizes the log-probability of the demonstrated
/// actions (with the PPO entropy bonus) and the critic regresses the
/// demonstrations' returns, so PPO starts from the heuristic and its value.
ImitationReport imitate(LinalgPolicy &policy,
                        torch::optim::Optimizer &optimizer,
                        const std::vector<linalg::Demonstration> &demos,
                        const ImitationOptions &options);

} // namespace rlopt::agent

#endif
