// Random draws for exploration, from the iteration's RNG; written out
// rather than taken from <random>'s distributions, whose results differ
// between standard libraries.
#ifndef RLOPT_SRC_AGENT_DISCRETE_EXPLORATION_H
#define RLOPT_SRC_AGENT_DISCRETE_EXPLORATION_H

#include <cstdint>
#include <random>
#include <vector>

namespace rlopt::agent::discrete {

/// Uniform in [0, 1).
inline double uniform01(std::mt19937_64 &rng) {
  return (rng() >> 11) * 0x1.0p-53;
}

/// One of the allowed actions, uniformly; `allowed` allows at least one.
inline int64_t randomAllowedAction(const std::vector<uint8_t> &allowed,
                                   std::mt19937_64 &rng) {
  std::vector<int64_t> choices;
  for (size_t a = 0; a < allowed.size(); ++a)
    if (allowed[a])
      choices.push_back(a);
  return choices[rng() % choices.size()];
}

} // namespace rlopt::agent::discrete

#endif
