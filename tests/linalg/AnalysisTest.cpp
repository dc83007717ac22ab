// What `rlopt inspect` reports for the fixtures: op ids, kinds, classes,
// loop ranges, iterator kinds, access matrices, arithmetic and the
// producer -> consumer graph.
#include "LinalgTestUtil.h"

#include "rlopt/linalg/Analysis.h"

#include <gtest/gtest.h>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

using Row = std::vector<int64_t>;

std::string iterators(const OpInfo &op) {
  std::string text;
  for (bool reduction : op.isReduction)
    text += reduction ? 'R' : 'P';
  return text;
}

struct ExpectedOp {
  std::string kind;
  OpClass opClass;
  std::vector<int64_t> ranges;
  std::string iterators;
};

struct FixtureOps {
  std::string fixture;
  std::vector<ExpectedOp> ops;
};

class FixtureAnalysisTest : public ::testing::TestWithParam<FixtureOps> {};

TEST_P(FixtureAnalysisTest, OpsHaveKindClassRangesAndIterators) {
  const FixtureOps &expected = GetParam();
  auto program = loadFixture(expected.fixture);
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->ops.size(), expected.ops.size());
  for (size_t i = 0; i < expected.ops.size(); ++i) {
    const OpInfo &op = program->ops[i];
    const ExpectedOp &want = expected.ops[i];
    SCOPED_TRACE(op.id);
    EXPECT_EQ(op.id, "op" + std::to_string(i));
    EXPECT_EQ(op.index, i);
    EXPECT_EQ(op.kind, want.kind);
    EXPECT_STREQ(opClassName(op.opClass), opClassName(want.opClass));
    EXPECT_EQ(op.loopRanges, want.ranges);
    EXPECT_EQ(iterators(op), want.iterators);
    EXPECT_EQ(op.numLoops(), want.ranges.size());
    EXPECT_GT(op.line, 0u);
    EXPECT_EQ(program->findOp(op.id), &op);
  }
}

const ExpectedOp kFill2d{"linalg.fill", OpClass::Fill, {64, 64}, "PP"};

