// What `rlopt passes train` and `rlopt graph train` share.
#include "DiscreteTrain.h"

#include "rlopt/agent/Cluster.h"
#include "rlopt/core/Json.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>

namespace rlopt::tool {

namespace {

std::atomic<bool> stopRequested{false};
void requestStop(int) { stopRequested = true; }

/// The run directory, created before anything else so that a path that
/// cannot be one fails at once with exit code `writeFailure`.
int createRunDirectory(const std::string &runDir, int writeFailure) {
  std::error_code ec;
  std::filesystem::create_directories(runDir, ec);
  if (ec)
    return fail(runDir + ": cannot create: " + ec.message(), writeFailure);
  return ExitOk;
}

} // namespace

Result<agent::discrete::AgentConfig>
readAgentConfig(const Args &args, const std::string &command) {
  nlohmann::json agentJson = nlohmann::json::object();
  if (args.has("config")) {
    auto loaded = readJsonFile(args.get("config"));
    if (!loaded)
      return loaded.error();
    agentJson = *loaded;
  }
  if (args.has("agent"))
    agentJson["algorithm"] = args.get("agent");
  std::string error;
  if (args.has("iterations"))
    agentJson["iterations"] = args.getInt("iterations", 0, 1, 1 << 30, error);
  if (args.has("seed"))
    agentJson["seed"] = args.getInt("seed", 0, 0, 1l << 40, error);
  if (!error.empty())
    return makeError(command + ": " + error);
  return agent::discrete::AgentConfig::fromJson(
      agentJson, args.has("config") ? args.get("config") : "--agent");
}

int trainDiscreteAgent(const std::string &command, const Args &args,
                       const agent::discrete::AgentConfig &config, Env &env,
                       const std::vector<std::string> &uris,
                       const nlohmann::json &envJson, int envWriteFailure,
                       const std::string &headline) {
  std::string runDir = args.get("out");
  bool resume = args.has("resume");
  // Under mpirun only the learner (rank 0) speaks and writes the run.
  agent::Cluster &cluster = agent::Cluster::get();
  if (cluster.learner())
    if (int code = createRunDirectory(runDir, envWriteFailure))
      return cluster.finish(code);
  std::vector<BenchmarkRef> benchmarks;
  for (const auto &uri : uris)
    benchmarks.push_back({uri});
  std::signal(SIGINT, requestStop);
  std::signal(SIGTERM, requestStop);
  agent::discrete::TrainOptions options;
  options.env = envJson;
  options.resume = resume;
  options.stopRequested = &stopRequested;
  options.showProgress = cluster.learner();
  std::string ranks =
      cluster.distributed() ? "; " + cluster.rolloutRanksText() : "";
  if (cluster.learner())
    std::fprintf(stderr, "%s%s\n", headline.c_str(), ranks.c_str());
  Status trained =
      agent::discrete::train(config, env, benchmarks, runDir, options);
  if (!trained)
    return cluster.finish(fail(trained.error().message, ExitFailure));
  if (!cluster.learner())
    return ExitOk;
  std::fprintf(stderr, "%s: %s; policy in %s/policy.pt\n", command.c_str(),
               stopRequested ? "stopped; checkpoint saved (--resume continues)"
                             : "done",
               runDir.c_str());
  return ExitOk;
}

} // namespace rlopt::tool
