#ifndef RLOPT_PYTHON_ENVMAKER_H
#define RLOPT_PYTHON_ENVMAKER_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace rlopt::python {

/// The environments the module offers, by Gymnasium id.
enum class EnvKind { Linalg, Llvm, Graph };

/// "linalg-v0", "llvm-v0" or "graph-v0" (an "rlopt/" prefix is accepted).
Result<EnvKind> parseEnvId(const std::string &id);
const char *envIdOf(EnvKind kind);

/// An environment built from `make`'s options, and the programs its
/// episodes draw from when reset is not given one.
struct MadeEnv {
  EnvKind kind;
  std::unique_ptr<Env> env;
  std::vector<std::string> benchmarks;
};

/// Builds an environment. `options` holds `benchmark` (one URI for every
/// episode) or `suite` and `split` (the programs episodes draw from), and
/// otherwise the keys of the environment's JSON config; an unknown key or a
/// wrong type is an error naming it.
Result<MadeEnv> makeEnv(EnvKind kind, nlohmann::json options);

/// The URIs of a suite's split: for linalg a suite under data/suites or a
/// suite directory, for llvm "rlopt-v0" or an installed dataset (a list
/// "A,B:all" too), for graph the bundled graphs; split is train, validation
/// (linalg), test or all.
Result<std::vector<std::string>> listBenchmarks(EnvKind kind,
                                                const std::string &suite,
                                                const std::string &split);

/// Checks the episode so far: llvm replays it (and runs the program when it
/// can), graph compares the result with the original on the interpreter,
/// linalg measures the schedule against the naive program. The report says
/// what was checked and "ok".
Result<nlohmann::json> validateEpisode(EnvKind kind, Env &env);

/// What the episode so far is: its benchmark and actions, and the schedule
/// (linalg).
nlohmann::json describeEpisode(EnvKind kind, const Env &env);

} // namespace rlopt::python

#endif
