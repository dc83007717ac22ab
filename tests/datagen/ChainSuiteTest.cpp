// The chain generator: every chain is one program rlopt accepts in which
// each op feeds the next, the suite is a function of the seed, splits never
// share a start shape, and a chain computes what its ops say.
#include "RunProgramUtil.h"

#include "rlopt/data/ChainSuite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace rlopt;
using namespace rlopt::data;
using namespace rlopt::datagen::testing;

namespace {

std::vector<BenchmarkSpec> chains(uint64_t seed, int count = 40,
                                  Scale scale = Scale::Small) {
  ChainSuiteOptions options;
  options.seed = seed;
  options.count = count;
  options.scale = scale;
  return generateChainSuite(options);
}

void expectOneChainEach(const std::vector<BenchmarkSpec> &suite) {
  for (const BenchmarkSpec &b : suite) {
    SCOPED_TRACE(b.name);
    auto program = linalg::parseProgram(sharedContext(), b.mlir, b.name);
    ASSERT_TRUE(program.ok()) << program.error().message << "\n" << b.mlir;
    EXPECT_EQ(b.opClass, "chain");
    size_t kinds = b.shapes["ops"].size();
    EXPECT_GE(kinds, 2u);
    EXPECT_LE(kinds, 6u);
    for (const auto &kind : b.shapes["ops"])
      EXPECT_TRUE(std::count(chainOpKinds().begin(), chainOpKinds().end(),
                             kind.get<std::string>()))
          << kind;
    // The manifest's counts are the environment's.
    EXPECT_EQ(program->ops.size(), b.shapes["linalg_ops"].get<size_t>());
    size_t edges = 0, sinks = 0;
    for (const linalg::OpInfo &op : program->ops) {
      edges += op.producers.size();
      sinks += op.consumers.empty();
    }
    EXPECT_EQ(edges, b.shapes["edges"].get<size_t>());
    // Each op's result feeds the next: no op but the last is left unused,
    // and every op leads to the last.
    EXPECT_EQ(sinks, 1u);
    EXPECT_GE(edges, program->ops.size() - 1);
    EXPECT_EQ(b.shapes["stages"].back()["result"], b.shapes["results"][0]);
    EXPECT_EQ(b.shapes["args"][0], b.shapes["input"]);
  }
}

TEST(ChainSuite, EveryChainIsOneProducerConsumerChain) {
  std::vector<BenchmarkSpec> suite = chains(0);
  ASSERT_EQ(suite.size(), 40u);
  expectOneChainEach(suite);
  expectOneChainEach(chains(1, 20));
}

TEST(ChainSuite, FullScaleHasTheSameChainsAtTheLayersSizes) {
  std::vector<BenchmarkSpec> small = chains(2, 20),
                             full = chains(2, 20, Scale::Full);
  expectOneChainEach(full);
  ASSERT_EQ(small.size(), full.size());
  for (size_t i = 0; i < small.size(); ++i) {
    SCOPED_TRACE(full[i].name);
    EXPECT_EQ(small[i].name, full[i].name);
    EXPECT_EQ(small[i].split, full[i].split);
    EXPECT_EQ(small[i].shapes["ops"], full[i].shapes["ops"]);
    // Full scale keeps the start layer's batch and size.
    for (const auto &[key, value] : full[i].shapes["scaling"].items())
      if (key.rfind("full_", 0) != 0)
        EXPECT_EQ(value, full[i].shapes["scaling"]["full_" + key]) << key;
  }
}

TEST(ChainSuite, SameSeedSameSuiteOtherSeedOtherChains) {
  std::vector<BenchmarkSpec> a = chains(7), b = chains(7), c = chains(8);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].split, b[i].split);
    EXPECT_EQ(a[i].mlir, b[i].mlir);
  }
  std::set<std::string> first, second;
  for (const BenchmarkSpec &s : a)
    first.insert(s.mlir);
  for (const BenchmarkSpec &s : c)
    second.insert(s.mlir);
  EXPECT_NE(first, second);
}

TEST(ChainSuite, MixesOpKindsLengthsAndNetworks) {
  std::set<std::string> kinds, starts;
  std::set<size_t> lengths;
  for (const BenchmarkSpec &b : chains(0)) {
    for (const auto &kind : b.shapes["ops"])
      kinds.insert(kind.get<std::string>());
    lengths.insert(b.shapes["ops"].size());
    starts.insert(b.shapeKey.substr(0, b.shapeKey.rfind(':')));
  }
  EXPECT_GE(kinds.size(), 14u) << "40 chains should use most op kinds";
  EXPECT_EQ(lengths, (std::set<size_t>{2, 3, 4, 5, 6}));
  EXPECT_EQ(starts, (std::set<std::string>{"chain:image", "chain:tokens",
                                           "chain:heads"}));
}

TEST(ChainSuite, TestStartShapesAreAbsentFromTrain) {
  for (uint64_t seed : {0, 1, 2, 3, 4}) {
    std::map<std::string, std::set<std::string>> splitsOfKey;
    std::map<std::string, int> perSplit;
    for (const BenchmarkSpec &b : chains(seed)) {
      splitsOfKey[b.shapeKey].insert(b.split);
      ++perSplit[b.split];
    }
    for (const auto &[key, splits] : splitsOfKey)
      EXPECT_EQ(splits.size(), 1u) << "seed " << seed << ": " << key;
    for (const std::string &split : splitNames())
      EXPECT_GT(perSplit[split], 0) << "seed " << seed << ": no " << split;
  }
}

