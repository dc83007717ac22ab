// How fast this machine does a fixed amount of work, as `rlopt peak`
// reports its FMA peak and memory bandwidth.
#ifndef RLOPT_SRC_MEASURE_RATESAMPLES_H
#define RLOPT_SRC_MEASURE_RATESAMPLES_H

#include "rlopt/measure/Timing.h"

#include <chrono>
#include <vector>

namespace rlopt::measure {

/// The median and spread, over `runs` timed calls of `work`, of `amount`
/// (flops, bytes) per second, in billions.
template <typename Work>
SampleStats billionsPerSecond(int runs, double amount, Work &&work) {
  std::vector<double> rates;
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    work();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    rates.push_back(amount / seconds / 1e9);
  }
  // summarize() names its fields for times; here they hold rates.
  return summarize(rates);
}

} // namespace rlopt::measure

#endif
