// Programs as users write them: results written into arguments
// (destination-passing style), several results, padding and slices,
// generics with projected maps. Each one measures correct under the
// heuristic's schedule, and the naive program computes what the text says.
#include "../datagen/RunProgramUtil.h"
#include "FixtureText.h"
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Executor.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Lowering.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace rlopt;
using namespace rlopt::linalg;
using rlopt::datagen::testing::randomTensor;
using rlopt::datagen::testing::runProgram;
using rlopt::datagen::testing::Tensor;
using rlopt::linalg::testing::fixtureText;
using rlopt::linalg::testing::loadFixture;
using rlopt::linalg::testing::quickMeasureOptions;

namespace {

class ProgramFormTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ProgramFormTest, HeuristicScheduleMeasuresCorrect) {
  auto program = loadFixture(GetParam());
  ASSERT_TRUE(program.ok()) << program.error().message;
  for (int threads : {1, 2}) {
    HeuristicOptions heuristic;
    heuristic.threads = threads;
    Schedule schedule = heuristicSchedule(*program, heuristic);
    auto measured =
        measureSchedule(*program, schedule, quickMeasureOptions(threads));
    ASSERT_TRUE(measured.ok()) << measured.error().message;
    EXPECT_TRUE(measured->correct) << "max abs error " << measured->maxAbsError
                                   << " with " << threads << " threads";
    EXPECT_GT(measured->speedup, 0);
  }
}

TEST_P(ProgramFormTest, NaiveProgramMeasuresAgainstItself) {
  auto program = loadFixture(GetParam());
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto measured = measureSchedule(*program, Schedule{}, quickMeasureOptions(1));
  ASSERT_TRUE(measured.ok()) << measured.error().message;
  EXPECT_TRUE(measured->correct);
  EXPECT_EQ(measured->maxAbsError, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, ProgramFormTest,
    ::testing::Values("matmul_into_argument", "add_into_argument",
                      "relu_in_place", "two_results", "conv_padded", "slices",
                      "generic_projected", "transpose_nhwc_to_nchw",
                      "conv_nchw_1x1_into_argument", "conv_nchw_1x1_stride2",
                      "conv_nchw_1x1_stride2_7x7", "conv_nhwc_7x7_deep"));

/// Half-precision programs measure correct where the CPU converts the type
/// in hardware, and are refused with the missing feature named elsewhere.
class HalfPrecisionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HalfPrecisionTest, MeasuresCorrectOrNamesTheMissingFeature) {
  auto program = loadFixture(GetParam());
  if (!program.ok()) {
    EXPECT_NE(program.error().message.find("needs a CPU with "),
              std::string::npos)
        << program.error().message;
    GTEST_SKIP() << program.error().message;
  }
  Schedule schedule = heuristicSchedule(*program);
  ASSERT_FALSE(schedule.empty());
  auto measured = measureSchedule(*program, schedule, quickMeasureOptions(1));
  ASSERT_TRUE(measured.ok()) << measured.error().message;
  EXPECT_TRUE(measured->correct) << "max abs error " << measured->maxAbsError;
  EXPECT_GT(measured->speedup, 0);
}

INSTANTIATE_TEST_SUITE_P(Types, HalfPrecisionTest,
                         ::testing::Values("matmul_f16", "matmul_bf16",
                                           "add_f16"));

TEST(ProgramForms, F16AddComputesInHalfPrecision) {
  auto program = loadFixture("add_f16");
  if (!program.ok())
    GTEST_SKIP() << program.error().message;
  Signature sig = signatureOf(program->entry());
  ASSERT_EQ(sig.inputs[0].element, ElementType::F16);
  EXPECT_EQ(sig.inputs[0].bytes(), 64u * 96 * 2);
  auto lowered = lowerToLLVM(*program->module);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  auto kernel = JitKernel::compile(*program->module, sig);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  HostBuffer a(sig.inputs[0]), b(sig.inputs[1]);
  a.fillRandom(1);
  b.fillRandom(2);
  KernelCall call = prepareCall(sig, *lowered, {&a, &b});
  (*kernel)->run(call.args);
  for (int64_t i = 0; i < 64 * 96; ++i) {
    _Float16 expected = _Float16(a.valueAt(i)) + _Float16(b.valueAt(i));
    ASSERT_EQ(call.results[0]->valueAt(i), double(expected)) << i;
    ASSERT_FALSE(std::isnan(a.valueAt(i))) << i;
  }
  EXPECT_NE(a.valueAt(0), a.valueAt(1)); // random, not constant
}

