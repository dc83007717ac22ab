#ifndef RLOPT_CORE_ENV_H
#define RLOPT_CORE_ENV_H

#include "rlopt/core/Spaces.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
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
  virtual ~Env() = default;
  virtual const Spaces &spaces() const = 0;
  virtual Observation reset(const BenchmarkRef &benchmark, uint64_t seed) = 0;
  virtual StepResult step(const Action &action) = 0;
  virtual std::unique_ptr<Env> fork() const = 0;
};

} // namespace rlopt

#endif
