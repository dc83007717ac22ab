// A bound on the CPU time of LLVM code run under a CrashRecoveryContext:
// when the thread's CPU clock passes it, the run ends through crash
// recovery, as a crash inside it would.
#ifndef RLOPT_SRC_PASSES_CPUALARM_H
#define RLOPT_SRC_PASSES_CPUALARM_H

#include <ctime>

namespace rlopt::passes {

/// Armed for the lifetime of the object, on the constructing thread. An
/// alarm that goes off outside a recovery context is ignored. The stop waits
/// while the thread is inside the C library or the loader, whose locks
/// (malloc's among them) a jump out of them would leave held.
class CpuAlarm {
public:
  explicit CpuAlarm(double seconds);
  ~CpuAlarm();
  CpuAlarm(const CpuAlarm &) = delete;
  CpuAlarm &operator=(const CpuAlarm &) = delete;

  /// Whether the alarm stopped the run.
  bool fired() const;

private:
  timer_t timer{};
  bool armed = false;
};

} // namespace rlopt::passes

#endif
