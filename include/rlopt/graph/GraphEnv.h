#ifndef RLOPT_GRAPH_GRAPHENV_H
#define RLOPT_GRAPH_GRAPHENV_H

#include "rlopt/core/Env.h"
#include "rlopt/core/Result.h"
#include "rlopt/core/TransitionMemory.h"
#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/Module.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rlopt::graph {

/// The graph environment's settings, with the XLA pass-ordering paper's
/// choices as defaults.
struct GraphEnvConfig {
  /// "OpCount": per-opcode counts over the module, divided by the start's
  /// total op count. "OpCountCost": the same plus FLOPs and transcendentals,
  /// each divided by its value at the start.
  std::string observation = "OpCount";
  /// "OpCount": the paper's reward, -(op count of the new state) / (op
  /// count at the start). "OpCountReduction": (previous - new) / start, whose
  /// episode sum is the relative reduction. "RooflineTime" and
  /// "RooflineTimeReduction": the same over the run time estimated on the
  /// machine's roofline (estimateSeconds), which needs `roofline`.
  std::string reward = "OpCount";
  /// The roofline of the RooflineTime rewards: peak_gflops and
  /// bandwidth_gbps in a config file, as `rlopt peak` measures them.
  Roofline roofline;
  /// Adds the potential-based shaping gamma * phi(s') - phi(s) with
  /// phi(s) = -(FLOPs + 2 * transcendentals) / (the same at the start).
  bool shaping = false;
  double shapingGamma = 0.99;
  int episodeLength = 20;
  /// Masks every pass that left the current graph unchanged until another
  /// pass changes it. Passes are deterministic, so such a step is a known
  /// no-op; without the mask a greedy policy that picks one repeats it for
  /// the rest of the episode. When every pass is known to change nothing
  /// (a fixed point) all are allowed again. False gives the paper's unmasked
  /// action space.
  bool maskUnchangedPasses = true;
  /// Where `hlo://NAME` URIs are found: `DIR/NAME.hlo` or `DIR/NAME.txt`.
  std::string graphDir;

  /// The reward is one of the RooflineTime ones.
  bool usesRoofline() const;

  static Result<GraphEnvConfig> fromJson(const nlohmann::json &json,
                                         const std::string &where);
  nlohmann::json toJson() const;
};

/// The XLA pass-ordering paper's environment over rlopt's HLO layer: each
/// step runs one graph pass on the whole module.
class GraphEnv : public Env {
public:
  static Result<std::unique_ptr<GraphEnv>> create(const GraphEnvConfig &config);

  const Spaces &spaces() const override { return envSpaces; }
  Result<Observation> tryReset(const BenchmarkRef &benchmark,
                               uint64_t seed) override;
  StepResult step(const Action &action) override;
  std::unique_ptr<Env> fork() const override;

  /// The run time estimated on the config's roofline; 0 without one.
  double estimatedSeconds() const { return currentSeconds; }

  /// Op count now, at the start, and after the default pipeline (D).
  int64_t opCount() const;
  int64_t initialOpCount() const { return initialOps; }
  Result<int64_t> defaultPipelineOpCount();
  /// The run time estimated at the start and after D; 0 without a roofline.
  double initialEstimatedSeconds() const { return initialSeconds; }
  Result<double> defaultPipelineSeconds();

  const Module &module() const { return current; }
  Module &mutableModule() { return current; }
  const std::string &benchmarkUri() const { return uri; }
  const std::vector<int> &actionHistory() const { return history; }
  double episodeReward() const { return totalReward; }
  const GraphEnvConfig &config() const { return cfg; }

  /// Resolves `hlo://NAME`, `file://PATH` or a path to a file path.
  Result<std::string> resolve(const std::string &uri) const;
  /// The `hlo://` URIs of every graph under the graph directory, sorted.
  std::vector<std::string> graphUris() const;
  /// The graph URIs of a split: "train", "test" (the graph directory's
  /// splits.json lists the test graphs) or "all".
  Result<std::vector<std::string>> splitUris(const std::string &split) const;

private:
  struct Shared;
  GraphEnv(GraphEnvConfig config, std::shared_ptr<Shared> shared);
  Observation observation() const;
  std::vector<uint8_t> actionMask() const;
  double potential() const;
  /// Estimated once per change of the graph: it walks the whole module.
  double timeOfCurrentGraph() const { return timeOf(current); }
  double timeOf(const Module &module) const;
  struct PipelineResult {
    int64_t ops = 0;
    double seconds = 0;
  };
  /// D on the episode's graph, computed once per graph and shared by forks.
  Result<PipelineResult> defaultPipelineResult();

  GraphEnvConfig cfg;
  std::shared_ptr<Shared> shared;
  Spaces envSpaces;
  std::string uri;
  Module current;
  std::vector<int> history;
  /// What each pass did this episode, graphs named by how many passes had
  /// changed them: a pass is known to change nothing only until the graph
  /// changes.
  TransitionMemory transitions;
  int64_t initialOps = 0;
  double initialFlops = 0, initialTranscendentals = 0;
  double initialSeconds = 0, currentSeconds = 0;
  double totalReward = 0;
  bool ended = true;
};

} // namespace rlopt::graph

#endif
