//===- MachineInfo.cpp - Identity of the measuring machine ----------------===//
//
// Measurements are only comparable on the same CPU with the same vector ISA
// and thread count, so those make up the cache's machine fingerprint.
//
//===----------------------------------------------------------------------===//

#include "rlopt/measure/MachineInfo.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace rlopt::measure {

namespace {

/// The flags that change what vector code a compiler may emit, in the order
/// they appear in fingerprints. x86 names, then AArch64 ones.
constexpr const char *relevantFlags[] = {
    "sse4_2",      "avx",         "avx2",     "fma",
    "avx512f",     "avx512bw",    "avx512vl", "avx512_vnni",
    "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16",
    "amx_int8",    "asimd",       "sve",      "sve2"};

std::string trim(const std::string &s) {
  size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return "";
  size_t end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

MachineInfo detectMachine() {
  MachineInfo info;
  std::set<std::string> flags;
  bool haveFlags = false;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "model name" && info.cpuModel.empty()) {
      info.cpuModel = value;
    } else if ((key == "flags" || key == "Features") && !haveFlags) {
      // Every core lists the same flags; the first one is enough.
      haveFlags = true;
      std::istringstream words(value);
      std::string word;
      while (words >> word)
        flags.insert(word);
    }
  }
  if (info.cpuModel.empty())
    info.cpuModel = "unknown";

  for (const char *flag : relevantFlags) {
    if (!flags.count(flag))
      continue;
    if (!info.isaFlags.empty())
      info.isaFlags += ' ';
    info.isaFlags += flag;
  }

  long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  info.logicalCpus = cpus > 0 ? static_cast<int>(cpus) : 1;
  return info;
}

} // namespace

std::string MachineInfo::fingerprint(int threads) const {
  return cpuModel + "|" + isaFlags + "|threads=" + std::to_string(threads);
}

const MachineInfo &hostMachine() {
  static const MachineInfo info = detectMachine();
  return info;
}

} // namespace rlopt::measure
