#ifndef RLOPT_CORE_ENV_H
#define RLOPT_CORE_ENV_H

#include "rlopt/core/Result.h"
#include "rlopt/core/Spaces.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rlopt {

/// What an agent sees: a flat feature vector plus one mask per action head
/// (1 = the value may be chosen). Agents never see MLIR or LLVM objects.
struct Observation {
  std::vector<float> features;
  std::vector<std::vector<uint8_t>> masks;
};

/// One value per action head of the environment's MultiDiscrete space.
struct Action {
  std::vector<int64_t> values;
};

using Info = nlohmann::json;

struct StepResult {
  Observation obs;
  double reward = 0;
  bool terminated = false;
  bool truncated = false;
  Info info;
};

/// A benchmark named by URI (CompilerGym style), e.g. `file:///a/b.mlir`.
struct BenchmarkRef {
  std::string uri;
};

/// Gymnasium's contract in C++. `step` never throws on a bad action: the
/// error is reported in `info["error"]` and the episode ends.
class Env {
public:
  /// What every environment says when a call needs an episode and none is
  /// running, after the name of the call: "metric: no episode; call reset".
  static constexpr const char *kNoEpisode = "no episode; call reset";

  virtual ~Env() = default;
  virtual const Spaces &spaces() const = 0;
  /// Starts an episode on `benchmark`; one that cannot be loaded is an
  /// Error naming it.
  virtual Result<Observation> tryReset(const BenchmarkRef &benchmark,
                                       uint64_t seed) = 0;
  /// tryReset() for callers that only handle observations: on an error the
  /// observation is empty and lastError() says why.
  Observation reset(const BenchmarkRef &benchmark, uint64_t seed);
  /// Why the last reset() failed; empty after one that succeeded.
  const std::optional<Error> &lastError() const { return resetError; }
  virtual StepResult step(const Action &action) = 0;
  virtual std::unique_ptr<Env> fork() const = 0;
  /// The reward `step(action)` would give, leaving this episode as it is:
  /// what greedy search asks of every action. An action that would fail is
  /// an Error. The default steps a fork; an environment may answer faster,
  /// but always with the very reward the step would give.
  virtual Result<double> probe(const Action &action) const;
  /// Why `action` does not fit the action space (wrong number of values, a
  /// value out of range); nullopt when it fits.
  static std::optional<std::string> whyOutsideSpace(const Action &action,
                                                    const MultiDiscrete &space);

protected:
  /// What every environment says when step() is called with no episode
  /// running (before reset, after the end, after a failed reset).
  static constexpr const char *kStepOutsideEpisode =
      "step outside an episode; call reset";
  /// The result of a step that cannot be taken: the episode ends and
  /// `info["error"]` says why.
  static StepResult endWithError(const std::string &message);
  /// The same, keeping `obs`: the state the refused step left unchanged.
  static StepResult endWithError(const std::string &message, Observation obs);

  std::optional<Error> resetError;
};

} // namespace rlopt

#endif
