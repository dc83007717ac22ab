#ifndef RLOPT_PASSES_PASSCATALOG_H
#define RLOPT_PASSES_PASSCATALOG_H

#include <optional>
#include <string>
#include <vector>

namespace rlopt::passes {

/// One action of the pass-ordering environment: a single LLVM 19
/// new-pass-manager pass, named by its `opt -passes=` pipeline text.
struct PassAction {
  std::string name;    ///< the pipeline text, e.g. "licm" or "gvn<no-pre>"
  std::string level;   ///< module, cgscc, function, loop or loopnest
  std::string purpose; ///< one line: what it rewrites
  /// The pipeline text that runs it when it differs from the name, e.g.
  /// instcombine without LLVM 19's fixpoint self-check (which aborts).
  std::string pipeline;
  /// Why the action is always masked and refused, when it is: it keeps its
  /// index, so trained policies still load, but never runs.
  std::string disabled;
  const std::string &pipelineText() const {
    return pipeline.empty() ? name : pipeline;
  }
};

/// A pass that is deliberately not an action, and why.
struct ExcludedPass {
  std::string name;
  std::string reason;
};

/// The action list, in a fixed order: its index is the action value.
const std::vector<PassAction> &passActions();

/// Passes LLVM 19 registers that are not actions, each with the reason.
const std::vector<ExcludedPass> &excludedPasses();

/// The index of the action named `name`, if it is one.
std::optional<int> findPassAction(const std::string &name);

} // namespace rlopt::passes

#endif
