#include "rlopt/measure/Peak.h"

#include "RateSamples.h"
#include "rlopt/measure/MachineInfo.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace rlopt::measure {

namespace {

/// Each array is twice the last-level cache (read from the host, 32 MiB
/// when it does not say), so every pass streams from memory; at least
/// 64 MiB, and at most 512 MiB, since some hosts report the L3 of a whole
/// package of chiplets, hundreds of MiB, of which one core reaches a part.
size_t triadArrayBytes() {
  const CpuTarget &target = hostMachine().target;
  long cache = target.l3Bytes > 0 ? target.l3Bytes : target.l2Bytes;
  if (cache <= 0)
    cache = 32L << 20;
  return std::clamp<size_t>(2 * static_cast<size_t>(cache), 64UL << 20,
                            512UL << 20);
}

// Not inlined into the timing loop, so the compiler cannot see that the
// passes repeat and drop them.
__attribute__((noinline)) void triad(float *__restrict a,
                                     const float *__restrict b,
                                     const float *__restrict c, float scalar,
                                     size_t n) {
  for (size_t i = 0; i < n; ++i)
    a[i] = b[i] + scalar * c[i];
}

} // namespace

BandwidthResult measureTriadBandwidth() {
  BandwidthResult result;
  result.arrayBytes = triadArrayBytes();
  size_t n = result.arrayBytes / sizeof(float);
  // Written before timing, so page faults are not measured.
  std::vector<float> a(n, 0.0f), b(n, 1.0f), c(n, 2.0f);
  triad(a.data(), b.data(), c.data(), 3.0f, n); // warm-up
  SampleStats stats = billionsPerSecond(7, 3.0 * n * sizeof(float), [&] {
    triad(a.data(), b.data(), c.data(), 3.0f, n);
  });
  // The result is used, so the passes cannot be dropped either.
  volatile float sink = a[n / 2];
  (void)sink;
  result.gbps = stats.medianMs; // the median GB/s
  result.spread = stats.spread;
  return result;
}

} // namespace rlopt::measure
