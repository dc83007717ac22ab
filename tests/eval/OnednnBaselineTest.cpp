// The oneDNN baseline through the real measurement path: for every op class
// it covers, on a small program, its outputs match the naive MLIR ones and
// it is timed; it names the oneDNN implementation it runs, and it refuses
// what it does not cover and manifests that disagree with the program.
#include "rlopt/eval/OnednnBaseline.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Measurement.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;

namespace {

mlir::MLIRContext &context() {
  // Multithreading disabled: the measurement worker forks.
  static std::unique_ptr<mlir::MLIRContext> shared = createContext();
  return *shared;
}

/// A non-square matmul, so a transposed operand cannot pass.
const char *kMatmul = R"(
func.func @matmul(%a: tensor<6x40xf32>, %b: tensor<40x24xf32>) -> tensor<6x24xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x24xf32>) -> tensor<6x24xf32>
  %c = linalg.matmul ins(%a, %b : tensor<6x40xf32>, tensor<40x24xf32>) outs(%acc : tensor<6x24xf32>) -> tensor<6x24xf32>
  return %c : tensor<6x24xf32>
}
)";

/// A 3x3 convolution with dilation 2: a 5x5 receptive field.
const char *kDilatedConv = R"(
func.func @dilated(%in: tensor<1x12x12x8xf32>, %filter: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x12x12x8xf32>, tensor<3x3x8x16xf32>)
    outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %out : tensor<1x8x8x16xf32>
}
)";

/// Average pooling as the suite generator writes it: a window sum divided
/// by the window size.
const char *kAvgPool = R"(
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_pool(%input: tensor<2x9x9x8xf32>) -> tensor<2x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<2x4x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%input, %window : tensor<2x9x9x8xf32>, tensor<3x3xf32>)
      outs(%acc : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  %count = arith.constant 9.0 : f32
  %avg_empty = tensor.empty() : tensor<2x4x4x8xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x4x4x8xf32>) outs(%avg_empty : tensor<2x4x4x8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %s, %count : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4x8xf32>
  return %out : tensor<2x4x4x8xf32>
}
)";

struct OnednnCase {
  std::string name;
  std::string program; ///< a tests/data fixture name, or MLIR text
  std::string opClass;
  nlohmann::json shapes;
  int threads = 1;
};

std::ostream &operator<<(std::ostream &os, const OnednnCase &c) {
  return os << c.name;
}

/// Window sizes as the suite manifest gives them.
nlohmann::json window(const std::string &layout, int n, int c, int h, int k,
                      int stride, int out) {
  return {{"layout", layout}, {"N", n},   {"C", c},  {"H", h},
          {"W", h},           {"KH", k},  {"KW", k}, {"stride", stride},
          {"OH", out},        {"OW", out}};
}

nlohmann::json with(nlohmann::json shapes, const nlohmann::json &extra) {
  shapes.update(extra);
  return shapes;
}

std::vector<OnednnCase> cases() {
  return {
      {"matmul", kMatmul, "matmul", {{"M", 6}, {"K", 40}, {"N", 24}}},
      {"batch_matmul",
       "batch_matmul",
       "batch_matmul",
       {{"B", 2}, {"M", 32}, {"K", 32}, {"N", 32}}},
      {"conv_nhwc_stride2", "conv_nhwc_stride2", "conv_2d",
       with(window("nhwc_hwcf", 1, 8, 11, 3, 2, 5), {{"F", 16}})},
      {"conv_nhwc_2threads", "conv_nhwc", "conv_2d",
       with(window("nhwc_hwcf", 1, 8, 10, 3, 1, 8), {{"F", 16}}), 2},
      {"conv_nchw", "conv_nchw", "conv_2d",
       with(window("nchw_fchw", 1, 8, 10, 3, 1, 8), {{"F", 16}})},
      {"conv_dilated", kDilatedConv, "conv_2d",
       with(window("nhwc_hwcf", 1, 8, 12, 3, 1, 8),
            {{"F", 16}, {"dilation", 2}})},
      {"depthwise", "depthwise_conv", "depthwise_conv_2d",
       window("nhwc_hwc", 1, 8, 10, 3, 1, 8)},
      {"max_pool", "pool_nhwc_max", "max_pool",
       window("nhwc", 1, 8, 10, 3, 1, 8)},
      {"avg_pool", kAvgPool, "avg_pool", window("nhwc", 2, 8, 9, 3, 2, 4)},
  };
}

Result<Program> load(const std::string &program) {
  if (program.find("func.func") != std::string::npos)
    return parseProgram(context(), program, "inline.mlir");
  return loadProgram(context(),
                     std::string(RLOPT_TEST_DATA) + "/" + program + ".mlir");
}

MeasureOptions quickOptions(int threads) {
  MeasureOptions options;
  options.threads = threads;
  options.timing.repetitions = 1;
  options.timing.maxRounds = 1;
  options.timing.minSampleMs = 0.1;
  options.limits.timeoutSeconds = 120;
  return options;
}

