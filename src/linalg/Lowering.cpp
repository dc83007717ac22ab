#include "rlopt/linalg/Lowering.h"

#include "rlopt/linalg/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace rlopt::linalg {

std::string loweringPipeline() {
  // memref.alloca_scope (from scf-to-openmp) must become LLVM before
  // scf-to-cf puts several blocks into it, hence finalize-memref-to-llvm
  // ahead of convert-scf-to-cf.
  return "builtin.module("
         "canonicalize,cse,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "unknown-type-conversion=identity-layout-map},"
         "canonicalize,"
         "buffer-results-to-out-params{hoist-static-allocs},"
         "buffer-deallocation-pipeline,"
         "convert-linalg-to-loops,"
         "scf-forall-to-parallel,convert-scf-to-openmp,"
         "lower-affine,convert-vector-to-scf{full-unroll target-rank=1},"
         "expand-strided-metadata,"
         "lower-affine,finalize-memref-to-llvm,convert-scf-to-cf,"
         "convert-vector-to-llvm,convert-math-to-llvm,convert-math-to-libm,"
         "finalize-memref-to-llvm,arith-expand,convert-arith-to-llvm,"
         "convert-index-to-llvm,convert-func-to-llvm,convert-openmp-to-llvm,"
         "convert-cf-to-llvm,reconcile-unrealized-casts)";
}

Status lowerToLLVM(mlir::ModuleOp module) {
  mlir::MLIRContext *context = module.getContext();
  for (auto func : module.getOps<mlir::func::FuncOp>())
    if (!func.isExternal())
      func->setAttr("llvm.emit_c_interface", mlir::UnitAttr::get(context));

  DiagnosticCollector diagnostics(context);
  // math.tanh has neither an LLVM intrinsic nor a vector libm lowering in
  // MLIR 19: rewrite it as MLIR's rational approximation (plain arith, so
  // it vectorizes), on the baseline and the candidate alike.
  mlir::RewritePatternSet mathPatterns(context);
  mlir::populatePolynomialApproximateTanhPattern(mathPatterns);
  if (mlir::failed(
          mlir::applyPatternsAndFoldGreedily(module, std::move(mathPatterns))))
    return makeError("lowering failed: math.tanh approximation did not "
                     "converge");
  mlir::PassManager pm(context);
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  // The pass manager is already anchored on builtin.module: parse the
  // pipeline's inside.
  std::string pipeline = loweringPipeline();
  std::string inner = pipeline.substr(pipeline.find('(') + 1);
  inner.pop_back();
  if (mlir::failed(mlir::parsePassPipeline(inner, pm, errorStream)))
    return makeError("bad lowering pipeline: " + parseErrors);
  if (mlir::failed(pm.run(module)))
    return makeError("lowering failed: " + diagnostics.take("a pass failed"));
  return Status::success();
}

} // namespace rlopt::linalg
