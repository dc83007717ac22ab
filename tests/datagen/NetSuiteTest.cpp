// The net suite: every network is one program rlopt accepts, with the
// layers, weight counts and FLOPs of its reference implementation; the MLP
// computes what a hand computation does, and every small network's output
// is well conditioned, so the measurement's output check is meaningful.
#include "RunProgramUtil.h"

#include "rlopt/data/NetSuite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace rlopt;
using namespace rlopt::data;
using namespace rlopt::datagen::testing;

namespace {

std::vector<BenchmarkSpec> nets(Scale scale) {
  NetSuiteOptions options;
  options.scale = scale;
  return generateNetSuite(options);
}

const BenchmarkSpec &find(const std::vector<BenchmarkSpec> &suite,
                          const std::string &name) {
  for (const BenchmarkSpec &b : suite)
    if (b.name == name)
      return b;
  ADD_FAILURE() << "no network " << name;
  return suite.front();
}

void expectManifestMatchesTheEnvironment(const std::vector<BenchmarkSpec> &s) {
  ASSERT_EQ(s.size(), netSuiteNames().size());
  for (const BenchmarkSpec &b : s) {
    SCOPED_TRACE(b.name);
    auto program = linalg::parseProgram(sharedContext(), b.mlir, b.name);
    ASSERT_TRUE(program.ok()) << program.error().message;
    EXPECT_EQ(b.opClass, "net");
    EXPECT_EQ(b.split, "test");
    EXPECT_EQ(program->ops.size(), b.shapes["linalg_ops"].get<size_t>());
    size_t edges = 0;
    std::map<std::string, int> kinds;
    for (const linalg::OpInfo &op : program->ops) {
      edges += op.producers.size();
      ++kinds[op.kind];
    }
    EXPECT_EQ(edges, b.shapes["edges"].get<size_t>());
    EXPECT_EQ(nlohmann::json(kinds), b.shapes["op_counts"]);
    // Nearly every op reads another op's result; only the reshapes of
    // attention and the pads of convolutions stand between some.
    EXPECT_GE(double(edges), 0.8 * double(program->ops.size()));
  }
}

TEST(NetSuite, EverySmallNetMatchesItsManifest) {
  expectManifestMatchesTheEnvironment(nets(Scale::Small));
}

TEST(NetSuite, EveryFullNetMatchesItsManifest) {
  expectManifestMatchesTheEnvironment(nets(Scale::Full));
}

int count(const BenchmarkSpec &b, const std::string &kind) {
  return b.shapes["op_counts"].value(kind, 0);
}

TEST(NetSuite, LayersOfTheReferenceNetworks) {
  std::vector<BenchmarkSpec> suite = nets(Scale::Small);
  const BenchmarkSpec &mlp = find(suite, "mlp");
  // fill + matmul + bias per layer, ReLU after the first two.
  EXPECT_EQ(mlp.shapes["linalg_ops"], 11);
  EXPECT_EQ(mlp.shapes["edges"], 10);
  const BenchmarkSpec &lenet = find(suite, "lenet5");
  EXPECT_EQ(count(lenet, "linalg.conv_2d_nhwc_hwcf"), 2);
  EXPECT_EQ(count(lenet, "linalg.pooling_nhwc_max"), 2);
  EXPECT_EQ(count(lenet, "linalg.matmul"), 3);
  const BenchmarkSpec &resnet = find(suite, "resnet18");
  EXPECT_EQ(count(resnet, "linalg.conv_2d_nhwc_hwcf"), 20);
  EXPECT_EQ(count(resnet, "linalg.add"), 8); // one per basic block
  const BenchmarkSpec &mobilenet = find(suite, "mobilenet_v2");
  EXPECT_EQ(count(mobilenet, "linalg.depthwise_conv_2d_nhwc_hwc"), 17);
  EXPECT_EQ(count(mobilenet, "linalg.conv_2d_nhwc_hwcf"), 35);
  EXPECT_EQ(count(mobilenet, "linalg.add"), 10);
  const BenchmarkSpec &vgg = find(suite, "vgg11");
  EXPECT_EQ(count(vgg, "linalg.conv_2d_nhwc_hwcf"), 8);
  EXPECT_EQ(count(vgg, "linalg.pooling_nhwc_max"), 5);
  EXPECT_EQ(count(vgg, "linalg.matmul"), 3);
  for (const char *name : {"bert_base_layer", "gpt2_block"}) {
    const BenchmarkSpec &t = find(suite, name);
    EXPECT_EQ(count(t, "linalg.matmul"), 6) << name; // q, k, v, out, ffn x2
    EXPECT_EQ(count(t, "linalg.batch_matmul"), 2) << name;
    EXPECT_EQ(count(t, "linalg.transpose"), 4) << name;
    EXPECT_EQ(count(t, "linalg.add"), 2) << name;
  }
}

TEST(NetSuite, WeightCountsAndFlopsOfTheReferenceNetworks) {
  std::vector<BenchmarkSpec> suite = nets(Scale::Full);
  // torchvision and Hugging Face parameter counts; with batch norm folded
  // into a bias, a normalized channel keeps one of its two parameters.
  std::map<std::string, double> parameters = {
      {"mlp", 669706},
      {"lenet5", 61706},
      {"resnet18", 11689512 - 4800},
      {"mobilenet_v2", 3504872 - 17056},
      {"vgg11", 132863336},
      {"bert_base_layer", 7087872},
      {"gpt2_block", 7087872},
  };
  for (const auto &[name, expected] : parameters)
    EXPECT_EQ(find(suite, name).shapes["parameters"].get<double>(), expected)
        << name;
  // Multiply-accumulates of the published figures, two FLOPs each; the
  // elementwise ops add a little.
  std::map<std::string, double> gmacs = {
      {"resnet18", 1.82}, {"mobilenet_v2", 0.30}, {"vgg11", 7.6}};
  for (const auto &[name, macs] : gmacs)
    EXPECT_NEAR(find(suite, name).flops / 2e9, macs, 0.05 * macs) << name;
  EXPECT_EQ(find(suite, "resnet18").shapes["args"][0],
            nlohmann::json({1, 224, 224, 3}));
  EXPECT_EQ(find(suite, "bert_base_layer").shapes["args"][0],
            nlohmann::json({512, 768}));
}

TEST(NetSuite, ConvolutionsArePaddedWithTensorPad) {
  std::vector<BenchmarkSpec> suite = nets(Scale::Small);
  for (const char *name : {"resnet18", "mobilenet_v2", "vgg11"}) {
    const BenchmarkSpec &net = find(suite, name);
    EXPECT_NE(net.mlir.find("tensor.pad"), std::string::npos) << name;
    EXPECT_EQ(net.mlir.find("tensor.extract "), std::string::npos) << name;
  }
}

TEST(NetSuite, SmallMlpComputesTheNetwork) {
  std::vector<BenchmarkSpec> suite = nets(Scale::Small);
  const BenchmarkSpec &mlp = find(suite, "mlp");
  auto shapes = argumentShapes(mlp.mlir);
  ASSERT_TRUE(shapes.ok()) << shapes.error().message;
  ASSERT_EQ(shapes->size(), 7u); // input, then weight and bias per layer
  std::vector<Tensor> args;
  for (size_t i = 0; i < shapes->size(); ++i) {
    size_t n = 1;
    for (int64_t d : (*shapes)[i])
      n *= d;
    args.push_back(randomTensor(n, 100 + i));
  }
  auto results = runProgram(mlp.mlir, args);
  ASSERT_TRUE(results.ok()) << results.error().message;

  int64_t batch = (*shapes)[0][0];
  std::vector<double> x(args[0].begin(), args[0].end());
  int64_t width = (*shapes)[0][1];
  for (int layer = 0; layer < 3; ++layer) {
    const Tensor &w = args[1 + 2 * layer], &b = args[2 + 2 * layer];
    int64_t outputs = int64_t(b.size());
    std::vector<double> y(batch * outputs);
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t j = 0; j < outputs; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < width; ++k)
          sum += x[i * width + k] * w[k * outputs + j];
        // Weights act as PyTorch's default initialization (fanInScaledBias).
        sum = sum / std::sqrt(double(width)) + b[j];
        y[i * outputs + j] = layer < 2 ? std::max(sum, 0.0) : sum;
      }
    x = y;
    width = outputs;
  }
  const Tensor &out = (*results)[0];
  ASSERT_EQ(out.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(out[i], x[i], 1e-3 * (1 + std::fabs(x[i]))) << i;
}

