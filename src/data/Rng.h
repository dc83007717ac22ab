// The one random source of the suite generators.
#ifndef RLOPT_SRC_DATA_RNG_H
#define RLOPT_SRC_DATA_RNG_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rlopt::data::detail {

/// SplitMix64: tiny, and its output is fixed by the algorithm, unlike the
/// standard library's distributions and std::shuffle, so a seed gives the
/// same suite on every platform.
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n); n > 0.
  uint64_t below(uint64_t n) { return next() % n; }
  template <typename T> void shuffle(std::vector<T> &items) {
    for (size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[next() % i]);
  }

private:
  uint64_t state;
};

} // namespace rlopt::data::detail

#endif
