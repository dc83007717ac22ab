#include "rlopt/eval/Evaluate.h"

#include "rlopt/agent/RandomSearch.h"
#include "rlopt/agent/linalg/PolicyRunner.h"
#include "rlopt/agent/linalg/TrainedEnv.h"
#include "rlopt/costmodel/ScheduleSearch.h"
#include "rlopt/eval/ExternalBaselines.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"

#include <cmath>
#include <optional>

namespace rlopt::eval {

bool isComputeBound(const std::string &opClass) {
  return opClass == "matmul" || opClass == "batch_matmul" ||
         opClass == "conv_2d" || opClass == "conv2d" || opClass == "matvec";
}

nlohmann::json BenchmarkResult::toJson() const {
  return {{"name", benchmark.name},
          {"class", benchmark.opClass},
          {"split", benchmark.split},
          {"flops", benchmark.flops},
          {"bytes", benchmark.bytes},
          {"schedule", schedule},
          {"error", error},
          {"baseline_ms", baselineMs},
          {"candidate_ms", candidateMs},
          {"baseline_spread", baselineSpread},
          {"candidate_spread", candidateSpread},
          {"speedup", speedup},
          {"correct", correct},
          {"cached", cached},
          {"gflops", gflops},
          {"percent_peak", percentPeak},
          {"gbps", gbps},
          {"percent_bandwidth", percentBandwidth},
          {"externals", externalsJson()}};
}

nlohmann::json BenchmarkResult::externalsJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const linalg::ExternalTiming &e : externals) {
    nlohmann::json item = {{"name", e.name},
                           {"ms", e.ms},
                           {"spread", e.spread},
                           {"correct", e.correct},
                           {"max_abs_error", e.maxAbsError},
                           {"impl", e.info},
                           {"error", e.error}};
    // > 1: the candidate is faster than the external implementation.
    if (e.ms > 0 && candidateMs > 0)
      item["candidate_vs_external"] = e.ms / candidateMs;
    list.push_back(item);
  }
  return list;
}

/// What an agent needs loaded once for all benchmarks: a policy with the
/// environment process it acts in, or the cost model of search:N.
struct LoadedAgent {
  agent::RunningPolicy policy;
  std::optional<costmodel::CostModel> costModel;
};

static linalg::HeuristicOptions heuristicOptions(const EvalOptions &options) {
  linalg::HeuristicOptions heuristic;
  heuristic.threads = options.env.measure.threads;
  heuristic.limits = options.env.measure.transformLimits;
  return heuristic;
}

