#ifndef RLOPT_MEASURE_PEAK_H
#define RLOPT_MEASURE_PEAK_H

#include <string>

namespace rlopt::measure {

struct PeakResult {
  double gflops = 0; ///< median over repeated runs
  double spread = 0; ///< relative IQR
  std::string isa;   ///< "avx512f", "avx2+fma" or "scalar"
};

/// Runs independent FMA chains (enough to hide FMA latency) on one thread
/// and reports the median FP32 GFLOP/s.
PeakResult measureFp32Peak();

} // namespace rlopt::measure

#endif