INSTANTIATE_TEST_SUITE_P(
    Fixtures, FixtureAnalysisTest,
    ::testing::Values(
        FixtureOps{
            "matmul",
            {kFill2d, {"linalg.matmul", OpClass::Matmul, {64, 64, 64}, "PPR"}}},
        FixtureOps{
            "matmul_f64",
            {kFill2d, {"linalg.matmul", OpClass::Matmul, {64, 64, 64}, "PPR"}}},
        FixtureOps{"batch_matmul",
                   {{"linalg.fill", OpClass::Fill, {2, 32, 32}, "PPP"},
                    {"linalg.batch_matmul",
                     OpClass::Matmul,
                     {2, 32, 32, 32},
                     "PPPR"}}},
        FixtureOps{"matvec",
                   {{"linalg.fill", OpClass::Fill, {128}, "P"},
                    {"linalg.matvec", OpClass::Matmul, {128, 128}, "PR"}}},
        FixtureOps{"conv_nhwc",
                   {{"linalg.fill", OpClass::Fill, {1, 8, 8, 16}, "PPPP"},
                    {"linalg.conv_2d_nhwc_hwcf",
                     OpClass::Conv2d,
                     {1, 8, 8, 16, 3, 3, 8},
                     "PPPPRRR"}}},
        FixtureOps{"conv_nhwc_stride2",
                   {{"linalg.fill", OpClass::Fill, {1, 5, 5, 16}, "PPPP"},
                    {"linalg.conv_2d_nhwc_hwcf",
                     OpClass::Conv2d,
                     {1, 5, 5, 16, 3, 3, 8},
                     "PPPPRRR"}}},
        FixtureOps{"conv_nchw",
                   {{"linalg.fill", OpClass::Fill, {1, 16, 8, 8}, "PPPP"},
                    {"linalg.conv_2d_nchw_fchw",
                     OpClass::Conv2d,
                     {1, 16, 8, 8, 8, 3, 3},
                     "PPPPRRR"}}},
        FixtureOps{"depthwise_conv",
                   {{"linalg.fill", OpClass::Fill, {1, 8, 8, 8}, "PPPP"},
                    {"linalg.depthwise_conv_2d_nhwc_hwc",
                     OpClass::Conv2d,
                     {1, 8, 8, 8, 3, 3},
                     "PPPPRR"}}},
        FixtureOps{"pool_nhwc_max",
                   {{"linalg.fill", OpClass::Fill, {1, 8, 8, 8}, "PPPP"},
                    {"linalg.pooling_nhwc_max",
                     OpClass::Pooling,
                     {1, 8, 8, 8, 3, 3},
                     "PPPPRR"}}},
        FixtureOps{"pool_nhwc_sum",
                   {{"linalg.fill", OpClass::Fill, {1, 8, 8, 8}, "PPPP"},
                    {"linalg.pooling_nhwc_sum",
                     OpClass::Pooling,
                     {1, 8, 8, 8, 3, 3},
                     "PPPPRR"}}},
        FixtureOps{"pool_nchw_max",
                   {{"linalg.fill", OpClass::Fill, {1, 8, 8, 8}, "PPPP"},
                    {"linalg.pooling_nchw_max",
                     OpClass::Pooling,
                     {1, 8, 8, 8, 3, 3},
                     "PPPPRR"}}},
        FixtureOps{"add",
                   {{"linalg.add", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"sub",
                   {{"linalg.sub", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"mul",
                   {{"linalg.mul", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"div",
                   {{"linalg.div", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"generic_elementwise",
                   {{"linalg.generic", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"transpose",
                   {{"linalg.transpose", OpClass::Transpose, {64, 32}, "PP"}}},
        FixtureOps{"reduce",
                   {{"linalg.fill", OpClass::Fill, {64}, "P"},
                    {"linalg.reduce", OpClass::Reduction, {64, 128}, "PR"}}},
        FixtureOps{"generic_rowsum",
                   {{"linalg.fill", OpClass::Fill, {64}, "P"},
                    {"linalg.generic", OpClass::Reduction, {64, 128}, "PR"}}},
        FixtureOps{"bias_add",
                   {{"linalg.generic", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"exp",
                   {{"linalg.generic", OpClass::Elementwise, {64, 48}, "PP"}}},
        FixtureOps{"chain",
                   {kFill2d,
                    {"linalg.matmul", OpClass::Matmul, {64, 64, 64}, "PPR"},
                    {"linalg.generic", OpClass::Elementwise, {64, 64}, "PP"},
                    {"linalg.generic", OpClass::Elementwise, {64, 64}, "PP"}}}),
    [](const ::testing::TestParamInfo<FixtureOps> &info) {
      return info.param.fixture;
    });

TEST(AnalysisTest, MatmulAccessMatricesAndGraph) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const OpInfo &fill = program->ops[0];
  const OpInfo &matmul = program->ops[1];
  // Lines of the fixture: the fill is on line 5, the matmul on line 6.
  EXPECT_EQ(fill.line, 5u);
  EXPECT_EQ(matmul.line, 6u);

  // Loops (i, j, k); columns are the loop coefficients, then the constant.
  ASSERT_EQ(matmul.loads.size(), 3u); // A, B, and C (accumulated into)
  EXPECT_EQ(matmul.loads[0], (AccessMatrix{Row{1, 0, 0, 0}, Row{0, 0, 1, 0}}));
  EXPECT_EQ(matmul.loads[1], (AccessMatrix{Row{0, 0, 1, 0}, Row{0, 1, 0, 0}}));
  EXPECT_EQ(matmul.loads[2], (AccessMatrix{Row{1, 0, 0, 0}, Row{0, 1, 0, 0}}));
  ASSERT_EQ(matmul.stores.size(), 1u);
  EXPECT_EQ(matmul.stores[0], (AccessMatrix{Row{1, 0, 0, 0}, Row{0, 1, 0, 0}}));
  EXPECT_EQ(matmul.arith.add, 1);
  EXPECT_EQ(matmul.arith.mul, 1);
  EXPECT_EQ(matmul.arith.div + matmul.arith.sub + matmul.arith.transcendental,
            0);
  EXPECT_EQ(matmul.iterationCount(), 64 * 64 * 64);

  // The fill only stores; its value is not read.
  EXPECT_TRUE(fill.loads.empty());
  ASSERT_EQ(fill.stores.size(), 1u);
  EXPECT_EQ(fill.stores[0], (AccessMatrix{Row{1, 0, 0}, Row{0, 1, 0}}));

  EXPECT_EQ(fill.producers, std::vector<unsigned>{});
  EXPECT_EQ(fill.consumers, std::vector<unsigned>{1});
  EXPECT_EQ(matmul.producers, std::vector<unsigned>{0});
  EXPECT_EQ(matmul.consumers, std::vector<unsigned>{});
}

TEST(AnalysisTest, ConvNhwcAccessMatrices) {
  auto program = loadFixture("conv_nhwc");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const OpInfo &conv = program->ops[1];
  // Loops (n, oh, ow, f, kh, kw, c).
  ASSERT_EQ(conv.loads.size(), 3u);
  EXPECT_EQ(
      conv.loads[0],
      (AccessMatrix{Row{1, 0, 0, 0, 0, 0, 0, 0}, Row{0, 1, 0, 0, 1, 0, 0, 0},
                    Row{0, 0, 1, 0, 0, 1, 0, 0}, Row{0, 0, 0, 0, 0, 0, 1, 0}}));
  EXPECT_EQ(
      conv.loads[1],
      (AccessMatrix{Row{0, 0, 0, 0, 1, 0, 0, 0}, Row{0, 0, 0, 0, 0, 1, 0, 0},
                    Row{0, 0, 0, 0, 0, 0, 1, 0}, Row{0, 0, 0, 1, 0, 0, 0, 0}}));
  ASSERT_EQ(conv.stores.size(), 1u);
  EXPECT_EQ(
      conv.stores[0],
      (AccessMatrix{Row{1, 0, 0, 0, 0, 0, 0, 0}, Row{0, 1, 0, 0, 0, 0, 0, 0},
                    Row{0, 0, 1, 0, 0, 0, 0, 0}, Row{0, 0, 0, 1, 0, 0, 0, 0}}));
  EXPECT_EQ(conv.producers, std::vector<unsigned>{0});
  EXPECT_EQ(program->ops[0].consumers, std::vector<unsigned>{1});
}

TEST(AnalysisTest, StridedConvHasCoefficientTwo) {
  auto program = loadFixture("conv_nhwc_stride2");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const OpInfo &conv = program->ops[1];
  ASSERT_FALSE(conv.loads.empty());
  const AccessMatrix &input = conv.loads[0];
  ASSERT_EQ(input.size(), 4u);
  // Input row = 2 * oh + kh, input column = 2 * ow + kw.
  EXPECT_EQ(input[1], (Row{0, 2, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(input[2], (Row{0, 0, 2, 0, 0, 1, 0, 0}));
  // The output is still indexed by plain loops.
  EXPECT_EQ(conv.stores[0][1], (Row{0, 1, 0, 0, 0, 0, 0, 0}));
}

TEST(AnalysisTest, ConvNchwAccessMatrices) {
  auto program = loadFixture("conv_nchw");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const OpInfo &conv = program->ops[1];
  // Loops (n, f, oh, ow, c, kh, kw); input is (n, c, oh + kh, ow + kw).
  ASSERT_FALSE(conv.loads.empty());
  EXPECT_EQ(
      conv.loads[0],
      (AccessMatrix{Row{1, 0, 0, 0, 0, 0, 0, 0}, Row{0, 0, 0, 0, 1, 0, 0, 0},
                    Row{0, 0, 1, 0, 0, 1, 0, 0}, Row{0, 0, 0, 1, 0, 0, 1, 0}}));
}

TEST(AnalysisTest, PoolingWindowAccess) {
  auto program = loadFixture("pool_nhwc_max");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const OpInfo &pool = program->ops[1];
  ASSERT_FALSE(pool.loads.empty());
  // Loops (n, oh, ow, c, kh, kw); input is (n, oh + kh, ow + kw, c).
  EXPECT_EQ(pool.loads[0],
            (AccessMatrix{Row{1, 0, 0, 0, 0, 0, 0}, Row{0, 1, 0, 0, 1, 0, 0},
                          Row{0, 0, 1, 0, 0, 1, 0}, Row{0, 0, 0, 1, 0, 0, 0}}));
  EXPECT_EQ(pool.producers, std::vector<unsigned>{0});
}

TEST(AnalysisTest, TransposeAndBroadcastAccess) {
  auto transpose = loadFixture("transpose");
  ASSERT_TRUE(transpose.ok()) << transpose.error().message;
  // Loops (i, j) over the 64x32 output; the input is read at (j, i).
  EXPECT_EQ(transpose->ops[0].loads[0],
            (AccessMatrix{Row{0, 1, 0}, Row{1, 0, 0}}));
  EXPECT_EQ(transpose->ops[0].stores[0],
            (AccessMatrix{Row{1, 0, 0}, Row{0, 1, 0}}));

  auto bias = loadFixture("bias_add");
  ASSERT_TRUE(bias.ok()) << bias.error().message;
  ASSERT_EQ(bias->ops[0].loads.size(), 2u);
  EXPECT_EQ(bias->ops[0].loads[1], (AccessMatrix{Row{0, 1, 0}}));
}

TEST(AnalysisTest, ArithmeticCounts) {
  struct Case {
    const char *fixture;
    unsigned op;
    int add, sub, mul, div, transcendental;
  };
  for (const Case &c :
       {Case{"add", 0, 1, 0, 0, 0, 0}, Case{"sub", 0, 0, 1, 0, 0, 0},
        Case{"mul", 0, 0, 0, 1, 0, 0}, Case{"div", 0, 0, 0, 0, 1, 0},
        Case{"generic_elementwise", 0, 0, 1, 2, 0, 0},
        Case{"exp", 0, 0, 0, 0, 0, 1}, Case{"conv_nhwc", 1, 1, 0, 1, 0, 0},
        Case{"generic_rowsum", 1, 1, 0, 0, 0, 0}}) {
    SCOPED_TRACE(c.fixture);
    auto program = loadFixture(c.fixture);
    ASSERT_TRUE(program.ok()) << program.error().message;
    const ArithCounts &arith = program->ops[c.op].arith;
    EXPECT_EQ(arith.add, c.add);
    EXPECT_EQ(arith.sub, c.sub);
    EXPECT_EQ(arith.mul, c.mul);
    EXPECT_EQ(arith.div, c.div);
    EXPECT_EQ(arith.transcendental, c.transcendental);
  }
}

TEST(AnalysisTest, ChainProducersAndConsumers) {
  auto program = loadFixture("chain");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const auto &ops = program->ops;
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].consumers, std::vector<unsigned>{1});
  EXPECT_EQ(ops[1].producers, std::vector<unsigned>{0});
  EXPECT_EQ(ops[1].consumers, std::vector<unsigned>{2});
  EXPECT_EQ(ops[2].producers, std::vector<unsigned>{1});
  EXPECT_EQ(ops[2].consumers, std::vector<unsigned>{3});
  EXPECT_EQ(ops[3].producers, std::vector<unsigned>{2});
  EXPECT_TRUE(ops[3].consumers.empty());
  // The bias is broadcast along the rows.
  ASSERT_EQ(ops[2].loads.size(), 2u);
  EXPECT_EQ(ops[2].loads[1], (AccessMatrix{Row{0, 1, 0}}));
  // relu's max is neither add, sub, mul, div nor transcendental.
  EXPECT_EQ(ops[3].arith.other, 1);
}

TEST(AnalysisTest, JsonMatchesTheAnalysis) {
  auto program = loadFixture("conv_nhwc_stride2");
  ASSERT_TRUE(program.ok()) << program.error().message;
  nlohmann::json json = toJson(program->ops[1]);
  EXPECT_EQ(json["id"], "op1");
  EXPECT_EQ(json["kind"], "linalg.conv_2d_nhwc_hwcf");
  EXPECT_EQ(json["class"], "conv2d");
  EXPECT_EQ(json["loop_ranges"], nlohmann::json({1, 5, 5, 16, 3, 3, 8}));
  EXPECT_EQ(json["iterator_types"],
            nlohmann::json({"parallel", "parallel", "parallel", "parallel",
                            "reduction", "reduction", "reduction"}));
  EXPECT_EQ(json["loads"][0][1], nlohmann::json({0, 2, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(json["producers"], nlohmann::json({0}));
  EXPECT_EQ(json["arith"]["mul"], 1);
}

TEST(AnalysisTest, DescribeShowsRangesAndIterators) {
  auto program = loadFixture("matmul");
  ASSERT_TRUE(program.ok()) << program.error().message;
  std::string text = describe(program->ops[1]);
  EXPECT_NE(text.find("op1  linalg.matmul  (matmul, line 6)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[64,64,64]  PPR"), std::string::npos) << text;
  EXPECT_NE(text.find("producers  op0"), std::string::npos) << text;
}

TEST(AnalysisTest, MaxLoopsIsConfigurable) {
  // conv has 7 loops: allowed by default, rejected with max_loops = 6.
  LoadOptions options;
  options.maxLoops = 6;
  auto program = loadFixture("conv_nhwc", options);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.error().message.find("op1 (linalg.conv_2d_nhwc_hwcf) has "
                                         "7 loops"),
            std::string::npos)
      << program.error().message;
  EXPECT_NE(program.error().message.find("conv_nhwc.mlir:6:"),
            std::string::npos)
      << program.error().message;
}

} // namespace
