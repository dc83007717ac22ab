#include "CpuAlarm.h"

#include "llvm/Support/CrashRecoveryContext.h"

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <link.h>
#include <mutex>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace rlopt::passes {

namespace {

/// Code whose locks a jump out of it would leave held: the C library's
/// and the loader's executable segments, found once before any alarm.
struct CodeRange {
  uintptr_t begin = 0, end = 0;
};
CodeRange lockingCode[8];
int lockingCodeCount = 0;

int findLockingCode(dl_phdr_info *info, size_t, void *) {
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  if (!std::strstr(name, "libc.so") && !std::strstr(name, "ld-linux"))
    return 0;
  for (int i = 0; i < info->dlpi_phnum && lockingCodeCount < 8; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X)) {
      uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
      lockingCode[lockingCodeCount++] = {begin, begin + segment.p_memsz};
    }
  }
  return 0;
}

/// Where the interrupted thread was; 0 where the platform is not known.
uintptr_t interruptedAt(void *context) {
#if defined(__x86_64__)
  return static_cast<uintptr_t>(
      static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(
      static_cast<ucontext_t *>(context)->uc_mcontext.pc);
#else
  (void)context;
  return 0;
#endif
}

bool inLockingCode(uintptr_t address) {
  for (int i = 0; i < lockingCodeCount; ++i)
    if (address >= lockingCode[i].begin && address < lockingCode[i].end)
      return true;
  return false;
}

thread_local volatile sig_atomic_t stopped = 0;
thread_local timer_t *currentTimer = nullptr;

void arm(timer_t timer, double seconds) {
  itimerspec when = {};
  double whole = std::floor(seconds);
  when.it_value.tv_sec = static_cast<time_t>(whole);
  when.it_value.tv_nsec = static_cast<long>((seconds - whole) * 1e9);
  if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0)
    when.it_value.tv_nsec = 1;
  timer_settime(timer, 0, &when, nullptr);
}

void onAlarm(int, siginfo_t *, void *context) {
  auto *recovery = llvm::CrashRecoveryContext::GetCurrent();
  if (!recovery || !currentTimer)
    return;
  if (inLockingCode(interruptedAt(context))) {
    arm(*currentTimer, 1e-3); // try again once the thread has left it
    return;
  }
  stopped = 1;
  recovery->HandleExit(1);
}

int alarmSignal() { return SIGRTMIN + 3; }

} // namespace

CpuAlarm::CpuAlarm(double seconds) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    dl_iterate_phdr(findLockingCode, nullptr);
    struct sigaction action = {};
    action.sa_sigaction = onAlarm;
    // The handler leaves by longjmp, which would otherwise leave the signal
    // blocked for every later run.
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(alarmSignal(), &action, nullptr);
  });
  stopped = 0;
  sigevent event = {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = alarmSignal();
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0)
    return;
  armed = true;
  currentTimer = &timer;
  arm(timer, seconds);
}

CpuAlarm::~CpuAlarm() {
  if (!armed)
    return;
  currentTimer = nullptr;
  timer_delete(timer);
}

bool CpuAlarm::fired() const { return stopped != 0; }

} // namespace rlopt::passes
