#ifndef RLOPT_EVAL_AGENTSPEC_H
#define RLOPT_EVAL_AGENTSPEC_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::eval {

/// The agents one evaluation offers besides random search and policies.
struct AgentChoices {
  std::vector<std::string> fixed; ///< e.g. naive, heuristic; Oz, O3, greedy
  bool timed = false;             ///< whether random-time:S is offered
  bool guided = false;            ///< whether guided:K:PATH is offered
  bool searched = false;          ///< whether search:N is offered
};

/// What `--agent` names, in one grammar for the three evaluations:
///   NAME           a fixed agent of the environment (naive, heuristic, Oz,
///                  greedy, ...)
///   random:N       the best of N episodes of masked random search
///   random-time:S  random search for S seconds (pass ordering only)
///   policy:PATH    a trained policy, run greedily
///   guided:K:PATH  guided search (pass ordering, graphs): the policy's
///                  greedy episode and K-1 episodes sampled from it; the
///                  best kept
///   guided-time:S:PATH  the same, sampling until S seconds have passed
///   search:N       cost-model-guided search (Linalg): N schedules measured
///   search:N:PATH  the same, with the policy's proposals in the population
struct AgentSpec {
  enum class Kind {
    Fixed,
    Random,
    RandomTime,
    Policy,
    Search
  } kind = Kind::Fixed;
  std::string fixed = "naive"; ///< Kind::Fixed
  /// Kind::Random: episodes of random search; Kind::Policy: episodes of the
  /// policy (1: greedy only); Kind::Search: schedules measured.
  int64_t episodes = 0;
  /// Kind::RandomTime; Kind::Policy: guided search's time budget (0: by
  /// episodes).
  double seconds = 0;
  /// Kind::Policy; Kind::Search: the policy proposing schedules, if any.
  std::string policyPath;

  /// The spec as it is written on the command line.
  std::string name() const;
  bool is(const std::string &name) const {
    return kind == Kind::Fixed && fixed == name;
  }
  /// Parses `text`; an agent `choices` does not offer is an error listing
  /// those it does.
  static Result<AgentSpec> parse(const std::string &text,
                                 const AgentChoices &choices);
  /// The Linalg evaluation's choices: naive, heuristic, random:N, search:N,
  /// policy.
  static Result<AgentSpec> parse(const std::string &text);
};

/// PATH of `policy:PATH` or `guided:K:PATH`, or empty when `text` names no
/// policy.
std::string policyPathOf(const std::string &text);

} // namespace rlopt::eval

#endif
