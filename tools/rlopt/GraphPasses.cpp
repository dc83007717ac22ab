// rlopt graph list|run|eval|train: the graph pass-ordering environment from
// the command line.
#include "Args.h"
#include "Commands.h"
#include "DiscreteTrain.h"
#include "EnvOptions.h"
#include "EvalOutput.h"

#include "rlopt/agent/Cluster.h"
#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/eval/GraphEval.h"
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/Printer.h"
#include "rlopt/graph/RewriteCheck.h"
#include "rlopt/measure/Peak.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

namespace rlopt::tool {

namespace {

using nlohmann::json;

constexpr int kFirstOption = 3;

std::string graphDir() { return std::string(RLOPT_DATA_DIR) + "/hlo"; }

/// Reads --env-config (or, for graph train, the "env" of --config),
/// --reward, --episode-length, --observation, --shaping.
std::optional<std::string>
readGraphEnvOptions(const Args &args, graph::GraphEnvConfig &config,
                    const AgentConfigEnv *agentEnv = nullptr) {
  if (auto error = readEnvOptions(args, "env-config", config, 100000, agentEnv))
    return error;
  config.graphDir = graphDir();
  if (args.has("observation"))
    config.observation = args.get("observation");
  if (args.has("shaping"))
    config.shaping = true;
  // The roofline rewards time the graph on this machine unless the config
  // names a roofline; a run records the one it used in its config.
  if (config.usesRoofline() && config.roofline.gflops == 0 &&
      config.roofline.gbps == 0) {
    // Ranks would each time their own noisy roofline, at once, and only the
    // learner's would be recorded.
    if (agent::Cluster::get().distributed())
      return "under mpirun the roofline rewards need peak_gflops and "
             "bandwidth_gbps in the env config (rlopt peak measures them)";
    config.roofline.gflops = measure::measureFp32Peak().gflops;
    config.roofline.gbps = measure::measureTriadBandwidth().gbps;
    std::fprintf(stderr,
                 "roofline of this machine: %.1f GFLOP/s, %.1f GB/s "
                 "(rlopt peak)\n",
                 config.roofline.gflops, config.roofline.gbps);
  }
  return std::nullopt;
}

/// Graph URIs of a split ("train", "test", "all") from data/hlo/splits.json.
Result<std::vector<std::string>> splitUris(const std::string &split) {
  graph::GraphEnvConfig config;
  config.graphDir = graphDir();
  auto env = graph::GraphEnv::create(config);
  if (!env)
    return env.error();
  return (*env)->splitUris(split);
}

} // namespace

int runGraphList(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, kFirstOption))
    return fail("graph list: " + *error);
  auto test = splitUris("test");
  std::set<std::string> testSet;
  if (test)
    testSet.insert(test->begin(), test->end());
  auto all = splitUris("all");
  if (!all)
    return fail(all.error().message);
  const auto &passes = graph::graphPasses();
  if (args.has("json")) {
    json pipeline = json::array();
    for (const auto &phase : graph::defaultPipeline())
      pipeline.push_back({{"phase", phase.name},
                          {"passes", phase.passes},
                          {"to_fixed_point", phase.toFixedPoint}});
    json out = {{"passes", json::array()},
                {"default_pipeline", pipeline},
                {"cpu_configured_passes", json::array()},
                {"graphs", json::array()}};
    auto describe = [](const graph::GraphPass &pass) {
      return json{{"name", pass.name},
                  {"mirrors", pass.mirrors},
                  {"rewrites", pass.rewrites}};
    };
    for (const auto &pass : passes)
      out["passes"].push_back(describe(pass));
    for (const auto &pass : graph::cpuConfiguredPasses())
      out["cpu_configured_passes"].push_back(describe(pass));
    for (const auto &uri : *all)
      out["graphs"].push_back(
          {{"uri", uri}, {"split", testSet.count(uri) ? "test" : "train"}});
    std::cout << out.dump(2) << "\n";
    return ExitOk;
  }
  std::printf("%zu passes:\n", passes.size());
  for (size_t i = 0; i < passes.size(); ++i)
    std::printf("  %2zu  %-28s %-30s %s\n", i, passes[i].name.c_str(),
                passes[i].mirrors.c_str(), passes[i].rewrites.c_str());
  std::printf("\ndefault pipeline D (XLA's CPU order):\n");
  for (const auto &phase : graph::defaultPipeline()) {
    std::string passes;
    for (const auto &name : phase.passes)
      passes += (passes.empty() ? "" : " ") + name;
    std::printf("  %s%s: %s\n", phase.name.c_str(),
                phase.toFixedPoint ? " (to a fixed point)" : "",
                passes.c_str());
  }
  std::printf("  configured as XLA's CPU backend does (not actions):\n");
  for (const auto &pass : graph::cpuConfiguredPasses())
    std::printf("    %-28s %-30s %s\n", pass.name.c_str(), pass.mirrors.c_str(),
                pass.rewrites.c_str());
  std::printf("\n%zu graphs (%zu test):\n", all->size(), testSet.size());
  for (const auto &uri : *all)
    std::printf("  %-5s %s\n", testSet.count(uri) ? "test" : "train",
                uri.c_str());
  return ExitOk;
}

