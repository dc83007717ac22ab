// The op-suite generator: every program is one rlopt accepts, the suite is
// a function of the seed, splits never share a shape, FLOPs follow the
// formulas, and scaled programs take tens of milliseconds naive.
#include "rlopt/data/OpSuite.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Measurement.h"
#include "rlopt/linalg/Program.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

using namespace rlopt;
using namespace rlopt::data;

namespace {

mlir::MLIRContext &context() {
  static std::unique_ptr<mlir::MLIRContext> ctx = linalg::createContext();
  return *ctx;
}

std::vector<BenchmarkSpec> wholeTable(Scale scale, uint64_t seed = 0) {
  OpSuiteOptions options;
  options.seed = seed;
  options.scale = scale;
  return generateOpSuite(options);
}

const BenchmarkSpec *find(const std::vector<BenchmarkSpec> &suite,
                          const std::string &name) {
  for (const BenchmarkSpec &b : suite)
    if (b.name == name)
      return &b;
  return nullptr;
}

double product(const nlohmann::json &shape) {
  double n = 1;
  for (const auto &d : shape)
    n *= d.get<double>();
  return n;
}

void expectAllValid(const std::vector<BenchmarkSpec> &suite) {
  for (const BenchmarkSpec &b : suite) {
    auto program = linalg::parseProgram(context(), b.mlir, b.name + ".mlir");
    EXPECT_TRUE(program.ok())
        << (program.ok() ? "" : program.error().message) << "\n"
        << b.mlir;
  }
}

TEST(OpSuite, EverySmallProgramValidates) {
  std::vector<BenchmarkSpec> suite = wholeTable(Scale::Small);
  ASSERT_GT(suite.size(), 150u);
  expectAllValid(suite);
}

TEST(OpSuite, EveryFullProgramValidates) {
  expectAllValid(wholeTable(Scale::Full));
}

TEST(OpSuite, EveryClassIsThereWithUniqueNamesAndCounts) {
  std::vector<BenchmarkSpec> suite = wholeTable(Scale::Small);
  std::set<std::string> names, classes;
  for (const BenchmarkSpec &b : suite) {
    EXPECT_TRUE(names.insert(b.name).second) << "duplicate " << b.name;
    classes.insert(b.opClass);
    EXPECT_FALSE(b.source.empty()) << b.name;
    EXPECT_FALSE(b.shapeKey.empty()) << b.name;
    EXPECT_GT(b.bytes, 0) << b.name;
    EXPECT_GT(b.estimatedMs, 0) << b.name;
    if (b.opClass != "transpose") {
      EXPECT_GT(b.flops, 0) << b.name;
    }
    // Bytes are those of the function's arguments and results.
    double elements = 0;
    for (const char *key : {"args", "results"})
      for (const auto &shape : b.shapes.at(key))
        elements += product(shape);
    EXPECT_EQ(b.bytes, 4 * elements) << b.name;
  }
  for (const std::string &cls : opSuiteClasses())
    EXPECT_TRUE(classes.count(cls)) << "no benchmark of class " << cls;
  // Convolutions come in both layouts, with 1x1, 3x3 and 7x7 kernels and
  // strides 1 and 2.
  std::set<std::string> convKinds;
  for (const BenchmarkSpec &b : suite)
    if (b.opClass == "conv_2d")
      convKinds.insert(b.shapes["layout"].get<std::string>() + " k" +
                       std::to_string(b.shapes["KH"].get<int>()) + " s" +
                       std::to_string(b.shapes["stride"].get<int>()));
  for (const char *kind :
       {"nhwc_hwcf k1 s1", "nhwc_hwcf k1 s2", "nhwc_hwcf k3 s1",
        "nhwc_hwcf k3 s2", "nhwc_hwcf k7 s2", "nchw_fchw k1 s1",
        "nchw_fchw k3 s2", "nchw_fchw k7 s2"})
    EXPECT_TRUE(convKinds.count(kind)) << "no conv_2d " << kind;
}

TEST(OpSuite, FlopsOfKnownPrograms) {
  std::vector<BenchmarkSpec> suite = wholeTable(Scale::Full);
  // BERT's query projection at full scale: 8 sequences of 128 tokens.
  const BenchmarkSpec *mm =
      find(suite, "matmul_bert_base_encoder_layer_0_attention_self_query");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->shapes["M"], 1024);
  EXPECT_EQ(mm->shapes["K"], 768);
  EXPECT_EQ(mm->shapes["N"], 768);
  EXPECT_EQ(mm->flops, 2.0 * 1024 * 768 * 768);
  EXPECT_EQ(mm->bytes, 4.0 * (1024 * 768 + 768 * 768 + 1024 * 768));
  EXPECT_EQ(mm->split.empty(), false);