/// Chooses the schedule with the agent and measures it.
static void runAgent(const EvalBenchmark &benchmark, const EvalOptions &options,
                     linalg::Program &program, measure::Cache *cache,
                     LoadedAgent *loaded, BenchmarkResult &result) {
  linalg::Schedule schedule;
  switch (options.agent.kind) {
  case AgentSpec::Kind::Policy: {
    auto episode =
        agent::runPolicyEpisode(*loaded->policy.server, *loaded->policy.policy,
                                benchmark.path, true, options.seed);
    if (!episode) {
      result.error = episode.error().message;
      return;
    }
    auto parsed = linalg::parseSchedule(episode->schedule);
    if (parsed)
      schedule = *parsed;
    break;
  }
  case AgentSpec::Kind::RandomTime: // not offered here
  case AgentSpec::Kind::Fixed: {
    if (!options.agent.is("heuristic"))
      break;
    schedule = linalg::heuristicSchedule(program, heuristicOptions(options));
    break;
  }
  case AgentSpec::Kind::Search: {
    // Candidates are measured without the external baselines; the winner
    // is measured again below with them, so its figure is a fresh sample.
    costmodel::SearchOptions search;
    search.budget = static_cast<int>(options.agent.episodes);
    search.seed = options.seed;
    search.heuristic = heuristicOptions(options);
    if (loaded->costModel)
      search.model = &*loaded->costModel;
    if (loaded->policy.policy) {
      auto proposed = agent::proposePolicySchedules(
          *loaded->policy.server, *loaded->policy.policy, benchmark.path,
          agent::kSearchPolicySamples, options.seed);
      if (!proposed) {
        result.error = proposed.error().message;
        return;
      }
      search.proposals = std::move(*proposed);
    }
    auto found =
        costmodel::searchSchedule(program, search, options.env.measure, cache);
    if (!found) {
      result.error = found.error().message;
      return;
    }
    schedule = found->schedule;
    break;
  }
  case AgentSpec::Kind::Random: {
    linalg::LinalgEnv env(options.env);
    auto search = agent::randomSearch(env, {benchmark.path},
                                      options.agent.episodes, options.seed);
    if (!search) {
      result.error = search.error().message;
      return;
    }
    auto parsed = linalg::parseSchedule(
        search->best.info.value("schedule", std::string()));
    if (parsed)
      schedule = *parsed;
    break;
  }
  }
  result.schedule = schedule.str();
  linalg::MeasureOptions measureOptions = options.env.measure;
  for (const std::string &name : options.baselines) {
    auto external = makeExternalBaseline(
        name, benchmark.opClass, benchmark.shapes, measureOptions.threads);
    if (external)
      measureOptions.externals.push_back(*external);
    else
      result.externals.push_back({name, external.error().message});
  }
  auto m = linalg::measureSchedule(program, schedule, measureOptions, cache);
  if (!m) {
    result.error = m.error().message;
    return;
  }
  result.baselineMs = m->baselineMs;
  result.candidateMs = m->candidateMs;
  result.baselineSpread = m->baselineSpread;
  result.candidateSpread = m->candidateSpread;
  result.speedup = m->speedup;
  result.correct = m->correct;
  result.cached = m->cached;
  // What ran is known where the baseline was made, also for cached timings.
  for (linalg::ExternalTiming e : m->externals) {
    for (const linalg::ExternalBaseline &external : measureOptions.externals)
      if (external.name == e.name)
        e.info = external.info;
    result.externals.push_back(e);
  }
  if (!m->correct)
    result.error = "wrong result (outputs differ from the baseline's)";
  if (m->candidateMs > 0) {
    result.gflops = benchmark.flops / (m->candidateMs * 1e6);
    result.gbps = benchmark.bytes / (m->candidateMs * 1e6);
    if (options.peakGflops > 0)
      result.percentPeak = 100 * result.gflops /
                           (options.peakGflops * options.env.measure.threads);
    // Of one thread's bandwidth: more threads share the same memory.
    if (options.bandwidthGbps > 0)
      result.percentBandwidth = 100 * result.gbps / options.bandwidthGbps;
  }
}

Result<std::vector<BenchmarkResult>>
evaluate(const std::vector<EvalBenchmark> &benchmarks,
         const EvalOptions &options, const std::function<void()> &onReady,
         const std::function<void(size_t, const BenchmarkResult &)> &onDone) {
  std::vector<BenchmarkResult> results;
  LoadedAgent loaded;
  if (options.agent.kind == AgentSpec::Kind::Policy ||
      (options.agent.kind == AgentSpec::Kind::Search &&
       !options.agent.policyPath.empty())) {
    linalg::EnvConfig env = options.env;
    if (options.agent.kind == AgentSpec::Kind::Search) {
      // The policy proposes in the settings it was trained with, and its
      // episodes measure nothing: the search measures what it picks.
      auto trained = agent::withTrainedActions(options.agent.policyPath, env);
      if (!trained)
        return trained.error();
      env = *trained;
      env.reward = linalg::RewardMode::None;
    }
    auto running = agent::startPolicy(options.agent.policyPath, env);
    if (!running)
      return running.error();
    loaded.policy = std::move(*running);
  }
  if (options.agent.kind == AgentSpec::Kind::Search &&
      !options.costModelPath.empty()) {
    auto model = costmodel::CostModel::load(options.costModelPath);
    if (!model)
      return model.error();
    loaded.costModel = std::move(*model);
  }
  if (onReady)
    onReady();
  auto context = linalg::createContext();
  std::unique_ptr<measure::Cache> cache;
  auto opened = measure::Cache::openOrDefault(options.env.cachePath);
  if (opened)
    cache = std::move(*opened);
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    BenchmarkResult result;
    result.benchmark = benchmarks[i];
    linalg::LoadOptions load;
    load.maxLoops = options.env.maxLoops;
    auto program = linalg::loadProgram(*context, benchmarks[i].path, load);
    if (!program)
      result.error = program.error().message;
    else if (!cache)
      result.error = opened.error().message;
    else
      runAgent(benchmarks[i], options, *program, cache.get(), &loaded, result);
    if (onDone)
      onDone(i, result);
    results.push_back(std::move(result));
  }
  return results;
}

} // namespace rlopt::eval
