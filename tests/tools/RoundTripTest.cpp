// `rlopt apply --emit-transform T` writes the transform-dialect script that
// reproduces its output: mlir-opt-19 with T as the preloaded library and the
// transform interpreter prints the same IR as `rlopt apply -o OUT`.
#include "ToolTestUtil.h"

#include <gtest/gtest.h>

using namespace rlopt::tool::testing;

namespace {

struct RoundTripCase {
  std::string name, fixture, schedule;
};

/// Both tools end the module with a newline; mlir-opt adds one more.
std::string withoutTrailingNewlines(std::string text) {
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

std::ostream &operator<<(std::ostream &os, const RoundTripCase &c) {
  return os << c.fixture << " '" << c.schedule << "'";
}

class RoundTripTest : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(RoundTripTest, MlirOptReproducesTheOutput) {
  const RoundTripCase &c = GetParam();
  ScratchDir scratch;
  std::string input = fixturePath(c.fixture);
  std::string out = (scratch / "out.mlir").string();
  std::string transform = (scratch / "transform.mlir").string();

  RunResult apply = runRlopt({"apply", input, "--schedule", c.schedule, "-o",
                              out, "--emit-transform", transform},
                             scratch.path());
  ASSERT_EQ(apply.exitCode, 0) << apply.err;
  EXPECT_EQ(apply.err, "");
  EXPECT_EQ(apply.out, "") << "with -o, the IR goes to the file";
  std::string ours = readFile(out);
  std::string script = readFile(transform);
  ASSERT_FALSE(ours.empty());
  EXPECT_NE(script.find("@__transform_main"), std::string::npos) << script;
  EXPECT_NE(ours, readFile(input));

  RunResult opt = runCommand(
      "mlir-opt-19",
      {input,
       "--transform-preload-library=transform-library-paths=" + transform,
       "--transform-interpreter"},
      scratch.path());
  ASSERT_EQ(opt.exitCode, 0) << opt.err;
  EXPECT_EQ(withoutTrailingNewlines(opt.out), withoutTrailingNewlines(ours));

  // Without -o the same IR goes to stdout.
  RunResult toStdout =
      runRlopt({"apply", input, "--schedule", c.schedule}, scratch.path());
  ASSERT_EQ(toStdout.exitCode, 0) << toStdout.err;
  EXPECT_EQ(toStdout.out, ours);
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, RoundTripTest,
    ::testing::Values(
        RoundTripCase{"matmul_tile_vectorize_masked", "matmul",
                      "op1: tile(24,16,8) vectorize"},
        RoundTripCase{"matmul_interchange_parallelize", "matmul",
                      "op1: interchange(0,2,1) parallelize(16,0,8)"},
        RoundTripCase{"chain_fuse_vectorize", "chain",
                      "op3: fuse(16,16); op2: vectorize; op1: stop"},
        RoundTripCase{"chain_fuse_matmul", "chain",
                      "op2: fuse(16,32); op1: tile(0,0,8) vectorize"},
        RoundTripCase{"conv_img2col", "conv_nhwc", "op1: img2col"},
        RoundTripCase{"conv_img2col_tile_vectorize", "conv_nchw",
                      "op1: img2col tile(1,8,16,8) vectorize"},
        RoundTripCase{"conv_decompose_vectorize", "conv_nhwc",
                      "op1: tile(1,1,8,16,1,3,8) vectorize"}),
    [](const ::testing::TestParamInfo<RoundTripCase> &info) {
      return info.param.name;
    });

} // namespace
