// `rlopt peak`: this machine's roofline, the FP32 FMA peak and the STREAM
// triad bandwidth of one thread.
#include "ToolTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt::tool::testing;

namespace {

TEST(PeakCli, ReportsPeakAndBandwidth) {
  ScratchDir scratch;
  RunResult run = runRlopt({"peak", "--json"}, scratch.path());
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(json.is_object()) << run.out;
  EXPECT_GT(json.value("gflops", 0.0), 0) << run.out;
  // Any DRAM a CPU has streams at more than 0.1 and under 1,000 GB/s from
  // one core.
  double gbps = json.value("bandwidth_gbps", 0.0);
  EXPECT_GT(gbps, 0.1) << run.out;
  EXPECT_LT(gbps, 1000) << run.out;
  EXPECT_GE(json.value("triad_array_bytes", 0.0), 64.0 * (1 << 20))
      << "the arrays must not fit in a cache";

  RunResult text = runRlopt({"peak"}, scratch.path());
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("GFLOP/s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GB/s"), std::string::npos) << text.out;
}

} // namespace
