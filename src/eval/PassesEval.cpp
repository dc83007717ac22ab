// Pass-ordering evaluation: an agent's instruction count on each benchmark
// against LLVM's -Oz and -O3, with CompilerGym's leaderboard metric.
#include "rlopt/eval/PassesEval.h"

#include "rlopt/agent/SequenceSearch.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/core/File.h"
#include "rlopt/core/Progress.h"
#include "rlopt/passes/PassCatalog.h"

#include <chrono>
#include <cmath>
#include <filesystem>
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

using Clock = std::chrono::steady_clock;

std::vector<std::string> passNames(const std::vector<Action> &actions) {
  std::vector<std::string> names;
  for (const Action &action : actions)
    names.push_back(passes::passActions()[action.values[0]].name);
  return names;
}

/// Runs the agent; returns its pass list (empty for the fixed pipelines,
/// whose count comes from the baseline).
Result<std::vector<Action>>
runAgent(passes::PassesEnv &env, const std::string &uri,
         const PassesEvalOptions &options,
         const agent::discrete::DiscretePolicy *policy) {
  const std::string &agent = options.agent;
  BenchmarkRef benchmark{uri};
  if (policy) {
    auto episode = agent::discrete::runGreedyEpisode(*policy, env, benchmark,
                                                     options.seed);
    if (!episode)
      return episode.error();
    std::vector<Action> actions;
    for (int64_t value : episode->actions)
      actions.push_back(Action{{value}});
    // An action that failed ends the episode; keep only the ones that ran.
    if (episode->finalInfo.contains("error") && !actions.empty())
      actions.pop_back();
    return actions;
  }
  if (agent.rfind("random:", 0) == 0) {
    agent::SearchBudget budget;
    budget.maxSeconds = std::stod(agent.substr(7));
    auto found =
        agent::randomSequenceSearch(env, benchmark, budget, options.seed);
    if (!found)
      return found.error();
    return found->actions;
  }
  if (agent == "greedy") {
    auto found = agent::greedySearch(env, benchmark, options.env.episodeLength);
    if (!found)
      return found.error();
    return found->actions;
  }
  return makeError("unknown agent '" + agent + "'");
}

Status checkAgent(const std::string &agent) {
  if (agent == "Oz" || agent == "O3" || agent == "greedy")
    return Status::success();
  if (agent.rfind("policy:", 0) == 0)
    return Status::success();
  if (agent.rfind("random:", 0) == 0) {
    char *end = nullptr;
    double seconds = std::strtod(agent.c_str() + 7, &end);
    if (end && *end == '\0' && seconds > 0)
      return Status::success();
    return makeError("agent '" + agent +
                     "': expected random:SECONDS with SECONDS > 0");
  }
  return makeError("agent '" + agent +
                   "': expected Oz, O3, greedy, random:SECONDS or policy:PATH");
}

PassesOutcome evaluateOne(passes::PassesEnv &env, const std::string &uri,
                          const PassesEvalOptions &options,
                          const agent::discrete::DiscretePolicy *policy) {
  PassesOutcome outcome;
  outcome.uri = uri;
  auto started = env.tryReset(uri);
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

  auto start = Clock::now();
  if (options.agent == "Oz" || options.agent == "O3") {
    outcome.ic = options.agent == "Oz" ? *icOz : *icO3;
    outcome.passes = {options.agent == "Oz" ? "default<Oz>" : "default<O3>"};
    outcome.validated = true;
    return outcome;
  }
  auto actions = runAgent(env, uri, options, policy);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!actions) {
    outcome.error = actions.error().message;
    return outcome;
  }
  outcome.passes = passNames(*actions);
  // Replay the found sequence so the env holds its result, then check it.
  auto replayed = agent::replayActions(env, {uri}, *actions);
  if (!replayed) {
    outcome.error = "replay: " + replayed.error().message;
    return outcome;
  }
  outcome.ic = *env.metric("IrInstructionCount");
  if (options.validate) {
    passes::Validation validation = env.validate();
    outcome.validated = validation.ok();
    if (!validation.ok())
      outcome.error = "validation: " + validation.errors.front();
  }
  return outcome;
}

