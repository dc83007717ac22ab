// rlopt eval --suite DIR [--split S] --agent A [--threads T] --out DIR
//            [--db PATH] [--config C] [--seed S] [--baselines torch,onednn]
//            [--cost-model M|none]
#include "Args.h"
#include "Commands.h"
#include "CostModelOption.h"

#include "rlopt/agent/linalg/TrainedEnv.h"
#include "rlopt/core/Progress.h"
#include "rlopt/data/Suite.h"
#include "rlopt/eval/Evaluate.h"
#include "rlopt/eval/ExternalBaselines.h"
#include "rlopt/eval/OnednnBaseline.h"
#include "rlopt/eval/TorchBaseline.h"
#include "rlopt/measure/Peak.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>

namespace rlopt::tool {

int runEval(int argc, char **argv) {
  Args args({"suite", "split", "agent", "threads", "out", "db", "config",
             "seed", "baselines", "cost-model"},
            {});
  if (auto error = args.parse(argc, argv, 2))
    return fail("eval: " + *error);
  if (!args.positional().empty())
    return fail("eval: unexpected argument '" + args.positional()[0] + "'");
  for (const char *required : {"suite", "agent", "out"})
    if (!args.has(required))
      return fail(std::string("eval: --") + required + " is required");
  std::string error;
  long threads = args.getInt("threads", 1, 1, 1024, error);
  long seed = args.getInt("seed", 0, 0, 1l << 40, error);
  if (!error.empty())
    return fail("eval: " + error);
  std::string split = args.get("split", "all");
  if (split != "all" && split != "train" && split != "validation" &&
      split != "test")
    return fail("eval: --split expects train, validation, test or all, got '" +
                split + "'");

  eval::EvalOptions options;
  auto agentSpec = eval::AgentSpec::parse(args.get("agent"));
  if (!agentSpec)
    return fail("eval: " + agentSpec.error().message);
  options.agent = *agentSpec;
  options.seed = seed;
  if (args.has("config")) {
    auto config = linalg::EnvConfig::load(args.get("config"));
    if (!config)
      return fail(config.error().message);
    options.env = *config;
  } else if (options.agent.kind == eval::AgentSpec::Kind::Policy) {
    // A policy runs with the action settings it was trained with.
    auto trained =
        agent::withTrainedActions(options.agent.policyPath, options.env);
    if (!trained)
      return fail("eval: " + trained.error().message);
    options.env = *trained;
  }
  if (options.agent.kind == eval::AgentSpec::Kind::Search) {
    auto model = costModelPath(args.get("cost-model", ""));
    if (!model)
      return fail("eval: " + model.error().message);
    options.costModelPath = *model;
  } else if (args.has("cost-model")) {
    return fail("eval: --cost-model needs --agent search:N");
  }
  options.env.measure.threads = threads;
  if (args.has("db"))
    options.env.cachePath = args.get("db");

  if (args.has("baselines")) {
    std::string list = args.get("baselines");
    size_t start = 0;
    while (true) {
      size_t comma = list.find(',', start);
      std::string name = list.substr(start, comma - start);
      const std::vector<std::string> &known = eval::externalBaselineNames();
      if (std::find(known.begin(), known.end(), name) == known.end())
        return fail("eval: unknown baseline '" + name +
                    "' (expected torch or onednn)");
      if (std::find(options.baselines.begin(), options.baselines.end(), name) !=
          options.baselines.end())
        return fail("eval: baseline '" + name + "' given twice");
      options.baselines.push_back(name);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  auto suite = data::loadSuite(args.get("suite"));
  if (!suite)
    return fail(suite.error().message);
  std::vector<eval::EvalBenchmark> benchmarks;
  for (const data::BenchmarkSpec &spec : suite->benchmarks) {
    if (split != "all" && spec.split != split)
      continue;
    benchmarks.push_back({spec.name, spec.opClass, spec.split,
                          suite->path(spec), spec.flops, spec.bytes,
                          spec.shapes});
  }
  if (benchmarks.empty())
    return fail(args.get("suite") + ": no benchmark in split '" + split + "'");

  options.peakGflops = measure::measureFp32Peak().gflops;
  options.bandwidthGbps = measure::measureTriadBandwidth().gbps;
  ProgressBar progress("eval " + options.agent.name(), benchmarks.size());
  auto evaluated = eval::evaluate(
      benchmarks, options, [&] { progress.update(0, ""); },
      [&](size_t i, const eval::BenchmarkResult &r) {
        progress.update(i + 1, r.benchmark.name);
      });
  if (!evaluated)
    return fail("eval: " + evaluated.error().message);
  progress.finish();
  std::vector<eval::BenchmarkResult> &results = *evaluated;

  nlohmann::json meta = {{"suite", args.get("suite")},
                         {"split", split},
                         {"agent", options.agent.name()},
                         {"threads", threads},
                         {"seed", seed},
                         {"peak_gflops_1thread", options.peakGflops},
                         {"bandwidth_gbps_1thread", options.bandwidthGbps},
                         {"rlopt_version", RLOPT_VERSION},
                         {"date", static_cast<long>(std::time(nullptr))}};
  auto wanted = [&](const char *name) {
    return std::find(options.baselines.begin(), options.baselines.end(),
                     name) != options.baselines.end();
  };
  if (wanted("torch"))
    meta["torch_configuration"] = eval::torchConfiguration();
  if (wanted("onednn"))
    meta["onednn_configuration"] = eval::onednnConfiguration();
  if (Status s = eval::writeResults(args.get("out"), results, meta); !s)
    return fail(s.error().message, ExitFailure);
  std::cout << eval::summaryTable(results);
  std::cout << "results: " << args.get("out") << "/results.json, "
            << args.get("out") << "/results.csv\n";
  return ExitOk;
}

} // namespace rlopt::tool
