// rlopt peak [--json]: this machine's single-core roofline: the FP32 FMA
// peak and the memory bandwidth of STREAM's triad.
#include "Args.h"
#include "Commands.h"

#include "rlopt/measure/Peak.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rlopt::tool {

int runPeak(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("peak: " + *error);
  measure::PeakResult peak = measure::measureFp32Peak();
  measure::BandwidthResult bandwidth = measure::measureTriadBandwidth();
  if (args.has("json")) {
    std::cout << nlohmann::json{{"gflops", peak.gflops},
                                {"isa", peak.isa},
                                {"spread", peak.spread},
                                {"bandwidth_gbps", bandwidth.gbps},
                                {"bandwidth_spread", bandwidth.spread},
                                {"triad_array_bytes", bandwidth.arrayBytes}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("FP32 FMA peak, 1 thread: %.1f GFLOP/s (%s, spread %.1f%%)\n",
                peak.gflops, peak.isa.c_str(), 100 * peak.spread);
    std::printf("memory bandwidth, 1 thread (STREAM triad, 3 x %zu MiB): "
                "%.1f GB/s (spread %.1f%%)\n",
                bandwidth.arrayBytes >> 20, bandwidth.gbps,
                100 * bandwidth.spread);
  }
  return ExitOk;
}

} // namespace rlopt::tool
