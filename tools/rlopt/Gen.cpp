// rlopt gen ops --out DIR [--seed S] [--count N] [--scale small|full]:
// writes a benchmark suite (NAME.mlir files and manifest.json).
#include "Args.h"

#include "rlopt/data/OpSuite.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace rlopt::tool {

static int runGenOps(int argc, char **argv) {
  Args args({"out", "seed", "count", "scale"}, {});
  if (auto error = args.parse(argc, argv, 3))
    return fail("gen ops: " + *error);
  if (!args.positional().empty())
    return fail("gen ops: unexpected argument '" + args.positional()[0] + "'");
  if (!args.has("out") || args.get("out").empty())
    return fail("gen ops: --out DIR is required");
  std::string error;
  data::OpSuiteOptions options;
  options.seed = args.getInt("seed", 0, 0, 1l << 40, error);
  options.count = args.getInt("count", 0, 0, 1000000, error);
  if (!error.empty())
    return fail("gen ops: " + error);
  auto scale = data::parseScale(args.get("scale", "small"));
  if (!scale)
    return fail("gen ops: --scale: " + scale.error().message);
  options.scale = *scale;

  std::vector<data::BenchmarkSpec> suite = data::generateOpSuite(options);
  std::string dir = args.get("out");
  if (Status status = data::writeSuite(suite, dir, data::opSuiteInfo(options));
      !status)
    return fail("gen ops: " + status.error().message);

  // One line per class: programs, splits, estimated naive time range.
  struct Summary {
    int count = 0;
    std::map<std::string, int> splits;
    double minMs = 1e300, maxMs = 0;
  };
  std::map<std::string, Summary> byClass;
  std::map<std::string, int> splits;
  for (const data::BenchmarkSpec &b : suite) {
    Summary &s = byClass[b.opClass];
    ++s.count;
    ++s.splits[b.split];
    ++splits[b.split];
    s.minMs = std::min(s.minMs, b.estimatedMs);
    s.maxMs = std::max(s.maxMs, b.estimatedMs);
  }
  for (const std::string &cls : data::opSuiteClasses()) {
    auto it = byClass.find(cls);
    if (it == byClass.end())
      continue;
    Summary &s = it->second;
    std::printf("%-18s %4d  (train %d, validation %d, test %d)  "
                "estimated naive %.3g-%.3g ms\n",
                cls.c_str(), s.count, s.splits["train"], s.splits["validation"],
                s.splits["test"], s.minMs, s.maxMs);
  }
  std::printf("total              %4zu  (train %d, validation %d, test %d)  "
              "%s scale, seed %llu -> %s\n",
              suite.size(), splits["train"], splits["validation"],
              splits["test"], data::scaleName(options.scale),
              static_cast<unsigned long long>(options.seed), dir.c_str());
  return ExitOk;
}

int runGen(int argc, char **argv) {
  if (argc < 3 || argv[2][0] == '-')
    return fail("gen: expected a suite kind (ops)");
  std::string kind = argv[2];
  if (kind == "ops")
    return runGenOps(argc, argv);
  return fail("gen: unknown suite kind '" + kind + "' (expected ops)");
}

} // namespace rlopt::tool
