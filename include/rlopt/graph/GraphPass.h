#ifndef RLOPT_GRAPH_GRAPHPASS_H
#define RLOPT_GRAPH_GRAPHPASS_H

#include "rlopt/core/Result.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rlopt::graph {

class Module;

/// One action of the graph pass-ordering environment: a deterministic
/// rewrite of a whole HLO module, named after the XLA pass it mirrors.
struct GraphPass {
  std::string name;     ///< e.g. "algsimp-reshape", "cse", "dce"
  std::string mirrors;  ///< the XLA pass, e.g. "AlgebraicSimplifier"
  std::string rewrites; ///< one line: what it rewrites and what it leaves out
  /// Runs the pass; returns whether the module changed. An Error means the
  /// pass found something it cannot handle and left the module unchanged.
  std::function<Result<bool>(Module &)> run;
};

/// The action list in a fixed order: its index is the action value.
const std::vector<GraphPass> &graphPasses();

/// The index of the pass named `name`, if there is one.
std::optional<int> findGraphPass(const std::string &name);

/// Passes the default pipeline runs in the configuration XLA's CPU backend
/// gives them, where that differs from the action's; they are not actions.
const std::vector<GraphPass> &cpuConfiguredPasses();

/// The pass named `name` among the actions, then among
/// cpuConfiguredPasses(); null if there is none.
const GraphPass *findPipelinePass(const std::string &name);

/// One phase of the default pipeline: its passes in order, run once or
/// repeated until a round changes nothing (XLA's HloPassFix).
struct PipelinePhase {
  std::string name;
  std::vector<std::string> passes;
  bool toFixedPoint = false;
};

/// XLA's CPU HLO pipeline rebuilt from these passes (the baseline D of the
/// XLA pass-ordering paper), phase by phase.
const std::vector<PipelinePhase> &defaultPipeline();

/// Runs defaultPipeline(): each fixed-point phase for at most `maxRounds`
/// rounds; returns how many phase runs changed the module.
Result<int> runDefaultPipeline(Module &module, int maxRounds = 25);

} // namespace rlopt::graph

#endif