/// The naive program with the baseline beside it, measured in the worker.
Result<Measurement> measureWith(const Program &program,
                                const ExternalBaseline &baseline,
                                int threads = 1) {
  MeasureOptions options = quickOptions(threads);
  options.externals = {baseline};
  return measureSchedule(program, Schedule(), options);
}

class OnednnBaselineTest : public ::testing::TestWithParam<OnednnCase> {};

TEST_P(OnednnBaselineTest, MatchesNaiveMlirAndIsTimed) {
  const OnednnCase &c = GetParam();
  auto program = load(c.program);
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto baseline = eval::onednnBaseline(c.opClass, c.shapes, c.threads);
  ASSERT_TRUE(baseline.ok()) << baseline.error().message;
  EXPECT_EQ(baseline->name, "onednn");
  EXPECT_FALSE(baseline->info.empty()) << "the oneDNN implementation is named";
  RecordProperty("onednn_impl", baseline->info);

  auto m = measureWith(*program, *baseline, c.threads);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->externals.size(), 1u);
  const ExternalTiming &onednn = m->externals[0];
  EXPECT_EQ(onednn.error, "") << baseline->info;
  EXPECT_TRUE(onednn.correct) << baseline->info;
  EXPECT_LT(onednn.maxAbsError, 1e-4) << baseline->info;
  EXPECT_GT(onednn.ms, 0);
  EXPECT_TRUE(m->correct) << "the naive program checks against itself";
}

INSTANTIATE_TEST_SUITE_P(CoveredClasses, OnednnBaselineTest,
                         ::testing::ValuesIn(cases()),
                         [](const auto &info) { return info.param.name; });

TEST(OnednnBaselineErrors, UncoveredClassesAreRefused) {
  for (const char *opClass : {"softmax", "matvec", "elementwise_chain"}) {
    auto baseline = eval::onednnBaseline(opClass, nlohmann::json::object(), 1);
    ASSERT_FALSE(baseline.ok()) << opClass;
    EXPECT_EQ(baseline.error().message,
              std::string("oneDNN baseline does not cover op class '") +
                  opClass + "'");
  }
}

TEST(OnednnBaselineErrors, BadManifestShapesAreNamed) {
  nlohmann::json conv =
      with(window("nhwc_hwcf", 1, 8, 10, 3, 1, 8), {{"F", 16}});
  struct Case {
    std::string opClass;
    nlohmann::json shapes;
    std::string mention;
  };
  std::vector<Case> bad = {
      {"matmul", {{"M", 4}, {"N", 4}}, "lack 'K'"},
      {"conv_2d", with(conv, {{"OH", 9}}), "does not follow"},
      {"conv_2d", with(conv, {{"padding", 1}}), "does not follow"},
      {"conv_2d", with(conv, {{"layout", "nhwc_fhwc"}}), "nhwc_fhwc"},
      {"depthwise_conv_2d", conv, "nhwc_hwcf"},
      {"max_pool", window("nchw", 1, 8, 10, 3, 1, 8), "nhwc"},
  };
  for (const Case &c : bad) {
    auto baseline = eval::onednnBaseline(c.opClass, c.shapes, 1);
    ASSERT_FALSE(baseline.ok()) << c.opClass << " " << c.shapes.dump();
    EXPECT_NE(baseline.error().message.find(c.mention), std::string::npos)
        << baseline.error().message;
  }
}

/// Shapes that do not fit the program, or f64 tensors, are reported by the
/// measurement and not run; the candidate is still measured.
TEST(OnednnBaselineErrors, ProgramsTheManifestDoesNotDescribeAreNotRun) {
  auto square =
      loadProgram(context(), std::string(RLOPT_TEST_DATA) + "/matmul.mlir");
  ASSERT_TRUE(square.ok()) << square.error().message;
  auto wrongShapes =
      eval::onednnBaseline("matmul", {{"M", 64}, {"K", 64}, {"N", 32}}, 1);
  ASSERT_TRUE(wrongShapes.ok()) << wrongShapes.error().message;
  auto m = measureWith(*square, *wrongShapes);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(m->correct);
  ASSERT_EQ(m->externals.size(), 1u);
  EXPECT_FALSE(m->externals[0].correct);
  EXPECT_NE(m->externals[0].error.find("64x32"), std::string::npos)
      << m->externals[0].error;

  auto f64 =
      loadProgram(context(), std::string(RLOPT_TEST_DATA) + "/matmul_f64.mlir");
  ASSERT_TRUE(f64.ok()) << f64.error().message;
  auto baseline =
      eval::onednnBaseline("matmul", {{"M", 64}, {"K", 64}, {"N", 64}}, 1);
  ASSERT_TRUE(baseline.ok()) << baseline.error().message;
  m = measureWith(*f64, *baseline);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->externals.size(), 1u);
  EXPECT_FALSE(m->externals[0].correct);
  EXPECT_NE(m->externals[0].error.find("f32"), std::string::npos)
      << m->externals[0].error;
}

TEST(OnednnBaselineErrors, ConfigurationNamesTheVersion) {
  EXPECT_EQ(eval::onednnConfiguration().rfind("oneDNN ", 0), 0u)
      << eval::onednnConfiguration();
}

} // namespace