TEST(ChainSuite, SmallScaleEstimatesAreInRange) {
  for (const BenchmarkSpec &b : chains(3)) {
    EXPECT_GE(b.estimatedMs, 5) << b.name;
    EXPECT_LE(b.estimatedMs, 250) << b.name;
  }
}

//===----------------------------------------------------------------------===//
// What a chain computes
//===----------------------------------------------------------------------===//

/// A row-major [rows, cols] matrix in double precision.
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> v;
  double &at(int64_t r, int64_t c) { return v[r * cols + c]; }
};

Matrix matrixOf(const Tensor &t, int64_t rows) {
  Matrix m{rows, int64_t(t.size()) / rows, {}};
  m.v.assign(t.begin(), t.end());
  return m;
}

/// The reference for the token-chain kinds, reading the arguments each
/// stage takes in order (weights; bias; residual; gamma and beta).
Matrix reference(const nlohmann::json &kinds, const std::vector<Tensor> &args,
                 const std::vector<std::vector<int64_t>> &shapes) {
  Matrix x = matrixOf(args[0], shapes[0][0]);
  size_t next = 1;
  auto vec = [&]() { return args[next++]; };
  for (const auto &kindJson : kinds) {
    std::string kind = kindJson.get<std::string>();
    if (kind == "matmul") {
      int64_t n = shapes[next][1];
      Tensor w = vec();
      Matrix y{x.rows, n, std::vector<double>(x.rows * n, 0)};
      for (int64_t i = 0; i < x.rows; ++i)
        for (int64_t k = 0; k < x.cols; ++k)
          for (int64_t j = 0; j < n; ++j)
            y.at(i, j) += x.at(i, k) * w[k * n + j];
      x = y;
    } else if (kind == "bias_add" || kind == "add") {
      Tensor b = vec();
      for (int64_t i = 0; i < x.rows; ++i)
        for (int64_t j = 0; j < x.cols; ++j)
          x.at(i, j) += kind == "add" ? b[i * x.cols + j] : b[j];
    } else if (kind == "relu") {
      for (double &v : x.v)
        v = std::max(v, 0.0);
    } else if (kind == "gelu") {
      for (double &v : x.v)
        v = 0.5 * v *
            (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    } else if (kind == "softmax") {
      for (int64_t i = 0; i < x.rows; ++i) {
        double max = -INFINITY, sum = 0;
        for (int64_t j = 0; j < x.cols; ++j)
          max = std::max(max, x.at(i, j));
        for (int64_t j = 0; j < x.cols; ++j)
          sum += std::exp(x.at(i, j) - max);
        for (int64_t j = 0; j < x.cols; ++j)
          x.at(i, j) = std::exp(x.at(i, j) - max) / sum;
      }
    } else if (kind == "layernorm") {
      Tensor gamma = vec(), beta = vec();
      for (int64_t i = 0; i < x.rows; ++i) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < x.cols; ++j)
          mean += x.at(i, j) / x.cols;
        for (int64_t j = 0; j < x.cols; ++j)
          var += (x.at(i, j) - mean) * (x.at(i, j) - mean) / x.cols;
        for (int64_t j = 0; j < x.cols; ++j)
          x.at(i, j) =
              (x.at(i, j) - mean) / std::sqrt(var + 1e-5) * gamma[j] + beta[j];
      }
    } else {
      ADD_FAILURE() << "no reference for " << kind;
    }
  }
  return x;
}

/// |actual - expected| within 1e-3 relative plus 1e-4 of the largest
/// expected magnitude, as the measurement's output check.
void expectClose(const Tensor &actual, const std::vector<double> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  double scale = 0;
  for (double e : expected)
    scale = std::max(scale, std::fabs(e));
  int64_t bad = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    bad += std::fabs(actual[i] - expected[i]) >
           1e-3 * std::fabs(expected[i]) + 1e-4 * scale;
  EXPECT_EQ(bad, 0) << "of " << expected.size() << " outputs";
}

TEST(ChainSuite, TokenChainsComputeTheirOps) {
  const std::set<std::string> known = {"matmul", "bias_add", "add",      "relu",
                                       "gelu",   "softmax",  "layernorm"};
  std::set<std::string> checked;
  for (const BenchmarkSpec &b : chains(0)) {
    bool all = std::all_of(b.shapes["ops"].begin(), b.shapes["ops"].end(),
                           [&](const nlohmann::json &k) {
                             return known.count(k.get<std::string>()) > 0;
                           });
    if (!all || b.shapeKey.rfind("chain:tokens", 0) != 0)
      continue;
    SCOPED_TRACE(b.name);
    auto shapes = argumentShapes(b.mlir);
    ASSERT_TRUE(shapes.ok()) << shapes.error().message;
    std::vector<Tensor> args;
    for (size_t i = 0; i < shapes->size(); ++i) {
      size_t n = 1;
      for (int64_t d : (*shapes)[i])
        n *= d;
      args.push_back(randomTensor(n, i + 1));
    }
    auto results = runProgram(b.mlir, args);
    ASSERT_TRUE(results.ok()) << results.error().message;
    Matrix expected = reference(b.shapes["ops"], args, *shapes);
    expectClose((*results)[0], expected.v);
    for (const auto &kind : b.shapes["ops"])
      checked.insert(kind.get<std::string>());
  }
  // Seed 0's token chains cover these kinds between them.
  for (const char *kind :
       {"matmul", "bias_add", "add", "gelu", "softmax", "layernorm"})
    EXPECT_TRUE(checked.count(kind)) << "no token chain with " << kind;
}

} // namespace