TEST(NetSuite, DeepNetsAreWellConditioned) {
  // The measurement compares candidates with the naive program on uniform
  // [-1, 1] arguments to about 1e-3; a network whose output moves far more
  // than its input (deep CNNs without the fan-in scale) would fail correct
  // schedules. ResNet-18 is the deepest that compiles quickly.
  std::vector<BenchmarkSpec> suite = nets(Scale::Small);
  const BenchmarkSpec &resnet = find(suite, "resnet18");
  auto shapes = argumentShapes(resnet.mlir);
  ASSERT_TRUE(shapes.ok()) << shapes.error().message;
  std::vector<Tensor> args;
  for (size_t i = 0; i < shapes->size(); ++i) {
    size_t n = 1;
    for (int64_t d : (*shapes)[i])
      n *= d;
    args.push_back(randomTensor(n, 200 + i));
  }
  std::vector<Tensor> nudged = args;
  for (float &v : nudged[0])
    v *= 1 + 1e-6f;
  auto runs = runProgramOn(resnet.mlir, {args, nudged});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  const Tensor &out = (*runs)[0][0], &moved = (*runs)[1][0];
  double scale = 0, change = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    scale = std::max(scale, double(std::fabs(out[i])));
    change = std::max(change, double(std::fabs(out[i] - moved[i])));
  }
  EXPECT_GT(scale, 0.1);
  EXPECT_LT(scale, 100);
  EXPECT_LT(change, 1e-4 * scale);
}

} // namespace