int runGraphRun(int argc, char **argv) {
  Args args({"passes", "output", "reward", "observation", "env-config",
             "argument-sets"},
            {"json", "default-pipeline", "shaping", "validate"});
  if (auto error = args.parse(argc, argv, kFirstOption))
    return fail("graph run: " + *error);
  std::string error;
  graph::RewriteCheckOptions checkOptions;
  checkOptions.argumentSets =
      static_cast<int>(args.getInt("argument-sets", 3, 1, 100, error));
  if (!error.empty())
    return fail("graph run: " + error);
  if (args.positional().size() != 1)
    return fail("graph run: expected one graph (hlo://NAME or a file)");
  graph::GraphEnvConfig config;
  config.episodeLength = 1 << 20;
  if (auto error = readGraphEnvOptions(args, config))
    return fail("graph run: " + *error);
  const std::string uri = args.positional()[0];
  auto env = startEpisode(graph::GraphEnv::create(config), uri);
  if (!env)
    return fail(env.error().message);
  std::vector<std::string> names = splitList(args.get("passes"));
  json steps = json::array();
  for (const auto &name : names) {
    auto index = graph::findGraphPass(name);
    if (!index)
      return fail("graph run: unknown pass '" + name +
                  "' (rlopt graph list shows the passes)");
    StepResult step = (*env)->step(Action{{*index}});
    if (step.info.contains("error"))
      return fail(uri + ": " + step.info["error"].get<std::string>(),
                  ExitFailure);
    steps.push_back({{"pass", name},
                     {"changed", step.info["changed"]},
                     {"op_count", step.info["op_count"]},
                     {"reward", step.reward}});
    if (step.info.contains("estimated_s"))
      steps.back()["estimated_s"] = step.info["estimated_s"];
  }
  if (args.has("default-pipeline")) {
    auto rounds = graph::runDefaultPipeline((*env)->mutableModule());
    if (!rounds)
      return fail(rounds.error().message, ExitFailure);
  }
  auto pipeline = (*env)->defaultPipelineOpCount();
  json out = {{"graph", uri},
              {"steps", steps},
              {"I", (*env)->initialOpCount()},
              {"R", (*env)->opCount()},
              {"episode_reward", (*env)->episodeReward()}};
  if (pipeline)
    out["D"] = *pipeline;
  int exitCode = ExitOk;
  if (args.has("validate")) {
    // The original, as the episode started from it.
    auto original = startEpisode(graph::GraphEnv::create(config), uri);
    if (!original)
      return fail(original.error().message);
    graph::RewriteCheck check = graph::checkRewrite(
        (*original)->module(), (*env)->module(), checkOptions);
    out["validation"] = check.toJson();
    if (!check.ok())
      exitCode = ExitFailure;
  }
  if (args.has("output"))
    if (Status written = writeFileAtomically(
            args.get("output"), graph::printModule((*env)->module()));
        !written)
      return fail(written.error().message, ExitFailure);
  if (args.has("json")) {
    std::cout << out.dump(2) << "\n";
    return exitCode;
  }
  for (const auto &step : steps)
    std::printf("  %-28s %s  ops %lld\n",
                step["pass"].get<std::string>().c_str(),
                step["changed"].get<bool>() ? "changed  " : "no change",
                static_cast<long long>(step["op_count"].get<int64_t>()));
  std::printf("%s: ops %lld -> %lld (default pipeline: %s)\n", uri.c_str(),
              static_cast<long long>((*env)->initialOpCount()),
              static_cast<long long>((*env)->opCount()),
              pipeline ? std::to_string(*pipeline).c_str()
                       : pipeline.error().message.c_str());
  if (out.contains("validation")) {
    const json &validation = out["validation"];
    std::printf("validation: %s; compared %s\n",
                validation["ok"].get<bool>()
                    ? "ok"
                    : validation["errors"][0].get<std::string>().c_str(),
                validation["checked"].get<std::string>().c_str());
  }
  return exitCode;
}

