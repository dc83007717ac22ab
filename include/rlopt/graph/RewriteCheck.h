#ifndef RLOPT_GRAPH_REWRITECHECK_H
#define RLOPT_GRAPH_REWRITECHECK_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Interpreter.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::graph {

class Module;

struct RewriteCheckOptions {
  /// Argument sets to compare on. They differ in more than the seed: the
  /// second keeps floats small and integers 0/1 (so attention masks and
  /// indices take both values without saturating a softmax), the third
  /// makes floats large; further ones repeat the pattern with new seeds.
  int argumentSets = 3;
  double rtol = 1e-4, atol = 1e-5;
  /// Without rounding to the element type: passes legitimately reorder and
  /// expand floating-point math, which in bf16 moves results by more than
  /// any useful tolerance, while a wrong rewrite moves them by far more.
  InterpreterOptions interpreter = [] {
    InterpreterOptions options;
    options.roundToElementType = false;
    return options;
  }();
};

/// What comparing a rewritten module with its original on the interpreter
/// found, and what it compared.
struct RewriteCheck {
  int argumentSets = 0;  ///< evaluated on both modules
  int64_t compared = 0;  ///< output elements finite in the original
  int64_t notFinite = 0; ///< NaN or infinite in the original
  std::vector<std::string> errors;

  /// Something was compared and nothing differed. Outputs the original
  /// computes as NaN everywhere check nothing, so they do not pass.
  bool ok() const { return errors.empty() && compared > 0; }
  /// For example "3 argument sets, 12,288 finite output elements (96 NaN or
  /// infinite in the original, only checked to stay so)".
  std::string checked() const;
  nlohmann::json toJson() const;
};

/// Evaluates both modules on the same arguments and compares their outputs:
/// a finite element must agree within the tolerance, and an element the
/// original computes as finite must not become NaN or infinite. An
/// interpreter error on either module (an unsupported custom-call, a value
/// over the limits) is reported, never passed.
RewriteCheck checkRewrite(const Module &original, const Module &rewritten,
                          const RewriteCheckOptions &options = {});

} // namespace rlopt::graph

#endif
