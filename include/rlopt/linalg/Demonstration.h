#ifndef RLOPT_LINALG_DEMONSTRATION_H
#define RLOPT_LINALG_DEMONSTRATION_H

#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Schedule.h"
#include "rlopt/measure/MachineInfo.h"

#include <functional>
#include <string>
#include <vector>

namespace rlopt::linalg {

/// One episode of the environment driven by a schedule instead of a policy:
/// the observations an agent would have seen and the actions that replay
/// the schedule. Imitation learning learns from these.
struct Demonstration {
  std::vector<Observation> observations; ///< before each action
  std::vector<Action> actions;
  std::vector<double> rewards; ///< after each action
  std::string schedule;        ///< what the environment applied
  double speedup = 0;          ///< measured at the end; 0 when it failed
  std::string error;           ///< why the measured episode failed, if it did

  nlohmann::json toJson() const;
  static Demonstration fromJson(const nlohmann::json &json);
};

/// The actions that apply `step` to the op `env` is scheduling: one, or one
/// per placed level for a level-pointer interchange. A tile size of the
/// whole loop stays its size if that is a candidate, else becomes 0, as does
/// a larger size; others round down to the largest candidate that
/// fits, and that divides the loop when the size did. Empty when the action
/// space cannot express the step (an unknown name, a permutation of another
/// length, an interchange that is not one swap in the enumerated mode) or
/// `obs` masks its first action.
std::vector<Action> actionsForStep(const LinalgEnv &env, const Observation &obs,
                                   const TransformStep &step);

/// The schedule to demonstrate on a program, e.g. the heuristic's or the
/// winner of a search.
using ScheduleFor = std::function<Result<Schedule>(const Program &)>;

/// Resets `env` on `benchmark` and replays `scheduleFor`'s schedule of its
/// program through the action space, ending every op with `stop` unless its
/// schedule ends it. Steps the actions cannot express are left out, and tile
/// sizes round to candidates, so `schedule` can differ from the one asked
/// for.
Result<Demonstration> demonstrateSchedule(LinalgEnv &env,
                                          const BenchmarkRef &benchmark,
                                          const ScheduleFor &scheduleFor);

/// demonstrateSchedule of the heuristic schedule (linalg/Heuristic.h), with
/// the environment's opt-in transformations and tiles sized for `target`.
Result<Demonstration> demonstrateHeuristic(
    LinalgEnv &env, const BenchmarkRef &benchmark,
    const measure::CpuTarget &target = measure::hostMachine().target);

} // namespace rlopt::linalg

#endif