/// Random inputs of the given element counts.
std::vector<Tensor> randomInputs(const std::vector<size_t> &sizes) {
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < sizes.size(); ++i)
    inputs.push_back(randomTensor(sizes[i], 40 + i));
  return inputs;
}

TEST(ProgramForms, MatmulIntoAnArgumentAccumulatesIntoIt) {
  const int M = 48, K = 32, N = 40;
  std::vector<Tensor> in = randomInputs({M * K, K * N, M * N});
  auto results = runProgram(fixtureText("matmul_into_argument"), in);
  ASSERT_TRUE(results.ok()) << results.error().message;
  ASSERT_EQ(results->size(), 1u);
  const Tensor &c = (*results)[0];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double expected = in[2][i * N + j];
      for (int k = 0; k < K; ++k)
        expected += double(in[0][i * K + k]) * in[1][k * N + j];
      ASSERT_NEAR(c[i * N + j], expected, 1e-4) << i << "," << j;
    }
}

TEST(ProgramForms, InPlaceReluAndReturnedArgument) {
  std::vector<Tensor> in = randomInputs({64 * 80});
  auto relu = runProgram(fixtureText("relu_in_place"), in);
  ASSERT_TRUE(relu.ok()) << relu.error().message;
  for (size_t i = 0; i < in[0].size(); ++i)
    ASSERT_EQ((*relu)[0][i], std::max(in[0][i], 0.0f)) << i;

  in = randomInputs({32 * 24, 24 * 40});
  auto three = runProgram(fixtureText("two_results"), in);
  ASSERT_TRUE(three.ok()) << three.error().message;
  ASSERT_EQ(three->size(), 3u);
  EXPECT_EQ((*three)[2], in[0]); // the argument, returned as it came
  for (size_t i = 0; i < (*three)[0].size(); ++i)
    ASSERT_EQ((*three)[1][i], std::max((*three)[0][i], 0.0f)) << i;
}

TEST(ProgramForms, PaddedConvolutionSeesZerosOutsideTheInput) {
  const int H = 12, W = 12, C = 8, F = 16;
  std::vector<Tensor> in = randomInputs({H * W * C, 3 * 3 * C * F});
  auto results = runProgram(fixtureText("conv_padded"), in);
  ASSERT_TRUE(results.ok()) << results.error().message;
  const Tensor &out = (*results)[0];
  ASSERT_EQ(out.size(), size_t(H * W * F));
  for (int h = 0; h < H; ++h)
    for (int w = 0; w < W; ++w)
      for (int f = 0; f < F; ++f) {
        double expected = 0;
        for (int kh = 0; kh < 3; ++kh)
          for (int kw = 0; kw < 3; ++kw) {
            int y = h + kh - 1, x = w + kw - 1;
            if (y < 0 || y >= H || x < 0 || x >= W)
              continue;
            for (int c = 0; c < C; ++c)
              expected += double(in[0][(y * W + x) * C + c]) *
                          in[1][((kh * 3 + kw) * C + c) * F + f];
          }
        ASSERT_NEAR(out[(h * W + w) * F + f], expected, 1e-4)
            << h << "," << w << "," << f;
      }
}

TEST(ProgramForms, SlicesReadAndWriteTheirWindows) {
  std::vector<Tensor> in = randomInputs({64 * 48, 32 * 48});
  auto results = runProgram(fixtureText("slices"), in);
  ASSERT_TRUE(results.ok()) << results.error().message;
  const Tensor &out = (*results)[0];
  for (int i = 0; i < 32 * 48; ++i) {
    ASSERT_EQ(out[i], in[0][i]) << i;
    ASSERT_EQ(out[32 * 48 + i], in[0][i] + in[1][i]) << i;
  }
}

} // namespace
