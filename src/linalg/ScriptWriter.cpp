#include "rlopt/linalg/ScriptWriter.h"

namespace rlopt::linalg {

std::string ScriptWriter::fresh(const std::string &base) {
  std::string stem = base[0] == '%' ? base.substr(1) : base;
  unsigned n = counters[stem]++;
  return "%" + stem + "_" + std::to_string(n);
}

std::string ScriptWriter::tileUsingFor(const std::string &handle,
                                       const std::vector<int64_t> &sizes,
                                       const std::string &base,
                                       const std::string &handleType,
                                       std::string *loops) {
  unsigned count = 0;
  for (int64_t size : sizes)
    count += size != 0;
  std::string tiled = fresh(base + "_tiled");
  std::string forLoops = fresh(base + "_for");
  line(tiled + ", " + forLoops + ":" + std::to_string(count) +
       " = transform.structured.tile_using_for " + handle + " tile_sizes " +
       intList(sizes) + " : (" + handleType + ") -> " + anyOps(count + 1));
  if (loops)
    *loops = forLoops;
  return tiled;
}

std::string ScriptWriter::anyOps(unsigned n) {
  std::string text = "(";
  for (unsigned i = 0; i < n; ++i)
    text += i ? ", !transform.any_op" : "!transform.any_op";
  return text + ")";
}

std::string ScriptWriter::intList(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// Contractions become vector.contract, then outer products, which LLVM turns
// into FMAs; accumulators are hoisted out of the reduction loop while still
// on tensors (DESIGN.md, "Known MLIR 19 pitfalls").
static const char *kVectorToContract =
    R"(    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.vector.reduction_to_contract
)";
static const char *kDropLeadingUnitDims =
    "      transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n";
static const char *kVectorLowering =
    R"(      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %for_loops = transform.structured.match ops{["scf.for"]} in %func : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %for_loops : !transform.any_op
)";

std::string ScriptWriter::finish(unsigned numOps, bool lowerVectors,
                                 bool dropLeadingUnitDims) const {
  std::string text = "module attributes {transform.with_named_sequence} {\n"
                     "  transform.named_sequence @__transform_main(%root: "
                     "!transform.any_op {transform.readonly}) {\n";
  text += "    %linalg_ops = transform.structured.match interface{LinalgOp} "
          "in %root : (!transform.any_op) -> !transform.any_op\n";
  text += "    ";
  for (unsigned i = 0; i < numOps; ++i)
    text += (i ? ", %op" : "%op") + std::to_string(i);
  text += " = transform.split_handle %linalg_ops : (!transform.any_op) -> " +
          anyOps(numOps) + "\n";
  for (const std::string &l : lines)
    text += "    " + l + "\n";
  for (const std::string &l : endLines)
    text += "    " + l + "\n";
  if (lowerVectors) {
    text += kVectorToContract;
    if (dropLeadingUnitDims)
      text += kDropLeadingUnitDims;
    text += kVectorLowering;
  }
  text += "    transform.yield\n  }\n}\n";
  return text;
}

} // namespace rlopt::linalg
