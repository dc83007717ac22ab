// rlopt gen ops|chains --out DIR [--seed S] [--count N] [--scale small|full]
// (ops also [--shapes table|random])
// and rlopt gen nets --out DIR [--scale small|full]: write a benchmark
// suite (NAME.mlir files and manifest.json) and print a summary.
#include "Args.h"
#include "Commands.h"

#include "rlopt/data/ChainSuite.h"
#include "rlopt/data/NetSuite.h"
#include "rlopt/data/OpSuite.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace rlopt::tool {

namespace {

/// The flags of `rlopt gen KIND`; `seeded` kinds also take --seed and
/// --count.
struct GenArgs {
  std::string dir;
  uint64_t seed = 0;
  int count = 0;
  data::Scale scale = data::Scale::Small;
  bool randomShapes = false;
};

Result<GenArgs> parseGenArgs(int argc, char **argv, bool seeded,
                             int defaultCount, bool shapes = false) {
  std::vector<std::string> flags = {"out", "scale"};
  if (seeded)
    flags.insert(flags.end(), {"seed", "count"});
  if (shapes)
    flags.push_back("shapes");
  Args args(flags, {});
  if (auto error = args.parse(argc, argv, 3))
    return makeError(*error);
  if (!args.positional().empty())
    return makeError("unexpected argument '" + args.positional()[0] + "'");
  if (!args.has("out") || args.get("out").empty())
    return makeError("--out DIR is required");
  GenArgs gen;
  gen.dir = args.get("out");
  if (seeded) {
    std::string error;
    gen.seed = args.getInt("seed", 0, 0, 1l << 40, error);
    gen.count = args.getInt("count", defaultCount, 0, 1000000, error);
    if (!error.empty())
      return makeError(error);
  }
  auto scale = data::parseScale(args.get("scale", "small"));
  if (!scale)
    return makeError("--scale: " + scale.error().message);
  gen.scale = *scale;
  std::string shapeSource = args.get("shapes", "table");
  if (shapeSource != "table" && shapeSource != "random")
    return makeError("--shapes: expected table or random, got '" + shapeSource +
                     "'");
  gen.randomShapes = shapeSource == "random";
  return gen;
}

/// Benchmarks, splits and estimated naive time of one group.
struct Summary {
  int count = 0;
  std::map<std::string, int> splits;
  double minMs = 1e300, maxMs = 0;

  void add(const data::BenchmarkSpec &b) {
    ++count;
    ++splits[b.split];
    minMs = std::min(minMs, b.estimatedMs);
    maxMs = std::max(maxMs, b.estimatedMs);
  }
  void print(const std::string &label) const {
    std::printf("%-18s %4d  (train %d, validation %d, test %d)  "
                "estimated naive %.3g-%.3g ms\n",
                label.c_str(), count, at("train"), at("validation"), at("test"),
                minMs, maxMs);
  }
  int at(const std::string &split) const {
    auto it = splits.find(split);
    return it == splits.end() ? 0 : it->second;
  }
};

void printTotal(const std::vector<data::BenchmarkSpec> &suite,
                const GenArgs &gen, bool seeded) {
  Summary total;
  for (const data::BenchmarkSpec &b : suite)
    total.add(b);
  std::printf("total              %4zu  (train %d, validation %d, test %d)  "
              "%s scale",
              suite.size(), total.at("train"), total.at("validation"),
              total.at("test"), data::scaleName(gen.scale));
  if (seeded)
    std::printf(", seed %llu", static_cast<unsigned long long>(gen.seed));
  std::printf(" -> %s\n", gen.dir.c_str());
}

} // namespace

int runGenOps(int argc, char **argv) {
  auto gen = parseGenArgs(argc, argv, true, 0, /*shapes=*/true);
  if (!gen)
    return fail("gen ops: " + gen.error().message);
  data::OpSuiteOptions options;
  options.randomShapes = gen->randomShapes;
  options.seed = gen->seed;
  options.count = gen->count;
  options.scale = gen->scale;
  std::vector<data::BenchmarkSpec> suite = data::generateOpSuite(options);
  if (Status status =
          data::writeSuite(suite, gen->dir, data::opSuiteInfo(options));
      !status)
    return fail("gen ops: " + status.error().message);

  std::map<std::string, Summary> byClass;
  for (const data::BenchmarkSpec &b : suite)
    byClass[b.opClass].add(b);
  for (const std::string &cls : data::opSuiteClasses())
    if (auto it = byClass.find(cls); it != byClass.end())
      it->second.print(cls);
  printTotal(suite, *gen, true);
  return ExitOk;
}

int runGenChains(int argc, char **argv) {
  auto gen = parseGenArgs(argc, argv, true, data::ChainSuiteOptions().count);
  if (!gen)
    return fail("gen chains: " + gen.error().message);
  data::ChainSuiteOptions options;
  options.seed = gen->seed;
  options.count = gen->count;
  options.scale = gen->scale;
  std::vector<data::BenchmarkSpec> suite = data::generateChainSuite(options);
  if (Status status =
          data::writeSuite(suite, gen->dir, data::chainSuiteInfo(options));
      !status)
    return fail("gen chains: " + status.error().message);

  // One line per chain length.
  std::map<size_t, Summary> byLength;
  for (const data::BenchmarkSpec &b : suite)
    byLength[b.shapes["ops"].size()].add(b);
  for (const auto &[length, summary] : byLength)
    summary.print(std::to_string(length) + " ops");
  printTotal(suite, *gen, true);
  return ExitOk;
}

int runGenNets(int argc, char **argv) {
  auto gen = parseGenArgs(argc, argv, false, 0);
  if (!gen)
    return fail("gen nets: " + gen.error().message);
  data::NetSuiteOptions options;
  options.scale = gen->scale;
  std::vector<data::BenchmarkSpec> suite = data::generateNetSuite(options);
  if (Status status =
          data::writeSuite(suite, gen->dir, data::netSuiteInfo(options));
      !status)
    return fail("gen nets: " + status.error().message);

  for (const data::BenchmarkSpec &b : suite)
    std::printf("%-18s %4d Linalg ops  %4d edges  %8.3f GFLOP  "
                "estimated naive %.3g ms\n",
                b.name.c_str(), b.shapes["linalg_ops"].get<int>(),
                b.shapes["edges"].get<int>(), b.flops / 1e9, b.estimatedMs);
  printTotal(suite, *gen, false);
  return ExitOk;
}

} // namespace rlopt::tool
