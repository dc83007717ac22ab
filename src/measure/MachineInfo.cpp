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

/// The widest FP32 vector unit the flags allow: AVX-512 has 32 registers
/// of 16 lanes, AVX and AVX2 16 of 8, AArch64's Advanced SIMD 32 of 4 and
/// SSE 16 of 4.
CpuTarget vectorUnitOf(const std::set<std::string> &flags) {
  CpuTarget target;
  if (flags.count("avx512f"))
    target.f32Lanes = 16, target.vectorRegisters = 32;
  else if (flags.count("avx2") || flags.count("avx"))
    target.f32Lanes = 8, target.vectorRegisters = 16;
  else if (flags.count("asimd"))
    target.f32Lanes = 4, target.vectorRegisters = 32;
  return target;
}

/// A cache size from sysfs ("48K", "1024K", "32M"), or 0.
long readCacheSize(const std::string &path) {
  std::ifstream in(path);
  long value = 0;
  char unit = 0;
  if (!(in >> value))
    return 0;
  in >> unit;
  return unit == 'K' ? value << 10 : unit == 'M' ? value << 20 : value;
}

/// Data cache sizes of CPU 0 from sysfs (x86 and AArch64 alike), else from
/// glibc's sysconf.
void readCaches(CpuTarget &target) {
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int index = 0; index < 8; ++index) {
    std::ifstream levelFile(dir + std::to_string(index) + "/level");
    std::ifstream typeFile(dir + std::to_string(index) + "/type");
    int level = 0;
    std::string type;
    if (!(levelFile >> level) || !(typeFile >> type) || type == "Instruction")
      continue;
    long bytes = readCacheSize(dir + std::to_string(index) + "/size");
    if (level == 1) {
      std::ifstream waysFile(dir + std::to_string(index) +
                             "/ways_of_associativity");
      waysFile >> target.l1dWays;
    }
    (level == 1   ? target.l1dBytes
     : level == 2 ? target.l2Bytes
                  : target.l3Bytes) = bytes;
  }
  auto fallback = [](auto &value, int name) {
    if (value <= 0)
      value = std::max(0L, ::sysconf(name));
  };
  fallback(target.l1dBytes, _SC_LEVEL1_DCACHE_SIZE);
  fallback(target.l2Bytes, _SC_LEVEL2_CACHE_SIZE);
  fallback(target.l3Bytes, _SC_LEVEL3_CACHE_SIZE);
  fallback(target.l1dWays, _SC_LEVEL1_DCACHE_ASSOC);
  if (long page = ::sysconf(_SC_PAGESIZE); page > 0)
    target.pageBytes = page;
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

  info.target = vectorUnitOf(flags);
  readCaches(info.target);

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
