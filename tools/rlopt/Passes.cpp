// rlopt passes list|run|search|eval|train: the LLVM pass-ordering
// environment from the command line.
#include "Args.h"
#include "Commands.h"
#include "EnvOptions.h"
#include "EvalOutput.h"

#include "rlopt/agent/SequenceSearch.h"
#include "rlopt/core/File.h"
#include "rlopt/eval/PassesEval.h"
#include "rlopt/passes/Features.h"
#include "rlopt/passes/PassCatalog.h"
#include "rlopt/passes/PassRunner.h"
#include "rlopt/passes/PassesEnv.h"

#include <cstdio>
#include <cstring>
#include <iostream>

namespace rlopt::tool {

namespace {

using nlohmann::json;

int runList(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, 3))
    return fail("passes list: " + *error);
  passes::BenchmarkLoader loader(passesSources());
  const auto &actions = passes::passActions();
  if (args.has("json")) {
    json out = {{"actions", json::array()},
                {"excluded", json::array()},
                {"observation_spaces", passes::kObservationSpaces},
                {"reward_spaces", passes::kRewardSpaces},
                {"benchmarks", loader.bundledUris()}};
    for (const auto &action : actions) {
      json entry = {{"name", action.name},
                    {"level", action.level},
                    {"purpose", action.purpose}};
      if (!action.disabled.empty())
        entry["disabled"] = action.disabled;
      out["actions"].push_back(entry);
    }
    for (const auto &excluded : passes::excludedPasses())
      out["excluded"].push_back(
          {{"passes", excluded.name}, {"reason", excluded.reason}});
    std::cout << out.dump(2) << "\n";
    return ExitOk;
  }
  std::printf("%zu actions (LLVM 19 new pass manager):\n", actions.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    std::printf("  %3zu  %-34s %-9s %s\n", i, actions[i].name.c_str(),
                actions[i].level.c_str(), actions[i].purpose.c_str());
    if (!actions[i].disabled.empty())
      std::printf("       disabled (always masked): %s\n",
                  actions[i].disabled.c_str());
  }
  std::printf("\nnot actions:\n");
  for (const auto &excluded : passes::excludedPasses())
    std::printf("  %s\n    why: %s\n", excluded.name.c_str(),
                excluded.reason.c_str());
  std::printf("\nbundled benchmarks:\n");
  for (const auto &uri : loader.bundledUris())
    std::printf("  %s\n", uri.c_str());
  return ExitOk;
}

int runRun(int argc, char **argv) {
  Args args({"passes", "pipeline", "observation", "output", "config", "reward",
             "validation"},
            {"json", "validate"});
  if (auto error = args.parse(argc, argv, 3))
    return fail("passes run: " + *error);
  if (args.positional().size() != 1)
    return fail("passes run: expected one benchmark URI or file");
  passes::PassesEnvConfig config;
  config.episodeLength = 1 << 20;
  if (auto error = readEnvOptions(args, "config", config))
    return fail("passes run: " + *error);
  const std::string uri = args.positional()[0];
  auto env =
      startEpisode(passes::PassesEnv::create(config, passesSources()), uri);
  if (!env)
    return fail(env.error().message);

  std::vector<std::string> names = splitList(args.get("passes"));
  std::vector<int> indices;
  for (const auto &name : names) {
    auto index = passes::findPassAction(name);
    if (!index)
      return fail("passes run: unknown pass '" + name +
                  "' (rlopt passes list shows the actions)");
    indices.push_back(*index);
  }
  double ic0 = *(*env)->metric("IrInstructionCount");
  json steps = json::array();
  for (int index : indices) {
    StepResult step = (*env)->step(Action{{index}});
    steps.push_back(step.info);
    if (step.info.contains("error"))
      return fail(uri + ": " + step.info["error"].get<std::string>(),
                  ExitFailure);
  }
  if (args.has("pipeline")) {
    auto runner = passes::PassRunner::create();
    if (!runner)
      return fail(runner.error().message);
    auto ran = (*runner)->run((*env)->mutableModule(), args.get("pipeline"));
    if (!ran)
      return fail(ran.error().message);
  }

  json out = {{"benchmark", uri},
              {"passes", names},
              {"reward_space", config.reward},
              {"reward", (*env)->episodeReward()},
              {"ic0", ic0},
              {"ic", *(*env)->metric("IrInstructionCount")}};
  for (const char *pipeline : {"default<Oz>", "default<O3>"}) {
    auto value = (*env)->baseline("IrInstructionCount", pipeline);
    if (value)
      out[std::string("ic_") + (pipeline[9] == 'z' ? "oz" : "o3")] = *value;
  }
  for (const auto &space : splitList(args.get("observation"))) {
    auto value = (*env)->observe(space);
    if (!value)
      return fail(value.error().message, ExitFailure);
    out["observations"][space] = *value;
  }
  int exitCode = ExitOk;
  auto mode = passes::parseValidationMode(args.get("validation", "auto"));
  if (!mode)
    return fail("passes run: " + mode.error().message);
  if (args.has("validate")) {
    passes::Validation validation = (*env)->validate(*mode);
    out["validation"] = validation.toJson();
    if (!validation.ok())
      exitCode = ExitFailure;
  }
  if (args.has("output")) {
    if (Status written = writeFileAtomically(
            args.get("output"), passes::printModule((*env)->module()));
        !written)
      return fail(written.error().message, ExitFailure);
  }
  if (args.has("json")) {
    std::cout << out.dump(2) << "\n";
    return exitCode;
  }
  std::printf("%s: %zu passes\n", uri.c_str(), names.size());
  std::printf("  instructions  %.0f -> %.0f   (-Oz %.0f, -O3 %.0f)\n", ic0,
              out["ic"].get<double>(), out.value("ic_oz", 0.0),
              out.value("ic_o3", 0.0));
  std::printf("  reward (%s)  %.4f\n", config.reward.c_str(),
              (*env)->episodeReward());
  json observations = out.value("observations", json::object());
  for (const auto &[space, value] : observations.items())
    std::printf("  %s  %s\n", space.c_str(),
                value.is_string() ? value.get<std::string>().c_str()
                                  : value.dump().c_str());
  if (out.contains("validation")) {
    const json &validation = out["validation"];
    std::printf("  validation  %s; checked %s\n",
                validation["ok"].get<bool>()
                    ? "ok"
                    : validation["errors"][0].get<std::string>().c_str(),
                validation["checked"].get<std::string>().c_str());
    if (validation.contains("output_not_checked"))
      std::printf("  output not checked: %s\n",
                  validation["output_not_checked"].get<std::string>().c_str());
  }
  return exitCode;
}

