#include "rlopt/measure/MachineInfo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace rlopt::measure;

namespace {

TEST(MachineInfoTest, FingerprintNamesModelFlagsAndThreads) {
  MachineInfo info;
  info.cpuModel = "Some CPU @ 3.00GHz";
  info.isaFlags = "avx avx2 fma";
  info.logicalCpus = 16;
  EXPECT_EQ(info.fingerprint(4), "Some CPU @ 3.00GHz|avx avx2 fma|threads=4");
  EXPECT_NE(info.fingerprint(1), info.fingerprint(4));
}

TEST(MachineInfoTest, HostMachineIsDetected) {
  const MachineInfo &host = hostMachine();
  EXPECT_FALSE(host.cpuModel.empty());
  EXPECT_EQ(host.logicalCpus, sysconf(_SC_NPROCESSORS_ONLN));
  // Only the known SIMD flags, each once.
  std::istringstream words(host.isaFlags);
  std::string word;
  std::vector<std::string> seen;
  while (words >> word) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), word), 0) << word;
    seen.push_back(word);
    EXPECT_TRUE(word.rfind("sse", 0) == 0 || word.rfind("avx", 0) == 0 ||
                word == "fma" || word.rfind("amx", 0) == 0 || word == "asimd" ||
                word.rfind("sve", 0) == 0)
        << word;
  }
  EXPECT_EQ(&host, &hostMachine());
}

} // namespace
