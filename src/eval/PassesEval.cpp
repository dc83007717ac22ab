// Pass-ordering evaluation: an agent's instruction count on each benchmark
// against LLVM's -Oz and -O3, with CompilerGym's leaderboard metric.
#include "rlopt/eval/PassesEval.h"

#include "rlopt/eval/EvalLoop.h"
#include "rlopt/eval/ResultTable.h"
#include "rlopt/passes/PassCatalog.h"

#include <sstream>

namespace rlopt::eval {

using nlohmann::json;

double PassesOutcome::leaderboard() const {
  double gain = ic0 - icOz;
  return gain > 0 ? (ic0 - ic) / gain : 0;
}

json PassesOutcome::toJson() const {
  json out = {{"uri", uri},
              {"passes", passes},
              {"ic0", ic0},
              {"ic_oz", icOz},
              {"ic_o3", icO3},
              {"ic", ic},
              {"leaderboard", leaderboard()},
              {"oz_ratio", ozRatio()},
              {"seconds", seconds},
              {"validated", validated}};
  if (!checked.empty())
    out["checked"] = checked;
  if (!notChecked.empty())
    out["output_not_checked"] = notChecked;
  if (!error.empty())
    out["error"] = error;
  return out;
}

json PassesSummary::toJson() const {
  return {{"geomean_leaderboard", geomeanLeaderboard},
          {"mean_leaderboard", meanLeaderboard},
          {"geomean_oz_ratio", geomeanOzRatio},
          {"succeeded", succeeded},
          {"failed", failed},
          {"non_positive_leaderboard", nonPositive}};
}

namespace {

const AgentChoices kPassesAgents = {{"Oz", "O3", "greedy"}, true, true};

PassesOutcome evaluateOne(passes::PassesEnv &env, const std::string &uri,
                          const PassesEvalOptions &options,
                          const AgentSpec &agent,
                          const agent::discrete::DiscretePolicy *policy) {
  PassesOutcome outcome;
  outcome.uri = uri;
  auto started = env.tryReset({uri}, 0);
  if (!started) {
    outcome.error = started.error().message;
    return outcome;
  }
  auto ic0 = env.metric("IrInstructionCount");
  auto icOz = env.baseline("IrInstructionCount", "default<Oz>");
  auto icO3 = env.baseline("IrInstructionCount", "default<O3>");
  if (!ic0 || !icOz || !icO3) {
    outcome.error = !ic0
                        ? ic0.error().message
                        : (!icOz ? icOz.error().message : icO3.error().message);
    return outcome;
  }
  outcome.ic0 = *ic0;
  outcome.icOz = *icOz;
  outcome.icO3 = *icO3;

  if (agent.is("Oz") || agent.is("O3")) {
    outcome.ic = agent.is("Oz") ? *icOz : *icO3;
    outcome.passes = {agent.is("Oz") ? "default<Oz>" : "default<O3>"};
    outcome.validated = true;
    return outcome;
  }
  // The env then holds the found sequence's result, to count and check.
  if (!runAndReplay(env, uri, outcome, agent, policy, options.seed,
                    options.env.episodeLength, [](const Action &a) {
                      return passes::passActions()[a.values[0]].name;
                    }))
    return outcome;
  outcome.ic = *env.metric("IrInstructionCount");
  if (options.validate) {
    passes::Validation validation = env.validate(options.validation);
    outcome.validated = validation.ok();
    outcome.checked = validation.checked();
    outcome.notChecked = validation.notChecked;
    if (!validation.ok())
      outcome.error = "validation: " + validation.errors.front();
  }
  return outcome;
}

} // namespace

Result<std::vector<PassesOutcome>>
evaluatePasses(const std::vector<std::string> &uris,
               const PassesEvalOptions &options) {
  auto agent = AgentSpec::parse(options.agent, kPassesAgents);
  if (!agent)
    return agent.error();
  if (uris.empty())
    return makeError("no benchmarks to evaluate");
  passes::PassesEnvConfig config = options.env;
  config.reward = "IrInstructionCountOz";
  auto env = passes::PassesEnv::create(config, options.sources);
  if (!env)
    return env.error();
  return evaluateEach("passes eval", **env, uris, options, *agent, evaluateOne);
}

PassesSummary summarize(const std::vector<PassesOutcome> &outcomes) {
  std::vector<OutcomeScore> scores;
  for (const auto &outcome : outcomes)
    scores.push_back(
        {!outcome.error.empty(), outcome.ozRatio(), outcome.leaderboard()});
  ScoreSummary s = summarizeScores(scores);
  return {s.geomeanMetric, s.meanMetric, s.geomeanRatio,
          s.succeeded,     s.failed,     s.nonPositive};
}

Status writePassesResults(const std::string &dir, const std::string &agent,
                          const std::vector<PassesOutcome> &outcomes) {
  std::ostringstream csv;
  csv << "uri,ic0,ic_oz,ic_o3,ic,leaderboard,oz_ratio,seconds,validated,"
         "passes,error\n";
  for (const auto &o : outcomes)
    csv << o.uri << "," << o.ic0 << "," << o.icOz << "," << o.icO3 << ","
        << o.ic << "," << o.leaderboard() << "," << o.ozRatio() << ","
        << o.seconds << "," << (o.validated ? 1 : 0) << ","
        << csvPassesAndError(o.passes, o.error) << "\n";
  return writeResultFiles(dir, "passes-eval",
                          resultsDocument(agent, summarize(outcomes), outcomes),
                          csv.str());
}

} // namespace rlopt::eval
