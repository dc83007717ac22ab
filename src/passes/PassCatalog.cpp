// The pass-ordering action list: LLVM 19's transform passes that do
// something meaningful when run alone on a module of a C program.
#include "rlopt/passes/PassCatalog.h"

namespace rlopt::passes {

namespace {
const char *kAttributorDisabled =
    "nondeterministic in LLVM 19: which attributes it deduces depends on "
    "where values lie in memory (nocapture on a memcpy argument comes and "
    "goes between two runs on the same module), so episodes would not replay";
} // namespace

const std::vector<PassAction> &passActions() {
  static const std::vector<PassAction> actions = {
      // Module passes.
      {"always-inline", "module", "inlines functions marked always_inline"},

      {"attributor-light", "module",
       "the attributor with a cheap deduction set", "", kAttributorDisabled},
      {"called-value-propagation", "module",
       "attaches possible callees to indirect calls"},
      {"canonicalize-aliases", "module", "rewrites aliases to private globals"},
      {"constmerge", "module", "merges duplicate global constants"},
      {"deadargelim", "module", "removes dead arguments and return values"},
      {"elim-avail-extern", "module", "drops available_externally definitions"},
      {"forceattrs", "module", "adds attributes forced on the command line"},
      {"globaldce", "module", "deletes unreachable globals and functions"},
      {"globalopt", "module",
       "optimizes globals: constant-marks, shrinks, localizes"},
      {"globalsplit", "module",
       "splits globals whose parts are used separately"},
      {"hotcoldsplit", "module", "outlines cold regions into functions"},
      {"inferattrs", "module", "infers attributes of known library functions"},
      {"ipsccp", "module",
       "interprocedural sparse conditional constant propagation"},
      {"ipsccp<func-spec>", "module", "ipsccp with function specialization"},
      {"iroutliner", "module", "outlines similar IR regions into one function"},
      {"loop-extract", "module",
       "extracts each top-level loop into a function"},
      {"mergefunc", "module", "merges functions with identical bodies"},
      {"name-anon-globals", "module", "gives anonymous globals unique names"},
      {"partial-inliner", "module",
       "inlines the early-return part of functions"},
      {"rel-lookup-table-converter", "module",
       "turns lookup tables into relative ones"},
      {"rpo-function-attrs", "module",
       "propagates attributes top-down the call graph"},
      {"strip", "module", "removes symbol names and debug information"},
      {"strip-dead-prototypes", "module",
       "removes unused function declarations"},
      {"strip-debug-declare", "module", "removes llvm.dbg.declare intrinsics"},
      {"strip-nondebug", "module", "removes symbols except debug ones"},
      {"strip-dead-debug-info", "module", "removes debug info of dead symbols"},
      // CGSCC passes.
      {"argpromotion", "cgscc", "passes pointer arguments by value"},
      {"attributor-cgscc", "cgscc", "the attributor, per call-graph SCC", "",
       kAttributorDisabled},
      {"attributor-light-cgscc", "cgscc", "the light attributor, per SCC", "",
       kAttributorDisabled},
      {"function-attrs", "cgscc",
       "deduces readnone, nocapture, norecurse, ..."},
      {"inline", "cgscc", "inlines calls by the cost model"},
      {"openmp-opt-cgscc", "cgscc", "OpenMP-aware optimizations, per SCC"},
      // Function passes.
      {"adce", "function", "aggressive dead code elimination"},
      {"aggressive-instcombine", "function",
       "combines expression patterns across blocks"},
      {"alignment-from-assumptions", "function", "uses alignment assumptions"},
      {"bdce", "function", "bit-tracking dead code elimination"},
      {"break-crit-edges", "function", "splits critical edges"},
      {"callsite-splitting", "function",
       "splits call sites by argument constants"},
      {"chr", "function", "control height reduction of biased branches"},
      {"consthoist", "function", "hoists expensive constants"},
      {"constraint-elimination", "function",
       "removes conditions implied by others"},
      {"correlated-propagation", "function",
       "propagates value ranges into uses"},
      {"dce", "function", "dead code elimination"},
      {"dfa-jump-threading", "function",
       "threads jumps through switch state machines"},
      {"div-rem-pairs", "function", "pairs a division with its remainder"},
      {"dse", "function", "dead store elimination"},
      {"early-cse", "function", "simple dominator-tree CSE"},
      {"early-cse<memssa>", "function", "early CSE that also removes loads"},
      {"fix-irreducible", "function",
       "makes irreducible control flow reducible"},
      {"flatten-cfg", "function", "merges if-regions into selects"},
      {"float2int", "function", "demotes float arithmetic to integers"},
      {"gvn", "function", "global value numbering with load PRE"},
      {"gvn<no-pre>", "function", "global value numbering without PRE"},
      {"gvn-hoist", "function", "hoists equal expressions to a dominator"},
      {"infer-address-spaces", "function",
       "replaces generic with specific address spaces"},
      {"infer-alignment", "function", "raises load and store alignment"},
      {"inject-tli-mappings", "function",
       "records vector variants of library calls"},
      {"instcombine", "function", "combines instructions (peephole)",
       "instcombine<no-verify-fixpoint>"},
      {"instsimplify", "function", "removes instructions that fold to a value"},
      {"irce", "function", "removes range checks inside loops"},
      {"jump-threading", "function",
       "threads branches through known conditions"},
      {"jump-table-to-switch", "function",
       "turns calls through tables into switches"},
      {"lcssa", "function", "puts loops in closed SSA form"},
      {"libcalls-shrinkwrap", "function",
       "guards library calls that only set errno"},
      {"load-store-vectorizer", "function", "merges adjacent loads and stores"},
      {"loop-data-prefetch", "function", "inserts prefetches in loops"},
      {"loop-distribute", "function", "splits loops to vectorize parts"},
      {"loop-fusion", "function", "fuses adjacent compatible loops"},
      {"loop-load-elim", "function",
       "forwards stores to loads across iterations"},
      {"loop-simplify", "function", "canonicalizes loops (preheader, latch)"},
      {"loop-sink", "function", "sinks loop-invariant code into cold blocks"},
      {"loop-unroll", "function", "unrolls loops (O2 thresholds)"},
      {"loop-vectorize", "function", "vectorizes inner loops"},
      {"loop-versioning", "function", "versions loops on memory checks"},
      {"lower-atomic", "function", "lowers atomics to plain memory operations"},
      {"lower-constant-intrinsics", "function",
       "folds is.constant and objectsize"},
      {"lower-expect", "function", "turns llvm.expect into branch weights"},
      {"lower-guard-intrinsic", "function", "lowers guards to branches"},
      {"lower-invoke", "function", "turns invokes into calls"},
      {"lower-matrix-intrinsics", "function", "lowers matrix intrinsics"},
      {"lower-switch", "function", "turns switches into branches"},
      {"lower-widenable-condition", "function", "lowers widenable conditions"},
      {"mem2reg", "function", "promotes allocas to SSA registers"},
      {"memcpyopt", "function", "optimizes memcpy and memset"},
      {"mergeicmps", "function", "merges equality comparisons into memcmp"},
      {"mergereturn", "function", "unifies return blocks"},
      {"mldst-motion", "function", "merges loads and stores of diamonds"},
      {"nary-reassociate", "function",
       "reassociates n-ary adds and muls for CSE"},
      {"newgvn", "function", "global value numbering (new algorithm)"},
      {"partially-inline-libcalls", "function",
       "inlines fast paths of sqrt etc."},
      {"reassociate", "function", "reassociates expressions for folding"},
      {"redundant-dbg-inst-elim", "function",
       "removes redundant debug intrinsics"},
      {"reg2mem", "function", "demotes SSA registers to allocas"},
      {"scalarizer", "function", "splits vector operations into scalars"},
      {"sccp", "function", "sparse conditional constant propagation"},
      {"separate-const-offset-from-gep", "function",
       "splits constant offsets out of GEPs"},
      {"simplifycfg", "function", "simplifies and merges blocks and branches"},
      {"sink", "function", "sinks instructions to their uses"},
      {"slp-vectorizer", "function", "vectorizes straight-line code"},
      {"slsr", "function", "straight-line strength reduction"},
      {"speculative-execution", "function",
       "hoists cheap code out of branches"},
      {"sroa", "function", "scalar replacement of aggregates"},

      {"tailcallelim", "function", "turns tail recursion into loops"},

      {"vector-combine", "function", "combines vector operations"},
      // Loop nest passes.
      {"loop-flatten", "loopnest", "flattens nested loops into one"},
      {"loop-interchange", "loopnest", "interchanges loops for locality"},
      {"loop-unroll-and-jam", "loopnest",
       "unrolls an outer loop and fuses inner ones"},
      // Loop passes.
      {"canon-freeze", "loop", "canonicalizes freeze in induction variables"},
      {"indvars", "loop", "canonicalizes induction variables"},
      {"licm", "loop", "hoists and sinks loop-invariant code"},
      {"lnicm", "loop", "loop-nest invariant code motion"},
      {"loop-bound-split", "loop", "splits loops on a bound condition", "",
       "crashes LLVM 19 on some loops that earlier passes rewrote (floyd, "
       "huffman and qsort: 13 of 554 uses in one training run ended in a "
       "crash)"},
      {"loop-deletion", "loop", "deletes loops without effect"},
      {"loop-idiom", "loop", "recognizes memset and memcpy loops"},
      {"loop-instsimplify", "loop", "instsimplify inside loops"},
      {"loop-predication", "loop", "turns guarded checks into loop predicates"},
      {"loop-reduce", "loop", "loop strength reduction"},
      {"loop-rotate", "loop", "rotates loops to do-while form"},
      {"loop-simplifycfg", "loop", "simplifies the CFG of loops"},
      {"loop-unroll-full", "loop",
       "fully unrolls loops with small trip counts"},
      {"loop-versioning-licm", "loop", "versions loops to hoist aliasing code"},
      {"simple-loop-unswitch", "loop", "unswitches trivial loop conditions"},
      {"simple-loop-unswitch<nontrivial>", "loop",
       "unswitches any loop condition"},
  };
  return actions;
}

const std::vector<ExcludedPass> &excludedPasses() {
  static const std::vector<ExcludedPass> excluded = {
      {"asan, msan, tsan, hwasan, dfsan, nsan, memprof, sancov-module, "
       "insert-gcov-profiling, instrprof, pgo-instr-gen, poison-checking, "
       "bounds-checking, kcfi, safe-stack, stack-protector, cfguard, "
       "ee-instrument, pseudo-probe",
       "instrumentation: adds runtime checks or counters, so the program "
       "needs a runtime library and behaves differently on purpose"},
      {"pgo-instr-use, sample-profile, memprof-use, pgo-icall-prom, "
       "pgo-memop-opt, pgo-force-function-attrs, function-import",
       "need a profile or a summary index that a single module does not have"},
      {"codegenprepare, atomic-expand, dwarf-eh-prepare, sjlj-eh-prepare, "
       "win-eh-prepare, wasm-eh-prepare, interleaved-access, "
       "interleaved-load-combine, expand-large-div-rem, "
       "expand-large-fp-convert, expand-memcmp, indirectbr-expand, "
       "select-optimize, typepromotion, callbr-prepare, "
       "scalarize-masked-mem-intrin, pre-isel-intrinsic-lowering, "
       "lower-global-dtors, lower-ifunc, expand-variadics, "
       "hardware-loops",
       "backend preparation: they assume the code generator runs next and "
       "several abort or produce IR the optimizer is not meant to see"},
      {"coro-*, objc-arc*, gc-lowering, place-safepoints, "
       "rewrite-statepoints-for-gc, strip-gc-relocates, "
       "shadow-stack-gc-lowering, hipstdpar-*, dxil-upgrade, lower-emutls, "
       "openmp-opt, openmp-opt-postlink, cross-dso-cfi, lowertypetests, "
       "wholeprogramdevirt, jmc-instrumenter",
       "language- or target-specific: no effect on the C programs of the "
       "suites, or require their own runtime"},
      {"print*, dot-*, view-*, verify*, aa-eval, lint, instcount, "
       "count-visits, helloworld, no-op-*, invalidate<all>, debugify, "
       "check-debugify, trigger-crash-*, trigger-verifier-error, "
       "annotation-remarks, transform-warning, instnamer, metarenamer",
       "analysis printers, checkers and test passes: they do not transform "
       "the program, or only rename values"},
      {"function-simplification<O*>, inliner-wrapper, module-inline, "
       "scc-oz-module-inliner, inliner-ml-advisor-release",
       "pipelines or inliner wrappers, not single passes (inline is the "
       "action)"},
      {"attributor",
       "the full module attributor is experimental in LLVM 19 (no -O "
       "pipeline runs it) and miscompiles: after iroutliner it makes the "
       "bundled mergesort loop forever (its light and CGSCC variants keep "
       "their action indices but are disabled: they do not replay)"},
      {"gvn-sink",
       "nondeterministic in LLVM 19: it orders blocks and values by their "
       "addresses (llvm-project issue 77852), so the same module gives "
       "different IR from run to run and episodes do not replay"},
      {"structurizecfg",
       "a GPU structurizer: after gvn and simplifycfg it changes the output "
       "of the bundled life program"},
      {"unify-loop-exits",
       "crashes LLVM 19 on loops that exit through a switch (large_lisp); it "
       "is meant for GPU structurizer pipelines that lower switches first"},
      {"internalize, extract-blocks, loop-extract<single>, globalsplit "
       "variants, embed-bitcode, global-merge, synthetic-counts-propagation, "
       "instrorderfile, ctx-instr-lower, recompute-globalsaa, "
       "declare-to-assign, move-auto-init, assume-builder, assume-simplify, "
       "guard-widening, make-guards-explicit, tlshoist, "
       "loop-idiom-vectorize, add-discriminators",
       "link-time or debug-info tools, or passes whose preconditions (guards, "
       "assumes, TLS, explicit block lists) the suites never meet"},
  };
  return excluded;
}

std::optional<int> findPassAction(const std::string &name) {
  const auto &actions = passActions();
  for (size_t i = 0; i < actions.size(); ++i)
    if (actions[i].name == name)
      return static_cast<int>(i);
  return std::nullopt;
}

} // namespace rlopt::passes
