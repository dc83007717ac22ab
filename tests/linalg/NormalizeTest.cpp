// 1 x 1 NCHW convolutions read as matmuls: which ones are rewritten, what
// they become, and that they compute what the convolution computes.
#include "../datagen/RunProgramUtil.h"
#include "FixtureText.h"
#include "LinalgTestUtil.h"
#include "rlopt/linalg/Lowering.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace rlopt;
using namespace rlopt::linalg;
using rlopt::linalg::testing::fixtureText;
using rlopt::linalg::testing::loadFixture;
using rlopt::linalg::testing::printed;

namespace {

LoadOptions asWritten() {
  LoadOptions options;
  options.pointwiseConvolutionsAsMatmuls = false;
  return options;
}

LoadOptions asMatmuls() {
  LoadOptions options;
  options.pointwiseConvolutionsAsMatmuls = true;
  return options;
}

TEST(Normalize, PointwiseNchwConvolutionBecomesAMatmulOverPixels) {
  // 1x16x4x32 by 24x16x1x1: pixels 4 x 32 = 128 in one loop.
  auto program = loadFixture("conv_nchw_1x1_rows32", asMatmuls());
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->ops.size(), 2u);
  EXPECT_EQ(program->ops[0].opClass, OpClass::Fill);
  EXPECT_EQ(program->ops[1].kind, "linalg.generic");
  EXPECT_EQ(program->ops[1].opClass, OpClass::Matmul);
  EXPECT_EQ(program->ops[1].loopRanges, (std::vector<int64_t>{1, 24, 128, 16}));
  std::string ir = printed(*program->module);
  // The fill is made at the collapsed shape, so the matmul can fuse it.
  EXPECT_NE(
      ir.find("linalg.fill ins(%cst : f32) outs(%0 : tensor<1x24x128xf32>)"),
      std::string::npos)
      << ir;
  EXPECT_NE(ir.find("tensor<1x16x128xf32>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("tensor<24x16xf32>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("tensor.expand_shape"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("conv_2d"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("1x24x4x32xf32> -> tensor<1x24x4x32xf32>"),
            std::string::npos)
      << "the old fill stays: " << ir;

  auto kept = loadFixture("conv_nchw_1x1_rows32", asWritten());
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_EQ(kept->ops[1].opClass, OpClass::Conv2d);
}

TEST(Normalize, TheMatmulComputesInTheCallersBuffer) {
  // The result is the matmul's expanded back to N x F x H x W: lowered, it
  // is computed where the caller wants it, not copied there afterwards.
  auto program = loadFixture("conv_nchw_1x1_rows32", asMatmuls());
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto lowered = lowerToLLVM(*program->module);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  std::string ir = printed(*program->module);
  EXPECT_EQ(ir.find("memcpy"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("memrefCopy"), std::string::npos) << ir;
}

TEST(Normalize, StridedPointwiseConvolutionMultipliesTheCopyOfItsPixels) {
  // 1x16x8x64 by 16x16x1x1, stride 2: every second row and column, 4 x 32
  // pixels, copied out by a generic of their own, then the matmul over them.
  auto program = loadFixture("conv_nchw_1x1_stride2", asMatmuls());
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->ops.size(), 3u);
  EXPECT_EQ(program->ops[0].kind, "linalg.generic");
  EXPECT_EQ(program->ops[0].loopRanges, (std::vector<int64_t>{1, 16, 4, 32}));
  EXPECT_EQ(program->ops[1].opClass, OpClass::Fill);
  EXPECT_EQ(program->ops[2].opClass, OpClass::Matmul);
  EXPECT_EQ(program->ops[2].loopRanges, (std::vector<int64_t>{1, 16, 128, 16}));
  std::string ir = printed(*program->module);
  EXPECT_NE(ir.find("(d0, d1, d2 * 2, d3 * 2)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("tensor<1x16x4x32xf32> into tensor<1x16x128xf32>"),
            std::string::npos)
      << ir;
  EXPECT_EQ(ir.find("conv_2d"), std::string::npos) << ir;
}

TEST(Normalize, StridedSmallImageIsAMatmulToo) {
  // 7 x 7 output pixels: too few without a stride, but a strided layer
  // copies its pixels out either way.
  auto program = loadFixture("conv_nchw_1x1_stride2_7x7", asMatmuls());
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->ops.size(), 3u);
  EXPECT_EQ(program->ops[0].loopRanges, (std::vector<int64_t>{1, 32, 7, 7}));
  EXPECT_EQ(program->ops[2].opClass, OpClass::Matmul);
  EXPECT_EQ(program->ops[2].loopRanges, (std::vector<int64_t>{1, 48, 49, 32}));
}

TEST(Normalize, WindowsAndSmallImagesStayConvolutions) {
  // conv_nchw_1x1_7x7: a 1 x 1 window over 49 pixels, too few;
  // conv_nchw_1x1_stride2_2x2: 4 pixels, too few even with a stride.
  for (const char *fixture :
       {"conv_nchw", "conv_nhwc_13_1x1", "conv_nchw_1x1_7x7",
        "conv_nchw_1x1_stride2_2x2"}) {
    auto program = loadFixture(fixture, asMatmuls());
    ASSERT_TRUE(program.ok()) << program.error().message;
    EXPECT_EQ(program->ops.back().opClass, OpClass::Conv2d) << fixture;
  }
}

TEST(Normalize, RewrittenConvolutionComputesWhatItsTextSays) {
  using rlopt::datagen::testing::randomTensor;
  using rlopt::datagen::testing::runProgram;
  for (const char *fixture :
       {"conv_nchw_1x1_rows32", "conv_nchw_1x1_into_argument",
        "conv_nchw_1x1_stride2", "conv_nchw_1x1_stride2_7x7"}) {
    std::string text = fixtureText(fixture);
    auto shapes = rlopt::datagen::testing::argumentShapes(text);
    ASSERT_TRUE(shapes.ok()) << shapes.error().message;
    std::vector<std::vector<float>> inputs;
    for (size_t i = 0; i < shapes->size(); ++i) {
      size_t n = 1;
      for (int64_t d : (*shapes)[i])
        n *= size_t(d);
      inputs.push_back(randomTensor(n, 7 + i));
    }
    auto matmul = runProgram(text, inputs, asMatmuls());
    auto conv = runProgram(text, inputs, asWritten());
    ASSERT_TRUE(matmul.ok()) << matmul.error().message;
    ASSERT_TRUE(conv.ok()) << conv.error().message;
    ASSERT_EQ(matmul->size(), 1u);
    ASSERT_EQ((*matmul)[0].size(), (*conv)[0].size());
    double worst = 0;
    for (size_t i = 0; i < (*conv)[0].size(); ++i)
      worst =
          std::max(worst, double(std::fabs((*matmul)[0][i] - (*conv)[0][i])));
    EXPECT_LT(worst, 1e-5) << fixture;
  }
}

} // namespace
