#ifndef RLOPT_MEASURE_MACHINEINFO_H
#define RLOPT_MEASURE_MACHINEINFO_H

#include <string>

namespace rlopt::measure {

struct MachineInfo {
  std::string cpuModel;
  std::string isaFlags; ///< the SIMD-relevant flags, space separated
  int logicalCpus = 0;

  /// Stable identity of the machine for cache keys: CPU model, ISA flags and
  /// the thread count the measurement uses.
  std::string fingerprint(int threads) const;
};

const MachineInfo &hostMachine();

} // namespace rlopt::measure

#endif
