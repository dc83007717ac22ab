// The graph pass-ordering environment (XLA pass-ordering paper).
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/core/ConfigFields.h"
#include "rlopt/core/Json.h"
#include "rlopt/core/Splits.h"
#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/OpCount.h"
#include "rlopt/graph/Opcode.h"
#include "rlopt/graph/Parser.h"
#include "rlopt/graph/Verifier.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

namespace rlopt::graph {

namespace fs = std::filesystem;

namespace {

constexpr const char *kHloPrefix = "hlo://";
constexpr const char *kFilePrefix = "file://";

// A name under hlo:// is a relative path of plain components: anything
// else could name a file outside the dataset.
bool isPlainRelativeName(const std::string &name) {
  if (name.empty() || name.front() == '/' ||
      name.find_first_of(std::string("\\\0", 2)) != std::string::npos)
    return false;
  size_t start = 0;
  while (true) {
    size_t slash = name.find('/', start);
    std::string part = name.substr(
        start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..")
      return false;
    if (slash == std::string::npos)
      return true;
    start = slash + 1;
  }
}

// Symbolic links may still lead out: the file itself must lie under the
// directory.
bool isInside(const fs::path &file, const fs::path &directory) {
  std::error_code ec;
  fs::path resolvedFile = fs::canonical(file, ec);
  if (ec)
    return false;
  fs::path resolvedDirectory = fs::canonical(directory, ec);
  if (ec)
    return false;
  auto [end, unused] =
      std::mismatch(resolvedDirectory.begin(), resolvedDirectory.end(),
                    resolvedFile.begin(), resolvedFile.end());
  return end == resolvedDirectory.end();
}

Cost costOrZero(const Module &module) {
  auto cost = analyzeCost(module);
  return cost ? *cost : Cost{};
}

} // namespace

struct GraphEnv::Shared {
  std::map<std::string, Module> pristine;                ///< by resolved path
  std::map<std::string, PipelineResult> pipelineResults; ///< D, by path
};

/// The keys of an env config file; graphDir is where the CLI finds graphs,
/// not a setting of the environment.
template <typename Visit>
static void visitFields(GraphEnvConfig &c, Visit &&visit) {
  visit("observation", c.observation);
  visit("reward", c.reward);
  visit("shaping", c.shaping);
  visit("shaping_gamma", c.shapingGamma);
  visit("episode_length", c.episodeLength);
  visit("mask_unchanged_passes", c.maskUnchangedPasses);
  visit("peak_gflops", c.roofline.gflops);
  visit("bandwidth_gbps", c.roofline.gbps);
}

bool GraphEnvConfig::usesRoofline() const {
  return reward == "RooflineTime" || reward == "RooflineTimeReduction";
}

Result<GraphEnvConfig> GraphEnvConfig::fromJson(const nlohmann::json &json,
                                                const std::string &where) {
  return fieldsFromJson<GraphEnvConfig>(json, where);
}

nlohmann::json GraphEnvConfig::toJson() const {
  nlohmann::json json = fieldsToJson(*this);
  // Only the roofline rewards read it: other configs, and the runs that
  // recorded them, stay as they were.
  if (!usesRoofline()) {
    json.erase("peak_gflops");
    json.erase("bandwidth_gbps");
  }
  return json;
}

Result<std::unique_ptr<GraphEnv>>
GraphEnv::create(const GraphEnvConfig &config) {
  if (config.observation != "OpCount" && config.observation != "OpCountCost")
    return makeError("observation '" + config.observation +
                     "': expected OpCount or OpCountCost");
  if (config.reward != "OpCount" && config.reward != "OpCountReduction" &&
      !config.usesRoofline())
    return makeError("reward '" + config.reward +
                     "': expected OpCount, OpCountReduction, RooflineTime or "
                     "RooflineTimeReduction");
  if (config.usesRoofline() &&
      !(config.roofline.gflops > 0 && config.roofline.gbps > 0))
    return makeError("reward '" + config.reward +
                     "' needs peak_gflops and bandwidth_gbps above 0 "
                     "(`rlopt peak` measures them)");
  if (config.episodeLength < 1)
    return makeError("episode_length must be at least 1");
  if (graphPasses().empty())
    return makeError("no graph passes are registered");
  return std::unique_ptr<GraphEnv>(
      new GraphEnv(config, std::make_shared<Shared>()));
}

GraphEnv::GraphEnv(GraphEnvConfig config, std::shared_ptr<Shared> shared)
    : cfg(std::move(config)), shared(std::move(shared)) {
  int64_t features = kNumOpcodes + (cfg.observation == "OpCountCost" ? 2 : 0);
  envSpaces.observation.shape = {features};
  envSpaces.observation.low = 0;
  envSpaces.observation.high = std::numeric_limits<float>::max();
  envSpaces.action.nvec = {static_cast<int64_t>(graphPasses().size())};
  envSpaces.action.names = {"pass"};
}

Result<std::string> GraphEnv::resolve(const std::string &name) const {
  std::string path;
  if (name.rfind(kHloPrefix, 0) == 0) {
    std::string relative = name.substr(strlen(kHloPrefix));
    if (!isPlainRelativeName(relative))
      return makeError(name + ": not a bundled graph name (hlo:// names a "
                              "graph of the dataset, without '..', '.', "
                              "empty or absolute parts)");
    std::string base = cfg.graphDir + "/" + relative;
    for (const char *ext : {".hlo", ".txt", ""})
      if (fs::is_regular_file(base + ext)) {
        if (!isInside(base + ext, cfg.graphDir))
          return makeError(name + ": leads outside the graph directory " +
                           cfg.graphDir);
        return base + ext;
      }
    return makeError(name + ": unknown graph (rlopt graph list shows them)");
  }
  path =
      name.rfind(kFilePrefix, 0) == 0 ? name.substr(strlen(kFilePrefix)) : name;
  if (name.find("://") != std::string::npos && name.rfind(kFilePrefix, 0) != 0)
    return makeError(name + ": unknown URI scheme (expected hlo://NAME, "
                            "file://PATH or a path)");
  if (!fs::is_regular_file(path))
    return makeError(path + ": no such file");
  return path;
}

std::vector<std::string> GraphEnv::graphUris() const {
  std::vector<std::string> uris;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(cfg.graphDir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path &path = it->path();
    if (!it->is_regular_file() ||
        (path.extension() != ".hlo" && path.extension() != ".txt"))
      continue;
    fs::path relative = fs::relative(path, cfg.graphDir);
    relative.replace_extension();
    uris.push_back(kHloPrefix + relative.generic_string());
  }
  std::sort(uris.begin(), uris.end());
  return uris;
}

Result<std::vector<std::string>>
GraphEnv::splitUris(const std::string &split) const {
  std::vector<std::string> all = graphUris();
  if (split == "all")
    return all;
  auto splits = readSplits(cfg.graphDir + "/splits.json", all);
  if (!splits)
    return splits.error();
  return splits->of(split, all);
}

Result<Observation> GraphEnv::tryReset(const BenchmarkRef &benchmark,
                                       uint64_t) {
  const std::string &name = benchmark.uri;
  ended = true; // until the new episode has started
  auto path = resolve(name);
  if (!path)
    return path.error();
  auto cached = shared->pristine.find(*path);
  if (cached == shared->pristine.end()) {
    auto parsed = parseModuleFile(*path);
    if (!parsed)
      return parsed.error();
    if (Status valid = verifyModule(*parsed); !valid)
      return makeError(*path + ": " + valid.error().message);
    cached = shared->pristine.emplace(*path, parsed.takeValue()).first;
  }
  uri = name;
  current = cached->second.clone();
  history.clear();
  transitions.reset(0);
  totalReward = 0;
  ended = false;
  initialOps = opCount();
  initialSeconds = currentSeconds = timeOfCurrentGraph();
  Cost cost = costOrZero(current);
  initialFlops = cost.flops;
  initialTranscendentals = cost.transcendentals;
  return observation();
}

int64_t GraphEnv::opCount() const { return countModuleOps(current).total; }

double GraphEnv::timeOf(const Module &module) const {
  if (!cfg.usesRoofline())
    return 0;
  auto seconds = estimateSeconds(module, cfg.roofline);
  return seconds ? *seconds : 0;
}

Result<GraphEnv::PipelineResult> GraphEnv::defaultPipelineResult() {
  auto path = resolve(uri);
  if (!path)
    return path.error();
  auto cached = shared->pipelineResults.find(*path);
  if (cached != shared->pipelineResults.end())
    return cached->second;
  Module copy = shared->pristine.at(*path).clone();
  auto rounds = runDefaultPipeline(copy);
  if (!rounds)
    return rounds.error();
  PipelineResult result{countModuleOps(copy).total, timeOf(copy)};
  shared->pipelineResults[*path] = result;
  return result;
}

Result<int64_t> GraphEnv::defaultPipelineOpCount() {
  auto result = defaultPipelineResult();
  if (!result)
    return result.error();
  return result->ops;
}

Result<double> GraphEnv::defaultPipelineSeconds() {
  auto result = defaultPipelineResult();
  if (!result)
    return result.error();
  return result->seconds;
}

double GraphEnv::potential() const {
  double start = initialFlops + 2 * initialTranscendentals;
  if (start <= 0)
    return 0;
  Cost cost = costOrZero(current);
  return -(cost.flops + 2 * cost.transcendentals) / start;
}

Observation GraphEnv::observation() const {
  Observation obs;
  OpCounts counts = countModuleOps(current);
  double scale = initialOps > 0 ? static_cast<double>(initialOps) : 1;
  for (int64_t count : counts.perOpcode)
    obs.features.push_back(static_cast<float>(count / scale));
  if (cfg.observation == "OpCountCost") {
    Cost cost = costOrZero(current);
    obs.features.push_back(
        static_cast<float>(initialFlops > 0 ? cost.flops / initialFlops : 0));
    obs.features.push_back(
        static_cast<float>(initialTranscendentals > 0
                               ? cost.transcendentals / initialTranscendentals
                               : 0));
  }
  obs.masks = {actionMask()};
  return obs;
}

std::vector<uint8_t> GraphEnv::actionMask() const {
  std::vector<uint8_t> mask(graphPasses().size(), 1);
  if (cfg.maskUnchangedPasses)
    transitions.maskKnown(mask, /*revisits=*/false);
  return mask;
}

StepResult GraphEnv::step(const Action &action) {
  StepResult result;
  if (ended)
    return endWithError(kStepOutsideEpisode);
  const auto &passes = graphPasses();
  if (auto problem = whyOutsideSpace(action, envSpaces.action)) {
    ended = true;
    return endWithError(*problem, observation());
  }
  int index = static_cast<int>(action.values[0]);
  const GraphPass &pass = passes[index];
  result.info["pass"] = pass.name;
  int64_t before = opCount();
  double secondsBefore = currentSeconds;
  double potentialBefore = cfg.shaping ? potential() : 0;
  // A pass that left this very graph unchanged would do so again.
  Result<bool> changed = transitions.knownUnchanged(index) ? Result<bool>(false)
                                                           : pass.run(current);
  history.push_back(index);
  if (changed) {
    if (Status valid = verifyModule(current); !valid)
      changed = Error{"pass '" + pass.name +
                      "' left an invalid module: " + valid.error().message};
  }
  if (!changed) {
    ended = true;
    result.terminated = true;
    result.info["error"] = changed.error().message;
    return result;
  }
  if (*changed)
    currentSeconds = timeOfCurrentGraph();
  transitions.record(index, transitions.state() + (*changed ? 1 : 0));
  int64_t after = opCount();
  if (cfg.usesRoofline()) {
    double secondsAfter = currentSeconds;
    double scale = initialSeconds > 0 ? initialSeconds : 1;
    result.reward = cfg.reward == "RooflineTime"
                        ? -secondsAfter / scale
                        : (secondsBefore - secondsAfter) / scale;
    result.info["estimated_s"] = secondsAfter;
  } else {
    double scale = initialOps > 0 ? static_cast<double>(initialOps) : 1;
    result.reward =
        cfg.reward == "OpCount" ? -after / scale : (before - after) / scale;
  }
  if (cfg.shaping)
    result.reward += cfg.shapingGamma * potential() - potentialBefore;
  totalReward += result.reward;
  result.info["changed"] = *changed;
  result.info["op_count"] = after;
  result.obs = observation();
  if (static_cast<int>(history.size()) >= cfg.episodeLength) {
    ended = true;
    result.truncated = true;
  }
  return result;
}

std::unique_ptr<Env> GraphEnv::fork() const {
  std::unique_ptr<GraphEnv> copy(new GraphEnv(cfg, shared));
  copy->uri = uri;
  copy->current = current.clone();
  copy->history = history;
  copy->transitions = transitions;
  copy->initialOps = initialOps;
  copy->initialFlops = initialFlops;
  copy->initialTranscendentals = initialTranscendentals;
  copy->initialSeconds = initialSeconds;
  copy->currentSeconds = currentSeconds;
  copy->totalReward = totalReward;
  copy->ended = ended;
  return copy;
}

} // namespace rlopt::graph
