#ifndef RLOPT_MEASURE_PEAK_H
#define RLOPT_MEASURE_PEAK_H

#include <cstddef>
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

struct BandwidthResult {
  double gbps = 0;       ///< median over repeated runs
  double spread = 0;     ///< relative IQR
  size_t arrayBytes = 0; ///< size of each of the three arrays
};

/// STREAM's triad, a[i] = b[i] + s * c[i], on one thread over arrays well
/// beyond the last-level cache: the memory bandwidth a single-threaded
/// memory-bound kernel can reach, counting 12 bytes per float element as
/// STREAM does (write-allocate traffic not counted).
BandwidthResult measureTriadBandwidth();

} // namespace rlopt::measure

#endif