  // ResNet-50's layer3.0.conv2: 3x3 stride 2, 256 -> 256, 14x14 output.
  const BenchmarkSpec *conv =
      find(suite, "conv_2d_nhwc_resnet50_layer3_0_conv2");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->shapes["args"][0], nlohmann::json({8, 29, 29, 256}));
  EXPECT_EQ(conv->shapes["args"][1], nlohmann::json({3, 3, 256, 256}));
  EXPECT_EQ(conv->shapes["results"][0], nlohmann::json({8, 14, 14, 256}));
  EXPECT_EQ(conv->flops, 2.0 * 8 * 14 * 14 * 256 * 3 * 3 * 256);

  // Softmax: max, subtract + exp, sum, divide = 5 per element.
  const BenchmarkSpec *softmax = find(suite, "softmax_gpt2_h_0_attn_softmax");
  ASSERT_NE(softmax, nullptr);
  EXPECT_EQ(softmax->flops, 5.0 * 12 * 1024 * 1024);
}

TEST(OpSuite, SameSeedSameSuite) {
  OpSuiteOptions options;
  options.seed = 7;
  options.count = 40;
  std::vector<BenchmarkSpec> a = generateOpSuite(options),
                             b = generateOpSuite(options);
  ASSERT_EQ(a.size(), 40u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].split, b[i].split);
    EXPECT_EQ(a[i].mlir, b[i].mlir);
  }
}

TEST(OpSuite, OtherSeedOtherSample) {
  OpSuiteOptions options;
  options.count = 40;
  std::set<std::string> first;
  for (const BenchmarkSpec &b : generateOpSuite(options))
    first.insert(b.name);
  options.seed = 1;
  std::set<std::string> second;
  for (const BenchmarkSpec &b : generateOpSuite(options))
    second.insert(b.name);
  EXPECT_NE(first, second);
}

TEST(OpSuite, SampleSpreadsOverClasses) {
  OpSuiteOptions options;
  options.count = 60;
  std::map<std::string, int> perClass;
  for (const BenchmarkSpec &b : generateOpSuite(options))
    ++perClass[b.opClass];
  // 60 over 13 classes: 4 or 5 each, except classes with fewer layers.
  for (const std::string &cls : opSuiteClasses()) {
    EXPECT_GE(perClass[cls], 3) << cls;
    EXPECT_LE(perClass[cls], 5) << cls;
  }
}

TEST(OpSuite, NoShapeKeyInTwoSplits) {
  for (uint64_t seed : {0, 1, 2, 3}) {
    for (int count : {0, 60, 25}) {
      OpSuiteOptions options;
      options.seed = seed;
      options.count = count;
      std::map<std::string, std::string> splitOf;
      std::map<std::string, int> perSplit;
      for (const BenchmarkSpec &b : generateOpSuite(options)) {
        ++perSplit[b.split];
        auto [it, inserted] = splitOf.emplace(b.shapeKey, b.split);
        EXPECT_EQ(it->second, b.split)
            << "seed " << seed << ", count " << count << ": shape "
            << b.shapeKey << " is in " << it->second << " and " << b.split
            << " (" << b.name << ")";
      }
      for (const std::string &split : splitNames())
        EXPECT_GT(perSplit[split], 0)
            << "seed " << seed << ", count " << count << ": empty " << split;
      EXPECT_EQ(perSplit.size(), 3u);
    }
  }
}

