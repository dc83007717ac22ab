// The action list of the graph pass-ordering environment and XLA's
// simplification pipeline rebuilt from it.
#include "rlopt/graph/GraphPass.h"

#include "Passes.h"

namespace rlopt::graph {

namespace {

// The rule groups of the algebraic simplifier once, in XLA's order of
// concerns: arithmetic first, then data movement. Dot strength reduction
// (algsimp-dot) is left out, as XLA's CPU backend configures the pass and
// as D runs it; it stays an action of its own.
Result<bool> runAlgsimp(Module &module) {
  bool changed = false;
  for (auto *group : {runAlgsimpArith, runAlgsimpNoOp, runAlgsimpReshape,
                      runAlgsimpBroadcast, runAlgsimpSelect, runAlgsimpConcat,
                      runAlgsimpSlice, runAlgsimpPad, runAlgsimpReduce}) {
    auto result = group(module);
    if (!result)
      return result;
    changed |= *result;
  }
  return changed;
}

std::vector<GraphPass> makePasses() {
  return {
      {"algsimp", "AlgebraicSimplifier",
       "all algsimp-* rule groups but algsimp-dot once, in list order: no "
       "dot strength reduction, as XLA's CPU backend configures it",
       runAlgsimp},
      {"algsimp-arith", "AlgebraicSimplifier",
       "x+0, x-0, x*1, x/1, x^1, x^2 -> x*x, double negate/not, and/or/xor/"
       "max/min identities, x*0 and x-x on integers only, negates folded into "
       "add/subtract/multiply; no float x*0 (NaN, inf)",
       runAlgsimpArith},
      {"algsimp-noop", "AlgebraicSimplifier",
       "reshape/broadcast/transpose/slice/pad/reverse/convert/copy/bitcast/"
       "concatenate/sort/dynamic-(update-)slice that keep data and shape -> "
       "operand; "
       "layout-only changes count as no-ops",
       runAlgsimpNoOp},
      {"algsimp-reshape", "AlgebraicSimplifier",
       "reshape(reshape), transpose(transpose), reverse(reverse) -> one op or "
       "none; transposes moving only size-1 dims -> reshape",
       runAlgsimpReshape},
      {"algsimp-broadcast", "AlgebraicSimplifier",
       "broadcast(broadcast), reshape/reverse of scalar broadcasts, transpose "
       "and broadcast-dim-only slices of broadcasts -> one broadcast; "
       "elementwise ops of like broadcasts -> broadcast of the op",
       runAlgsimpBroadcast},
      {"algsimp-select", "AlgebraicSimplifier",
       "select with constant or negated predicate or equal branches, "
       "select(p,true,false), integer compare(x,x), pred ==true/!=false, "
       "not(integer compare); float compares untouched (NaN)",
       runAlgsimpSelect},
      {"algsimp-concat", "AlgebraicSimplifier",
       "concatenate: drops empty operands, flattens nested concatenates, "
       "merges adjacent slices, broadcasts of one scalar -> broadcast",
       runAlgsimpConcat},
      {"algsimp-slice", "AlgebraicSimplifier",
       "slice(slice), slices within one concatenate operand or inside a pad's "
       "operand -> one slice; dynamic-slice with constant starts -> slice",
       runAlgsimpSlice},
      {"algsimp-pad", "AlgebraicSimplifier",
       "pad of a broadcast of the padding value -> broadcast; pad(pad) with "
       "one value -> one pad; negative and interior padding left alone",
       runAlgsimpPad},
      {"algsimp-dot", "AlgebraicSimplifier",
       "dots contracting only size-1 dims (outer products) -> multiply of "
       "broadcasts; adds ops; real contractions left alone",
       runAlgsimpDot},
      {"algsimp-reduce", "AlgebraicSimplifier",
       "reduce over size-1 dims (or none) with the reducer's identity as init "
       "-> reshape; variadic reduces left alone",
       runAlgsimpReduce},
      {"simplify-fp-conversions", "SimplifyFPConversions",
       "convert(convert(x)) through a type holding every value of x -> one "
       "convert or x; lossy chains (f32->bf16->f32) kept",
       runSimplifyFPConversions},
      {"cse", "HloCSE",
       "merges identical instructions per computation (commutative operands "
       "either order); never parameters, side effects, rng, elided constants",
       runCse},
      {"dce", "HloDCE",
       "removes dead instructions and unreachable computations; keeps "
       "parameters and side effects; dead while-tuple elements stay",
       runDce},
      {"constant-folding", "HloConstantFolding",
       "elementwise/reshape/transpose/slice/concat/pad/reverse/reduce of "
       "known constants -> constant (<=16384 elements); not broadcast, iota, "
       "elided constants or implementation-defined values",
       runConstantFolding},
      {"tuple-simplifier", "TupleSimplifier",
       "get-tuple-element(tuple) -> element; tuple of all elements of x in "
       "order -> x",
       runTupleSimplifier},
      {"call-inliner", "CallInliner",
       "inlines every call, innermost first, and drops inlined callees; keeps "
       "calls whose elided constants would need renaming",
       runCallInliner},
      {"defuser", "Defuser",
       "inlines fusion computations back into their callers", runDefuser},
      {"flatten-call-graph", "FlattenCallGraph",
       "clones computations called from several call/while/conditional "
       "sites, one per site; reducers and comparators stay shared; adds ops",
       runFlattenCallGraph},
      {"map-inliner", "MapInliner",
       "map of a single elementwise op (or a parameter) -> that op on the "
       "operands; larger map computations left alone",
       runMapInliner},
      {"reshape-mover", "ReshapeMover",
       "elementwise op of >=2 reshapes (transposes) of like arrays plus scalar "
       "operands -> reshape (transpose) of the op; unary ops left alone",
       runReshapeMover},
      {"convert-mover", "ConvertMover",
       "widening converts move below data movement (concatenate of converts "
       "-> convert of concatenate), narrowing converts above it",
       runConvertMover},
      {"transpose-folding", "TransposeFolding",
       "transposes into dot dimension numbers (free-dim order kept) and "
       "convolution dim_labels; transposes of outputs left alone",
       runTransposeFolding},
      {"dot-decomposer", "DotDecomposer",
       "non-canonical dots -> transpose/reshape to [batch,M,K]x[batch,K,N], "
       "dot, reshape back; adds ops",
       runDotDecomposer},
      {"dot-merger", "DotMerger",
       "independent dots sharing an operand -> one dot on concatenated other "
       "operands plus slices; adds ops",
       runDotMerger},
      {"dot-dimension-sorter", "DotDimensionSorter",
       "sorts a dot's contracting dims ascending on the lhs, rhs alike; "
       "attributes only",
       runDotDimensionSorter},
      {"batch-dot-simplification", "BatchDotSimplification",
       "drops size-1 batch dims from dots via reshapes; adds ops",
       runBatchDotSimplification},
      {"convert-operand-folding", "ConvertOperandFolding",
       "exact widening converts feeding dot/convolution operands folded into "
       "them; narrowing and int<->float converts kept",
       runConvertOperandFolding},
      {"batchnorm-expander", "BatchNormExpander",
       "batch-norm-training/-inference/-grad -> reduces, broadcasts and "
       "elementwise ops (two-pass variance); adds ops",
       runBatchNormExpander},
      {"logistic-expander", "LogisticExpander",
       "logistic(x) -> 1/(1+exp(-x)); adds ops", runLogisticExpander},
      {"comparison-expander", "ComparisonExpander",
       "TOTALORDER float compares -> signed integer compares of bitcast keys; "
       "adds ops; other compares untouched",
       runComparisonExpander},
      {"real-imag-expander", "RealImagExpander",
       "real(x) of real x -> x, imag(x) -> zeros; complex operands untouched",
       runRealImagExpander},
      {"optimization-barrier-expander", "OptimizationBarrierExpander",
       "opt-barrier(x) -> x", runOptimizationBarrierExpander},
      {"gather-expander", "GatherExpander",
       "simple gathers (one slice) -> dynamic-slice + reshape; multi-slice "
       "gathers (would need a while loop) left alone",
       runGatherExpander},
      {"scatter-expander", "ScatterExpander",
       "one-window scatters at known in-range constant indices, combiner "
       "assigning or a binary op -> dynamic-update-slice (of op(dynamic-"
       "slice, update)); computed indices (scatter skips out-of-range "
       "windows, dynamic-update-slice clamps) and multi-window ones left "
       "alone",
       runScatterExpander},
      {"reduce-decomposer", "ReduceDecomposer",
       "variadic reduces whose reducer keeps groups of outputs independent "
       "-> one reduce per group, get-tuple-elements rewired; coupled "
       "reducers (argmax) and layouts left alone",
       runReduceDecomposer},
      {"while-loop-simplifier", "WhileLoopSimplifier",
       "zero-trip loops -> init; reads of invariant elements after the loop "
       "-> init; unused tuple elements removed; shared bodies left alone",
       runWhileLoopSimplifier},
      {"while-loop-constant-sinking", "WhileLoopConstantSinking",
       "invariant elements initialised by known constants read as constant "
       "copies in body and condition; elided constants not copied",
       runWhileLoopConstantSinking},
      {"while-loop-invariant-code-motion", "WhileLoopInvariantCodeMotion",
       "hoists pure body instructions of invariant elements and constants "
       "before the loop as new state elements; not lone reshapes/broadcasts",
       runWhileLoopInvariantCodeMotion},
      {"while-loop-fusible-sinking", "WhileLoopFusibleSinking",
       "invariant elements initialised by broadcasts of known constants or "
       "iotas recomputed in body and condition",
       runWhileLoopFusibleSinking},
      {"while-loop-unroller", "WhileLoopUnroller",
       "loops with a constant trip count (<=64 trips, <=800 body ops) -> "
       "inlined body copies; adds ops; computed bounds left alone",
       runWhileLoopUnroller},
      {"convolution-group-converter", "ConvolutionGroupConverter",
       "feature-grouped convolutions -> ungrouped with a group-masked, "
       "tiled kernel; adds ops; batch-grouped ones left alone",
       runConvolutionGroupConverter},
      {"broadcast-canonicalizer", "BroadcastCanonicalizer",
       "broadcasts with unsorted dims -> transpose + sorted broadcast; adds "
       "ops",
       runBroadcastCanonicalizer},
      {"slice-sinker", "SliceSinker",
       "like elementwise ops on slices exactly covering the same arrays -> one "
       "op on the arrays plus slices; partial covers left alone",
       runSliceSinker},
      {"zero-sized-hlo-elimination", "ZeroSizedHloElimination",
       "instructions producing empty arrays -> empty constants; parameters "
       "and side effects kept",
       runZeroSizedHloElimination},
      {"sort-simplifier", "SortSimplifier",
       "drops sort operands nobody reads and the comparator ignores",
       runSortSimplifier},
      {"conditional-simplifier", "ConditionalSimplifier",
       "conditionals with a constant predicate or index -> inlined branch; "
       "computed predicates left alone",
       runConditionalSimplifier},
      {"all-reduce-simplifier", "AllReduceSimplifier",
       "all-reduce/all-gather/reduce-scatter/all-to-all over one-member "
       "replica groups -> operand; larger groups kept (not the identity)",
       runAllReduceSimplifier},
      {"hlo-constant-splitter", "HloConstantSplitter",
       "constants and iotas with several users -> one copy per user; adds ops; "
       "elided constants not copied",
       runConstantSplitter},
  };
}

} // namespace

const std::vector<GraphPass> &graphPasses() {
  static const std::vector<GraphPass> passes = makePasses();
  return passes;
}

std::optional<int> findGraphPass(const std::string &name) {
  const auto &passes = graphPasses();
  for (size_t i = 0; i < passes.size(); ++i)
    if (passes[i].name == name)
      return static_cast<int>(i);
  return std::nullopt;
}

const std::vector<GraphPass> &cpuConfiguredPasses() {
  static const std::vector<GraphPass> passes = {
      {"transpose-folding-cpu", "TransposeFolding",
       "as transpose-folding, configured as XLA's CPU pipeline does: into "
       "dots only transposes swapping the two non-batch dims of an operand "
       "with one contracting dim; none into convolutions",
       runCpuTransposeFolding},
  };
  return passes;
}

const GraphPass *findPipelinePass(const std::string &name) {
  if (auto index = findGraphPass(name))
    return &graphPasses()[*index];
  for (const GraphPass &pass : cpuConfiguredPasses())
    if (pass.name == name)
      return &pass;
  return nullptr;
}

// XLA's CPU HLO pipeline (CpuCompiler::RunHloPasses), kept to the passes
// rlopt has, in XLA's order and with XLA's phase structure. Where it
// differs:
//  - rlopt's call-inliner inlines every call; XLA's inlines single call sites
//    (FlattenCallGraph at the end then clones what XLA kept shared).
//  - convolution-group-converter is left out: XLA's CPU pipeline expands
//    feature groups only for types other than f16/f32, and rlopt's converter
//    expands all of them.
//  - scatter-expander rewrites only one-window scatters at constant indices;
//    XLA's kEliminateAllScatters turns every scatter into a while loop.
//  - The passes rlopt does not model (RNG, linear-algebra and dynamic-shape
//    expanders, float normalization, layout assignment and the layout
//    normalization after it, fusion) are absent, and so are SliceSinker and
//    SimplifyFPConversions, which XLA's CPU pipeline does not run. Of what
//    follows layout assignment, D keeps the algsimp/DCE/CSE loop.
// The expanders stay: they are lowerings the CPU backend needs, so D pays
// for them as XLA does.
const std::vector<PipelinePhase> &defaultPipeline() {
  // XLA's AlgebraicSimplifier on CPU: every rule group but dot strength
  // reduction.
  static const std::vector<std::string> algsimp = {
      "algsimp-arith",     "algsimp-noop",   "algsimp-reshape",
      "algsimp-broadcast", "algsimp-select", "algsimp-concat",
      "algsimp-slice",     "algsimp-pad",    "algsimp-reduce"};
  auto after = [](std::vector<std::string> passes,
                  std::initializer_list<const char *> more) {
    passes.insert(passes.end(), more.begin(), more.end());
    return passes;
  };
  static const std::vector<std::string> simplification =
      after(algsimp, {
                         "sort-simplifier",
                         "dce",
                         "gather-expander",
                         "zero-sized-hlo-elimination",
                         "while-loop-invariant-code-motion",
                         "tuple-simplifier",
                         "while-loop-constant-sinking",
                         "while-loop-simplifier",
                         "dce",
                         "reshape-mover",
                         "constant-folding",
                         "conditional-simplifier",
                     });
  static const std::vector<PipelinePhase> phases = {
      {"canonicalization",
       {"dot-decomposer", "zero-sized-hlo-elimination", "map-inliner",
        "comparison-expander", "call-inliner", "batch-dot-simplification",
        "dot-decomposer", "batch-dot-simplification", "batchnorm-expander",
        "logistic-expander"},
       false},
      {"simplification", simplification, true},
      {"scatter-expansion", {"scatter-expander"}, false},
      {"post-scatter-expansion-simplification", simplification, true},
      {"before-layout-assignment",
       {"transpose-folding-cpu", "cse", "optimization-barrier-expander",
        "tuple-simplifier", "flatten-call-graph"},
       false},
      // XLA removes what TransposeFolding leaves unused at once, and runs
      // this loop again after layout assignment.
      {"simplification-after-layout-assignment", after(algsimp, {"dce", "cse"}),
       true},
  };
  return phases;
}

namespace {

Result<bool> runPhaseOnce(Module &module, const PipelinePhase &phase) {
  bool changed = false;
  for (const std::string &name : phase.passes) {
    const GraphPass *pass = findPipelinePass(name);
    if (!pass)
      return makeError("default pipeline names unknown pass '" + name + "'");
    auto result = pass->run(module);
    if (!result)
      return makeError("pass '" + name + "': " + result.error().message);
    changed |= *result;
  }
  return changed;
}

} // namespace

Result<int> runDefaultPipeline(Module &module, int maxRounds) {
  int changedRounds = 0;
  for (const PipelinePhase &phase : defaultPipeline()) {
    int rounds = phase.toFixedPoint ? maxRounds : 1;
    for (int round = 0; round < rounds; ++round) {
      auto changed = runPhaseOnce(module, phase);
      if (!changed)
        return changed.error();
      if (!*changed)
        break;
      ++changedRounds;
    }
  }
  return changedRounds;
}

} // namespace rlopt::graph