/// Quotes inside a quoted CSV field become apostrophes.
std::string csvSafe(std::string text) {
  for (char &c : text)
    if (c == '"' || c == '\n')
      c = '\'';
  return text;
}

double geomean(const std::vector<double> &values) {
  if (values.empty())
    return 0;
  double logSum = 0;
  for (double v : values)
    logSum += std::log(v);
  return std::exp(logSum / static_cast<double>(values.size()));
}

} // namespace

Result<std::vector<PassesOutcome>>
evaluatePasses(const std::vector<std::string> &uris,
               const PassesEvalOptions &options) {
  if (Status ok = checkAgent(options.agent); !ok)
    return ok.error();
  if (uris.empty())
    return makeError("no benchmarks to evaluate");
  passes::PassesEnvConfig config = options.env;
  config.reward = "IrInstructionCountOz";
  auto env = passes::PassesEnv::create(config, options.sources);
  if (!env)
    return env.error();
  std::optional<agent::discrete::DiscretePolicy> policy;
  if (options.agent.rfind("policy:", 0) == 0) {
    auto loaded = agent::discrete::DiscretePolicy::load(options.agent.substr(7),
                                                        (*env)->spaces());
    if (!loaded)
      return loaded.error();
    policy.emplace(loaded.takeValue());
  }
  std::vector<PassesOutcome> outcomes;
  ProgressBar bar("passes eval " + options.agent, uris.size());
  for (size_t i = 0; i < uris.size(); ++i) {
    if (options.progress)
      bar.update(i, uris[i]);
    outcomes.push_back(
        evaluateOne(**env, uris[i], options, policy ? &*policy : nullptr));
  }
  if (options.progress)
    bar.finish();
  return outcomes;
}

PassesSummary summarize(const std::vector<PassesOutcome> &outcomes) {
  PassesSummary summary;
  std::vector<double> leaderboards, ratios;
  double sum = 0;
  for (const auto &outcome : outcomes) {
    if (!outcome.error.empty()) {
      ++summary.failed;
      continue;
    }
    ++summary.succeeded;
    double value = outcome.leaderboard();
    sum += value;
    summary.nonPositive += value <= 0;
    leaderboards.push_back(std::max(value, 1e-3));
    ratios.push_back(outcome.ozRatio());
  }
  summary.geomeanLeaderboard = geomean(leaderboards);
  summary.geomeanOzRatio = geomean(ratios);
  summary.meanLeaderboard =
      leaderboards.empty() ? 0 : sum / static_cast<double>(leaderboards.size());
  return summary;
}

Status writePassesResults(const std::string &dir, const std::string &agent,
                          const std::vector<PassesOutcome> &outcomes) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": cannot create: " + ec.message());
  json results = json::array();
  for (const auto &outcome : outcomes)
    results.push_back(outcome.toJson());
  json document = {{"kind", "passes-eval"},
                   {"agent", agent},
                   {"summary", summarize(outcomes).toJson()},
                   {"results", results}};
  if (Status ok = writeFileAtomically(dir + "/passes-eval.json",
                                      document.dump(2) + "\n");
      !ok)
    return ok;
  std::ostringstream csv;
  csv << "uri,ic0,ic_oz,ic_o3,ic,leaderboard,oz_ratio,seconds,validated,"
         "passes,error\n";
  for (const auto &o : outcomes) {
    std::string passes;
    for (const auto &name : o.passes)
      passes += (passes.empty() ? "" : " ") + name;
    csv << o.uri << "," << o.ic0 << "," << o.icOz << "," << o.icO3 << ","
        << o.ic << "," << o.leaderboard() << "," << o.ozRatio() << ","
        << o.seconds << "," << (o.validated ? 1 : 0) << ",\"" << passes
        << "\",\"" << csvSafe(o.error) << "\"\n";
  }
  return writeFileAtomically(dir + "/passes-eval.csv", csv.str());
}

} // namespace rlopt::eval
