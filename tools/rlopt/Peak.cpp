// rlopt peak [--json]: this machine's single-core FP32 FMA peak.
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
  if (args.has("json")) {
    std::cout << nlohmann::json{{"gflops", peak.gflops},
                                {"isa", peak.isa},
                                {"spread", peak.spread}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("FP32 FMA peak, 1 thread: %.1f GFLOP/s (%s, spread %.1f%%)\n",
                peak.gflops, peak.isa.c_str(), 100 * peak.spread);
  }
  return ExitOk;
}

} // namespace rlopt::tool
