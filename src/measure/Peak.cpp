#include "rlopt/measure/Peak.h"

#include "RateSamples.h"

#include <immintrin.h>

#include <chrono>

namespace rlopt::measure {

namespace {
constexpr int kChains = 12; // > FMA latency x ports, so the units stay busy
constexpr long kIterations = 20'000'000;
} // namespace

__attribute__((target("avx2,fma"))) static float fmaLoopAvx2(long iterations) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm256_set1_ps(0.001f * c);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm256_fmadd_ps(acc[c], a, b);
  __m256 sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm256_add_ps(sum, acc[c]);
  float out[8];
  _mm256_storeu_ps(out, sum);
  return out[0];
}

__attribute__((target("avx512f"))) static float fmaLoopAvx512(long iterations) {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm512_set1_ps(0.001f * c);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm512_fmadd_ps(acc[c], a, b);
  __m512 sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm512_add_ps(sum, acc[c]);
  float out[16];
  _mm512_storeu_ps(out, sum);
  return out[0];
}

PeakResult measureFp32Peak() {
  PeakResult result;
  int lanes = 0;
  float (*loop)(long) = nullptr;
  if (__builtin_cpu_supports("avx512f")) {
    result.isa = "avx512f";
    lanes = 16;
    loop = fmaLoopAvx512;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    result.isa = "avx2+fma";
    lanes = 8;
    loop = fmaLoopAvx2;
  } else {
    result.isa = "scalar";
    return result;
  }
  volatile float sink = loop(kIterations / 100); // warm-up
  SampleStats stats = billionsPerSecond(7, 2.0 * lanes * kChains * kIterations,
                                        [&] { sink = loop(kIterations); });
  (void)sink;
  result.gflops = stats.medianMs; // the median GFLOP/s
  result.spread = stats.spread;
  return result;
}

} // namespace rlopt::measure
