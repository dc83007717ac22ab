#ifndef RLOPT_CORE_SPACES_H
#define RLOPT_CORE_SPACES_H

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt {

/// One categorical choice among `n` values.
struct Discrete {
  int64_t n = 0;
};

/// Several categorical choices ("heads"), each with its own size.
struct MultiDiscrete {
  std::vector<int64_t> nvec;
  std::vector<std::string> names;
};

/// A real-valued vector observation with per-element bounds.
struct Box {
  std::vector<int64_t> shape;
  float low = 0, high = 0;
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

struct Spaces {
  Box observation;
  MultiDiscrete action;
};

} // namespace rlopt

#endif
