// Every bundled graph evaluates on seeded random arguments, except the few
// listed below that are over the interpreter's size limit, and evaluating
// twice gives the same result.
#include "InterpreterTestUtil.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> graphFiles() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(bundledGraphs())) {
    std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".hlo" || extension == ".txt"))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Graphs the interpreter cannot evaluate under its default limits, with
/// what the error must say.
const std::map<std::string, std::string> &expectedFailures() {
  static const std::map<std::string, std::string> failures = {
      // EfficientNet on 250 images of 300x300: activations such as
      // f32[250,150,150,32] hold 180M elements (and the convolutions
      // hundreds of GFLOP).
      {"module_0698.jit__lambda_.256.before_optimizations.txt",
       "InterpreterOptions::maxElements"},
      // GPT-NeoX weights such as f32[6144,24576] (151M elements).
      {"gptneox_tp-1_hidden_layer-1.hlo", "InterpreterOptions::maxElements"},
  };
  return failures;
}

/// The heaviest graphs (BERT-base forward and backward on 1,024 tokens, 89
/// GMAC of dots; BERT-large's, with 62M-element logits) run once; the
/// others run twice to check that results repeat exactly.
bool evaluatedOnce(const std::string &file) {
  return file == "baseline_bert_0.hlo" ||
         file == "bert-large-uncased-dp-tp-fwd-bwd.hlo";
}

std::string testName(const fs::path &path) {
  std::string name =
      path.parent_path().filename().string() + "_" + path.stem().string();
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

class InterpreterOnGraph : public ::testing::TestWithParam<fs::path> {};

} // namespace

TEST(InterpreterBundledGraphs, AllGraphsAreCovered) {
  EXPECT_GE(graphFiles().size(), 91u);
  for (const auto &[file, reason] : expectedFailures()) {
    bool present = false;
    for (const fs::path &path : graphFiles())
      present = present || path.filename() == file;
    EXPECT_TRUE(present) << file << " is listed as failing but not bundled";
  }
}

TEST_P(InterpreterOnGraph, EvaluatesOnRandomArguments) {
  const fs::path &path = GetParam();
  std::string file = path.filename().string();
  auto module = parseModuleFile(path.string());
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto arguments = randomArguments(*module, 1);
  auto result = arguments ? evaluate(*module, *arguments)
                          : rlopt::Result<Value>(arguments.error());

  auto failure = expectedFailures().find(file);
  if (failure != expectedFailures().end()) {
    ASSERT_FALSE(result.ok()) << file
                              << " now evaluates: drop it from the "
                                 "expected failures";
    EXPECT_NE(result.error().message.find(failure->second), std::string::npos)
        << result.error().message;
    return;
  }
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result->shape.compatible(module->entry()->root()->shape()))
      << result->shape.toString() << " vs "
      << module->entry()->root()->shape().toString();
  if (evaluatedOnce(file))
    return;
  auto again = evaluate(*module, *arguments);
  ASSERT_TRUE(again.ok()) << again.error().message;
  rlopt::Status same = compareValues(*result, *again, 0, 0);
  EXPECT_TRUE(same.ok()) << same.error().message;
}

INSTANTIATE_TEST_SUITE_P(Bundled, InterpreterOnGraph,
                         ::testing::ValuesIn(graphFiles()),
                         [](const ::testing::TestParamInfo<fs::path> &info) {
                           return testName(info.param);
                         });

TEST(InterpreterBundledGraphs, CompareValuesCatchesAPerturbedOutput) {
  auto module = parseModuleFile(
      (bundledGraphs() / "torch_xla_neuron/linear_module_adam.hlo").string());
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto arguments = randomArguments(*module, 5);
  ASSERT_TRUE(arguments.ok()) << arguments.error().message;
  auto result = evaluate(*module, *arguments);
  ASSERT_TRUE(result.ok()) << result.error().message;

  // Nudge the last finite element of the last array in the result.
  Value perturbed = *result;
  std::vector<Value *> leaves;
  std::vector<Value *> pending = {&perturbed};
  while (!pending.empty()) {
    Value *value = pending.back();
    pending.pop_back();
    if (value->shape.isTuple())
      for (Value &element : value->elements)
        pending.push_back(&element);
    else if (!value->data.empty())
      leaves.push_back(value);
  }
  ASSERT_FALSE(leaves.empty());
  double *target = nullptr;
  for (Value *leaf : leaves)
    for (double &x : leaf->data)
      if (std::isfinite(x) && x != 0)
        target = &x;
  ASSERT_NE(target, nullptr);
  *target *= 1 + 1e-3;
  rlopt::Status status = compareValues(*result, perturbed);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("mismatch"), std::string::npos);
  EXPECT_TRUE(compareValues(*result, *result).ok());
}

TEST(InterpreterBundledGraphs, JaxNormalSamplerDrawsStandardNormals) {
  // jax.random.normal end to end: threefry2x32 bits, shifts and a
  // bitcast-convert to uniform floats, then sqrt(2) * erfinv as a
  // polynomial. 147,456 draws pin mean and spread to about 0.003.
  auto module = parseModuleFile(
      (bundledGraphs() / "jax/GANs-JAX/module_0034.jit__normal.12."
                         "before_optimizations.txt")
          .string());
  ASSERT_TRUE(module.ok()) << module.error().message;
  Value key = u32({2}, {0, 42});
  auto result = evaluate(*module, {key});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<double> &x = result->data;
  ASSERT_EQ(x.size(), 3u * 3 * 64 * 256);
  double sum = 0, squares = 0, withinOne = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
    withinOne += std::fabs(v) < 1;
  }
  double n = static_cast<double>(x.size());
  double mean = sum / n;
  EXPECT_NEAR(mean, 0, 0.02);
  EXPECT_NEAR(std::sqrt(squares / n - mean * mean), 1, 0.02);
  EXPECT_NEAR(withinOne / n, 0.6827, 0.01);
}

TEST(InterpreterBundledGraphs, TorchLinearForwardComputesWxPlusB) {
  auto module = parseModuleFile(
      (bundledGraphs() / "torch_xla_neuron/linear_module_forward.hlo")
          .string());
  ASSERT_TRUE(module.ok()) << module.error().message;
  // Weights [1,2,3,4], bias 0.5, input [1,1,1,-1], loss scale 2.
  auto result = evaluate(*module, {f32({1, 4}, {1, 2, 3, 4}), f32({1}, {0.5}),
                                   f32({4}, {1, 1, 1, -1}), f32({}, {2})});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->elements.size(), 6u);
  EXPECT_EQ(result->elements[4].data, (std::vector<double>{2.5}));
  EXPECT_EQ(result->elements[5].data, (std::vector<double>{5}));
}
