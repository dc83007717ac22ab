#ifndef RLOPT_MEASURE_MACHINEINFO_H
#define RLOPT_MEASURE_MACHINEINFO_H

#include <string>

namespace rlopt::measure {

/// What code generation and schedules size themselves by: the widest
/// vector unit and the data caches.
struct CpuTarget {
  int f32Lanes = 4;         ///< FP32 lanes of the widest vector register
  int vectorRegisters = 16; ///< architectural registers of that width
  long l1dBytes = 0;        ///< per core; 0 when the host does not say
  int l1dWays = 0;          ///< its associativity; 0 when the host does not say
  long l2Bytes = 0;         ///< per core; 0 when the host does not say
  long l3Bytes = 0;         ///< shared; 0 when the host does not say
  long pageBytes = 4096;    ///< the memory page (hardware prefetchers
                            ///< and TLB entries stop at its boundary)
};

struct MachineInfo {
  std::string cpuModel;
  std::string isaFlags; ///< the SIMD-relevant flags, space separated
  int logicalCpus = 0;
  CpuTarget target;

  /// Stable identity of the machine for cache keys: CPU model, ISA flags and
  /// the thread count the measurement uses.
  std::string fingerprint(int threads) const;
};

const MachineInfo &hostMachine();

} // namespace rlopt::measure

#endif