TEST(OpSuite, WholeTableSplitsAreAboutSeventyFifteenFifteen) {
  std::vector<BenchmarkSpec> suite = wholeTable(Scale::Small, 3);
  std::map<std::string, std::set<std::string>> keysPerSplit;
  for (const BenchmarkSpec &b : suite)
    keysPerSplit[b.split].insert(b.shapeKey);
  double total = 0;
  for (const auto &[split, keys] : keysPerSplit)
    total += keys.size();
  EXPECT_NEAR(keysPerSplit["train"].size() / total, 0.70, 0.08);
  EXPECT_NEAR(keysPerSplit["validation"].size() / total, 0.15, 0.06);
  EXPECT_NEAR(keysPerSplit["test"].size() / total, 0.15, 0.06);
}

TEST(OpSuite, SmallScaleEstimatesAreInRange) {
  for (const BenchmarkSpec &b : wholeTable(Scale::Small)) {
    EXPECT_GE(b.estimatedMs, 5) << b.name;
    EXPECT_LE(b.estimatedMs, 200) << b.name;
  }
}

TEST(OpSuite, FullScaleKeepsTheNetworksSizes) {
  std::vector<BenchmarkSpec> suite = wholeTable(Scale::Full);
  const BenchmarkSpec *conv = find(suite, "conv_2d_nchw_vgg16_features_2");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->shapes["results"][0], nlohmann::json({8, 64, 224, 224}));
  EXPECT_EQ(conv->shapes["args"][0], nlohmann::json({8, 64, 226, 226}));
}

} // namespace

TEST(OpSuite, RandomShapesAreNewButKeepKernelsAndStrides) {
  OpSuiteOptions options;
  options.seed = 1;
  options.randomShapes = true;
  std::vector<BenchmarkSpec> random = generateOpSuite(options);
  std::vector<BenchmarkSpec> table = wholeTable(Scale::Small);
  EXPECT_GT(random.size(), 3 * table.size());
  expectAllValid(random);
  EXPECT_EQ(opSuiteInfo(options)["shape_source"], "random");

  std::set<std::string> tableKeys;
  for (const BenchmarkSpec &b : table)
    tableKeys.insert(b.shapeKey);
  int repeated = 0, convolutions = 0;
  for (const BenchmarkSpec &b : random) {
    repeated += tableKeys.count(b.shapeKey);
    // The variant of which layer: its name without "_shapeN".
    std::string original = b.name.substr(0, b.name.rfind("_shape"));
    // (The table keeps the first of layers that scale to one program.)
    const BenchmarkSpec *from = find(table, original);
    if (!from || b.opClass != "conv_2d")
      continue;
    ++convolutions;
    EXPECT_EQ(b.shapes["KH"], from->shapes["KH"]) << b.name;
    EXPECT_EQ(b.shapes["stride"], from->shapes["stride"]) << b.name;
    for (const char *size : {"C", "F"}) {
      double ratio =
          b.shapes[size].get<double>() / from->shapes[size].get<double>();
      EXPECT_GE(ratio, 0.4) << b.name << " " << size;
      EXPECT_LE(ratio, 2.5) << b.name << " " << size;
    }
  }
  EXPECT_GT(convolutions, 40);
  EXPECT_LT(repeated, static_cast<int>(random.size()) / 10)
      << "random shapes mostly repeat the table's";

  OpSuiteOptions again = options;
  std::vector<BenchmarkSpec> same = generateOpSuite(again);
  ASSERT_EQ(same.size(), random.size());
  for (size_t i = 0; i < same.size(); ++i)
    EXPECT_EQ(same[i].mlir, random[i].mlir);
  again.seed = 2;
  std::vector<BenchmarkSpec> other = generateOpSuite(again);
  int differ = 0;
  for (size_t i = 0; i < std::min(other.size(), random.size()); ++i)
    differ += other[i].shapeKey != random[i].shapeKey;
  EXPECT_GT(differ, static_cast<int>(random.size()) / 2);
}
