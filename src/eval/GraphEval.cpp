// Graph pass-ordering evaluation: I, D and R per graph, and the XLA
// pass-ordering paper's metric (I - R) / (I - D).
#include "rlopt/eval/GraphEval.h"

#include "rlopt/eval/EvalLoop.h"
#include "rlopt/eval/ResultTable.h"
#include "rlopt/graph/GraphPass.h"

#include <cmath>
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
  if (pipelineTime > 0) {
    out["time_I"] = initialTime;
    out["time_D"] = pipelineTime;
    out["time_R"] = agentTime;
    out["speedup_over_D"] = speedupOverPipeline();
  }
  if (!error.empty())
    out["error"] = error;
  return out;
}

json GraphSummary::toJson() const {
  json out = {{"geomean_metric", geomeanPaperMetric},
              {"mean_metric", meanPaperMetric},
              {"geomean_ratio", geomeanRatio},
              {"succeeded", succeeded},
              {"failed", failed},
              {"non_positive_metric", nonPositive},
              {"without_pipeline_gain", withoutPipelineGain}};
  if (geomeanSpeedupOverPipeline > 0)
    out["geomean_speedup_over_D"] = geomeanSpeedupOverPipeline;
  return out;
}

namespace {

const AgentChoices kGraphAgents = {{"default", "greedy"}, true, true};

GraphOutcome evaluateOne(graph::GraphEnv &env, const std::string &uri,
                         const GraphEvalOptions &options,
                         const AgentSpec &agent,
                         const agent::discrete::DiscretePolicy *policy) {
  GraphOutcome outcome;
  outcome.uri = uri;
  if (auto started = env.tryReset({uri}, 0); !started) {
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
  auto pipelineTime = env.defaultPipelineSeconds();
  if (!pipelineTime) {
    outcome.error = "default pipeline: " + pipelineTime.error().message;
    return outcome;
  }
  outcome.initialTime = env.initialEstimatedSeconds();
  outcome.pipelineTime = *pipelineTime;
  if (agent.is("default")) {
    outcome.agent = *pipeline;
    outcome.agentTime = *pipelineTime;
    outcome.passes = {"default-pipeline"};
    return outcome;
  }
  if (!runAndReplay(env, uri, outcome, agent, policy, options.seed,
                    options.env.episodeLength, [](const Action &a) {
                      return graph::graphPasses()[a.values[0]].name;
                    }))
    return outcome;
  outcome.agent = env.opCount();
  outcome.agentTime = env.estimatedSeconds();
  return outcome;
}

} // namespace

Result<std::vector<GraphOutcome>>
evaluateGraphs(const std::vector<std::string> &uris,
               const GraphEvalOptions &options) {
  auto agent = AgentSpec::parse(options.agent, kGraphAgents);
  if (!agent)
    return agent.error();
  if (uris.empty())
    return makeError("no graphs to evaluate");
  // Searches keep the best prefix by summed reward, so they need the
  // reduction form (the paper's per-state reward is always negative) of
  // the configured quantity. The observation, which a policy depends on,
  // stays as configured.
  graph::GraphEnvConfig config = options.env;
  config.reward =
      config.usesRoofline() ? "RooflineTimeReduction" : "OpCountReduction";
  config.shaping = false;
  auto env = graph::GraphEnv::create(config);
  if (!env)
    return env.error();
  return evaluateEach("graph eval", **env, uris, options, *agent, evaluateOne);
}

GraphSummary summarizeGraphs(const std::vector<GraphOutcome> &outcomes) {
  std::vector<OutcomeScore> scores;
  for (const auto &outcome : outcomes) {
    // The metric is undefined where the default pipeline removes nothing.
    std::optional<double> metric;
    if (outcome.initial > outcome.pipeline)
      metric = outcome.paperMetric();
    scores.push_back({!outcome.error.empty(), outcome.opCountRatio(), metric});
  }
  ScoreSummary s = summarizeScores(scores);
  GraphSummary summary{
      s.geomeanMetric, s.meanMetric, s.geomeanRatio, 0,
      s.succeeded,     s.failed,     s.nonPositive,  s.unscored};
  double logSum = 0;
  int timed = 0;
  for (const auto &outcome : outcomes)
    if (outcome.error.empty() && outcome.speedupOverPipeline() > 0) {
      logSum += std::log(outcome.speedupOverPipeline());
      ++timed;
    }
  if (timed > 0)
    summary.geomeanSpeedupOverPipeline = std::exp(logSum / timed);
  return summary;
}

Status writeGraphResults(const std::string &dir, const std::string &agent,
                         const std::vector<GraphOutcome> &outcomes) {
  std::ostringstream csv;
  csv << "uri,I,D,R,metric,ratio,time_I,time_D,time_R,speedup_over_D,"
         "seconds,passes,error\n";
  for (const auto &o : outcomes)
    csv << o.uri << "," << o.initial << "," << o.pipeline << "," << o.agent
        << "," << o.paperMetric() << "," << o.opCountRatio() << ","
        << o.initialTime << "," << o.pipelineTime << "," << o.agentTime << ","
        << o.speedupOverPipeline() << "," << o.seconds << ","
        << csvPassesAndError(o.passes, o.error) << "\n";
  return writeResultFiles(
      dir, "graph-eval",
      resultsDocument(agent, summarizeGraphs(outcomes), outcomes), csv.str());
}

} // namespace rlopt::eval