namespace {
void printGraphTable(const std::string &agent,
                     const std::vector<eval::GraphOutcome> &outcomes) {
  bool timed = std::any_of(outcomes.begin(), outcomes.end(),
                           [](const auto &o) { return o.pipelineTime > 0; });
  std::printf("agent: %s\n", agent.c_str());
  std::printf("%-64s %7s %7s %7s %9s %7s", "graph", "I", "D", "R",
              "(I-R)/(I-D)", "R/I");
  if (timed)
    std::printf(" %10s %10s %10s %7s", "time I", "time D", "time R", "D/R");
  std::printf("\n");
  for (const auto &o : outcomes) {
    if (!o.error.empty()) {
      std::printf("%-64s FAILED: %s\n", o.uri.c_str(), o.error.c_str());
      continue;
    }
    std::printf(
        "%-64s %7lld %7lld %7lld %9.3f %7.3f", o.uri.c_str(),
        static_cast<long long>(o.initial), static_cast<long long>(o.pipeline),
        static_cast<long long>(o.agent), o.paperMetric(), o.opCountRatio());
    if (timed)
      std::printf(" %10.3g %10.3g %10.3g %7.3f", o.initialTime, o.pipelineTime,
                  o.agentTime, o.speedupOverPipeline());
    std::printf("\n");
  }
  eval::GraphSummary s = eval::summarizeGraphs(outcomes);
  std::printf("geomean (I-R)/(I-D) %.3f (mean %.3f; %d <= 0; %d graphs where "
              "D removes nothing left out)   geomean R/I %.3f   %d ok, %d "
              "failed\n",
              s.geomeanPaperMetric, s.meanPaperMetric, s.nonPositive,
              s.withoutPipelineGain, s.geomeanRatio, s.succeeded, s.failed);
  if (timed)
    std::printf("geomean estimated speedup over D, time(D)/time(R): %.3f\n",
                s.geomeanSpeedupOverPipeline);
}

} // namespace

int runGraphEval(int argc, char **argv) {
  Args args({"agent", "split", "out", "seed", "episode-length", "reward",
             "observation", "env-config"},
            {"json", "shaping"});
  if (auto error = args.parse(argc, argv, kFirstOption))
    return fail("graph eval: " + *error);
  std::vector<std::string> uris = args.positional();
  if (uris.empty() || args.has("split")) {
    auto split = splitUris(args.get("split", "test"));
    if (!split)
      return fail("graph eval: " + split.error().message);
    uris.insert(uris.end(), split->begin(), split->end());
  }
  eval::GraphEvalOptions options;
  options.agent = args.get("agent");
  if (options.agent.empty())
    return fail("graph eval: --agent is required");
  if (auto error = readGraphEnvOptions(args, options.env))
    return fail("graph eval: " + *error);
  std::string error;
  options.seed = args.getInt("seed", 0, 0, 1l << 40, error);
  if (!error.empty())
    return fail("graph eval: " + error);
  options.progress = !args.has("json") && uris.size() > 1;
  auto outcomes = eval::evaluateGraphs(uris, options);
  if (!outcomes)
    return fail("graph eval: " + outcomes.error().message);
  return finishEval(args, options.agent, *outcomes, eval::summarizeGraphs,
                    eval::writeGraphResults,
                    [&] { printGraphTable(options.agent, *outcomes); });
}

int runGraphTrain(int argc, char **argv) {
  Args args({"agent", "config", "out", "split", "reward", "observation",
             "episode-length", "iterations", "seed", "env-config"},
            {"resume", "shaping"});
  if (auto error = args.parse(argc, argv, kFirstOption))
    return fail("graph train: " + *error);
  if (!args.has("out"))
    return fail("graph train: --out RUN is required");
  auto agentConfig = readAgentConfig(args, "graph train");
  if (!agentConfig)
    return fail(agentConfig.error().message);

  graph::GraphEnvConfig envConfig;
  auto agentEnv = envInAgentConfig(args);
  if (!agentEnv)
    return fail("graph train: " + agentEnv.error().message);
  if (auto envError = readGraphEnvOptions(args, envConfig, &*agentEnv))
    return fail("graph train: " + *envError);
  auto env = graph::GraphEnv::create(envConfig);
  if (!env)
    return fail(env.error().message);
  auto split = trainingSetting(args, *agentEnv, "split", "train");
  if (!split)
    return fail("graph train: " + split.error().message);
  auto uris = splitUris(*split);
  if (!uris)
    return fail(uris.error().message);

  json envJson = envConfig.toJson();
  envJson["split"] = *split;
  return trainDiscreteAgent(
      "graph train", args, *agentConfig, **env, *uris, envJson, ExitFailure,
      "graph train: " + agentConfig->algorithm() + " on " +
          std::to_string(uris->size()) + " graphs (" + *split + " split)" +
          (envConfig.shaping ? ", FLOP shaping" : ""));
}

} // namespace rlopt::tool
