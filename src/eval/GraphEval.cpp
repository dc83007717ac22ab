// Graph pass-ordering evaluation: I, D and R per graph, and the XLA
// pass-ordering paper's metric (I - R) / (I - D).
#include "rlopt/eval/GraphEval.h"

#include "rlopt/agent/SequenceSearch.h"
#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/core/File.h"
#include "rlopt/core/Progress.h"
#include "rlopt/graph/GraphPass.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace rlopt::eval {

using nlohmann::json;

double GraphOutcome::paperMetric() const {
  int64_t gain = initial - pipeline;
  return gain > 0 ? static_cast<double>(initial - agent) / gain : 0;
}

json GraphOutcome::toJson() const {
  json out = {{"uri", uri},
              {"passes", passes},
              {"I", initial},
              {"D", pipeline},
              {"R", agent},
              {"metric", paperMetric()},
              {"ratio", opCountRatio()},
              {"seconds", seconds}};
  if (!error.empty())
    out["error"] = error;
  return out;
}

json GraphSummary::toJson() const {
  return {{"geomean_metric", geomeanPaperMetric},
          {"mean_metric", meanPaperMetric},
          {"geomean_ratio", geomeanRatio},
          {"succeeded", succeeded},
          {"failed", failed},
          {"non_positive_metric", nonPositive},
          {"without_pipeline_gain", withoutPipelineGain}};
}

namespace {

using Clock = std::chrono::steady_clock;

Status checkAgent(const std::string &agent) {
  if (agent == "default" || agent == "greedy" || agent.rfind("policy:", 0) == 0)
    return Status::success();
  if (agent.rfind("random:", 0) == 0) {
    char *end = nullptr;
    long episodes = std::strtol(agent.c_str() + 7, &end, 10);
    if (end && *end == '\0' && episodes > 0)
      return Status::success();
    return makeError("agent '" + agent +
                     "': expected random:EPISODES with EPISODES > 0");
  }
  return makeError("agent '" + agent +
                   "': expected default, greedy, random:EPISODES or "
                   "policy:PATH");
}

Result<std::vector<Action>>
runAgent(graph::GraphEnv &env, const std::string &uri,
         const GraphEvalOptions &options,
         const agent::discrete::DiscretePolicy *policy) {
  BenchmarkRef benchmark{uri};
  if (policy) {
    auto episode = agent::discrete::runGreedyEpisode(*policy, env, benchmark,
                                                     options.seed);
    if (!episode)
      return episode.error();
    std::vector<Action> actions;
    for (int64_t value : episode->actions)
      actions.push_back(Action{{value}});
    if (episode->finalInfo.contains("error") && !actions.empty())
      actions.pop_back();
    return actions;
  }
  if (options.agent == "greedy") {
    auto found = agent::greedySearch(env, benchmark, options.env.episodeLength);
    if (!found)
      return found.error();
    return found->actions;
  }
  agent::SearchBudget budget;
  budget.maxEpisodes = std::stol(options.agent.substr(7));
  auto found =
      agent::randomSequenceSearch(env, benchmark, budget, options.seed);
  if (!found)
    return found.error();
  return found->actions;
}

GraphOutcome evaluateOne(graph::GraphEnv &env, const std::string &uri,
                         const GraphEvalOptions &options,
                         const agent::discrete::DiscretePolicy *policy) {
  GraphOutcome outcome;
  outcome.uri = uri;
  if (auto started = env.tryReset(uri); !started) {
    outcome.error = started.error().message;
    return outcome;
  }
  outcome.initial = env.initialOpCount();
  auto pipeline = env.defaultPipelineOpCount();
  if (!pipeline) {
    outcome.error = "default pipeline: " + pipeline.error().message;
    return outcome;
  }
  outcome.pipeline = *pipeline;
  auto start = Clock::now();
  if (options.agent == "default") {
    outcome.agent = *pipeline;
    outcome.passes = {"default-pipeline"};
    return outcome;
  }
  auto actions = runAgent(env, uri, options, policy);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!actions) {
    outcome.error = actions.error().message;
    return outcome;
  }
  for (const Action &action : *actions)
    outcome.passes.push_back(graph::graphPasses()[action.values[0]].name);
  auto replayed = agent::replayActions(env, {uri}, *actions);
  if (!replayed) {
    outcome.error = "replay: " + replayed.error().message;
    return outcome;
  }
  outcome.agent = env.opCount();
  return outcome;
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

Result<std::vector<GraphOutcome>>
evaluateGraphs(const std::vector<std::string> &uris,
               const GraphEvalOptions &options) {
  if (Status ok = checkAgent(options.agent); !ok)
    return ok.error();
  if (uris.empty())
    return makeError("no graphs to evaluate");
  // Searches keep the best prefix by summed reward, so they need the
  // reduction form (the paper's per-state reward is always negative). The
  // observation, which a policy depends on, stays as configured.
  graph::GraphEnvConfig config = options.env;
  config.reward = "OpCountReduction";
  config.shaping = false;
  auto env = graph::GraphEnv::create(config);
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
  std::vector<GraphOutcome> outcomes;
  ProgressBar bar("graph eval " + options.agent, uris.size());
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

GraphSummary summarizeGraphs(const std::vector<GraphOutcome> &outcomes) {
  GraphSummary summary;
  std::vector<double> metrics, ratios;
  double sum = 0;
  for (const auto &outcome : outcomes) {
    if (!outcome.error.empty()) {
      ++summary.failed;
      continue;
    }
    ++summary.succeeded;
    ratios.push_back(outcome.opCountRatio());
    if (outcome.initial <= outcome.pipeline) {
      ++summary.withoutPipelineGain;
      continue;
    }
    double value = outcome.paperMetric();
    sum += value;
    summary.nonPositive += value <= 0;
    metrics.push_back(std::max(value, 1e-3));
  }
  summary.geomeanPaperMetric = geomean(metrics);
  summary.meanPaperMetric =
      metrics.empty() ? 0 : sum / static_cast<double>(metrics.size());
  summary.geomeanRatio = geomean(ratios);
  return summary;
}

Status writeGraphResults(const std::string &dir, const std::string &agent,
                         const std::vector<GraphOutcome> &outcomes) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": cannot create: " + ec.message());
  json results = json::array();
  for (const auto &outcome : outcomes)
    results.push_back(outcome.toJson());
  json document = {{"kind", "graph-eval"},
                   {"agent", agent},
                   {"summary", summarizeGraphs(outcomes).toJson()},
                   {"results", results}};
  if (Status ok = writeFileAtomically(dir + "/graph-eval.json",
                                      document.dump(2) + "\n");
      !ok)
    return ok;
  std::ostringstream csv;
  csv << "uri,I,D,R,metric,ratio,seconds,passes,error\n";
  for (const auto &o : outcomes) {
    std::string passes;
    for (const auto &name : o.passes)
      passes += (passes.empty() ? "" : " ") + name;
    std::string error = o.error;
    for (char &c : error)
      if (c == '"' || c == '\n')
        c = '\'';
    csv << o.uri << "," << o.initial << "," << o.pipeline << "," << o.agent
        << "," << o.paperMetric() << "," << o.opCountRatio() << "," << o.seconds
        << ",\"" << passes << "\",\"" << error << "\"\n";
  }
  return writeFileAtomically(dir + "/graph-eval.csv", csv.str());
}

} // namespace rlopt::eval