std::vector<std::string> suiteUris(const Args &args, std::string &error) {
  std::vector<std::string> uris = args.positional();
  if (args.has("suite")) {
    passes::BenchmarkLoader loader(passesSources());
    auto bundled =
        loader.suitesSplit(args.get("suite"), args.get("split", "all"));
    if (!bundled) {
      error = bundled.error().message;
      return {};
    }
    uris.insert(uris.end(), bundled->begin(), bundled->end());
  }
  if (uris.empty())
    error = "expected benchmark URIs or --suite (rlopt-v0 or a dataset)";
  return uris;
}

/// The results table; `listPasses` (search) adds each benchmark's passes.
void printTable(const std::string &agent,
                const std::vector<eval::PassesOutcome> &outcomes,
                bool listPasses) {
  std::printf("agent: %s\n", agent.c_str());
  std::printf("%-40s %7s %7s %7s %7s %11s %8s\n", "benchmark", "IC0", "IC_Oz",
              "IC_O3", "IC", "(IC0-IC)/", "IC_Oz/IC");
  std::printf("%-40s %7s %7s %7s %7s %11s %8s\n", "", "", "", "", "",
              "(IC0-IC_Oz)", "");
  for (const auto &o : outcomes) {
    if (!o.error.empty()) {
      std::printf("%-40s FAILED: %s\n", o.uri.c_str(), o.error.c_str());
      continue;
    }
    std::printf("%-40s %7.0f %7.0f %7.0f %7.0f %11.3f %8.3f\n", o.uri.c_str(),
                o.ic0, o.icOz, o.icO3, o.ic, o.leaderboard(), o.ozRatio());
  }
  eval::PassesSummary summary = eval::summarize(outcomes);
  std::printf("geomean (IC0-IC)/(IC0-IC_Oz) %.3f (mean %.3f; %d <= 0)   "
              "geomean IC_Oz/IC %.3f   %d ok, %d failed\n",
              summary.geomeanLeaderboard, summary.meanLeaderboard,
              summary.nonPositive, summary.geomeanOzRatio, summary.succeeded,
              summary.failed);
  if (!listPasses)
    return;
  for (const auto &o : outcomes) {
    std::string passes;
    for (const auto &p : o.passes)
      passes += (passes.empty() ? "" : ",") + p;
    std::printf("%s passes: %s\n", o.uri.c_str(), passes.c_str());
  }
}

int runEvalOrSearch(int argc, char **argv, bool search) {
  Args args({"agent", "suite", "split", "out", "seed", "episode-length",
             "config", "reward", "validation"},
            {"json", "no-validate"});
  std::string name = search ? "passes search" : "passes eval";
  if (auto error = args.parse(argc, argv, 3))
    return fail(name + ": " + *error);
  std::string error;
  auto uris = suiteUris(args, error);
  if (!error.empty())
    return fail(name + ": " + error);
  eval::PassesEvalOptions options;
  options.agent = args.get("agent", search ? "greedy" : "");
  if (options.agent.empty())
    return fail(name + ": --agent is required");
  options.sources = passesSources();
  options.seed = args.getInt("seed", 0, 0, 1l << 40, error);
  if (auto envError = readEnvOptions(args, "config", options.env))
    return fail(name + ": " + *envError);
  if (!error.empty())
    return fail(name + ": " + error);
  options.validate = !args.has("no-validate");
  auto mode = passes::parseValidationMode(args.get("validation", "auto"));
  if (!mode)
    return fail(name + ": " + mode.error().message);
  options.validation = *mode;
  options.progress = !args.has("json") && uris.size() > 1;
  if (!search && !args.has("out"))
    return fail(name + ": --out DIR is required");

  auto outcomes = eval::evaluatePasses(uris, options);
  if (!outcomes)
    return fail(name + ": " + outcomes.error().message);
  return finishEval(args, options.agent, *outcomes, eval::summarize,
                    eval::writePassesResults,
                    [&] { printTable(options.agent, *outcomes, search); });
}

} // namespace

int runPassesList(int argc, char **argv) { return runList(argc, argv); }
int runPassesRun(int argc, char **argv) { return runRun(argc, argv); }
int runPassesSearch(int argc, char **argv) {
  return runEvalOrSearch(argc, argv, true);
}
int runPassesEval(int argc, char **argv) {
  return runEvalOrSearch(argc, argv, false);
}

} // namespace rlopt::tool
