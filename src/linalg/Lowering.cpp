#include "rlopt/linalg/Lowering.h"

#include "rlopt/linalg/Diagnostics.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace rlopt::linalg {

/// Tensors to buffers. A result the function wrote into one of its
/// arguments (destination-passing style, `outs` on an argument) comes out
/// as that argument's buffer.
static std::string bufferizationPasses() {
  return "canonicalize,cse,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "unknown-type-conversion=identity-layout-map},"
         "canonicalize,cse,canonicalize";
}

/// Buffers to LLVM. Results equal to an argument are dropped first:
/// hoisting static allocations into out-parameters dereferences the
/// defining op of each returned buffer, which an argument has not.
static std::string buffersToLLVMPasses() {
  // memref.alloca_scope (from scf-to-openmp) must become LLVM before
  // scf-to-cf puts several blocks into it, hence finalize-memref-to-llvm
  // ahead of convert-scf-to-cf.
  return "drop-equivalent-buffer-results,"
         "buffer-results-to-out-params{hoist-static-allocs},"
         "buffer-deallocation-pipeline,"
         "convert-linalg-to-loops,"
         "scf-forall-to-parallel,convert-scf-to-openmp,"
         "lower-affine,convert-vector-to-scf{full-unroll target-rank=1},"
         "expand-strided-metadata,"
         "lower-affine,finalize-memref-to-llvm,convert-scf-to-cf,"
         "convert-vector-to-llvm,convert-math-to-llvm,convert-math-to-libm,"
         "finalize-memref-to-llvm";
}

/// The rest of the way to LLVM, after the arith ops LLVM has no instruction
/// for are expanded (expandArith).
static std::string arithToLLVMPasses() {
  return "convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,"
         "convert-openmp-to-llvm,"
         "convert-cf-to-llvm,reconcile-unrealized-casts";
}

std::string loweringPipeline() {
  return "builtin.module(" + bufferizationPasses() + "," +
         buffersToLLVMPasses() + ",arith-expand," + arithToLLVMPasses() + ")";
}

/// Which argument each returned buffer is, or -1: the rule by which
/// drop-equivalent-buffer-results drops a result (an argument of the
/// function, possibly behind memref.cast).
static std::vector<int> resultsInArguments(mlir::func::FuncOp func) {
  std::vector<int> placement;
  func.walk([&](mlir::func::ReturnOp ret) {
    for (mlir::Value value : ret.getOperands()) {
      while (auto cast = value.getDefiningOp<mlir::memref::CastOp>())
        value = cast.getSource();
      auto argument = mlir::dyn_cast<mlir::BlockArgument>(value);
      bool isArgument = argument && argument.getOwner() == &func.front();
      placement.push_back(isArgument ? int(argument.getArgNumber()) : -1);
    }
  });
  return placement;
}

static bool isContiguous(mlir::MemRefType type) {
  return type.getLayout().isIdentity() ||
         mlir::memref::isStaticShapeAndContiguousRowMajor(type);
}

/// A copy between strided buffers (a padded or packed tile, a slice of a
/// result) becomes a loop nest that LLVM vectorizes. Left as memref.copy it
/// would call the runtime's generic copy, which walks the elements one by
/// one through their strides, several times slower.
static void copyStridedBuffersInLoops(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::memref::CopyOp> strided;
  module.walk([&](mlir::memref::CopyOp copy) {
    auto source = mlir::dyn_cast<mlir::MemRefType>(copy.getSource().getType());
    auto target = mlir::dyn_cast<mlir::MemRefType>(copy.getTarget().getType());
    if (source && target && source.getRank() > 0 &&
        (!isContiguous(source) || !isContiguous(target)))
      strided.push_back(copy);
  });
  for (mlir::memref::CopyOp copy : strided) {
    mlir::OpBuilder builder(copy);
    builder.create<mlir::linalg::CopyOp>(copy.getLoc(), copy.getSource(),
                                         copy.getTarget());
    copy.erase();
  }
}

/// Bufferized as a pad, such a copy would first fill the whole buffer with
/// the padding value and then copy the tile over it: half again as much
/// memory traffic.
void copyTilesThatPadNothing(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::tensor::PadOp> copies;
  module.walk([&](mlir::tensor::PadOp pad) {
    if (pad.hasZeroLowPad() && pad.hasZeroHighPad() &&
        pad.getSourceType() == pad.getResultType() &&
        pad.getResultType().hasStaticShape())
      copies.push_back(pad);
  });
  for (mlir::tensor::PadOp pad : copies) {
    mlir::OpBuilder builder(pad);
    mlir::RankedTensorType type = pad.getResultType();
    mlir::Value empty = builder.create<mlir::tensor::EmptyOp>(
        pad.getLoc(), type.getShape(), type.getElementType());
    mlir::Value copy =
        builder
            .create<mlir::linalg::CopyOp>(pad.getLoc(), pad.getSource(), empty)
            .getResult(0);
    pad.replaceAllUsesWith(copy);
    pad.erase();
  }
}

/// A returned reshape of a fresh buffer (a 1 x 1 convolution computed as a
/// matmul and expanded back to N x F x H x W) would be copied whole into the
/// caller's result buffer after the kernel: 4.8 MB, half the kernel's time,
/// on one MobileNet layer. Allocated in the returned shape instead and
/// reshaped back for the computation, the buffer is the one returned, and
/// buffer-results-to-out-params then computes into the caller's buffer.
static void allocateReturnedReshapes(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::Operation *> views;
  llvm::SmallPtrSet<mlir::Operation *, 4> reshaped;
  module.walk([&](mlir::func::ReturnOp ret) {
    for (mlir::Value value : ret.getOperands()) {
      mlir::Operation *view = value.getDefiningOp();
      if (!view || !value.hasOneUse() ||
          !mlir::isa<mlir::memref::ExpandShapeOp,
                     mlir::memref::CollapseShapeOp>(view))
        continue;
      auto fresh = view->getOperand(0).getDefiningOp<mlir::memref::AllocOp>();
      auto type = mlir::cast<mlir::MemRefType>(value.getType());
      if (fresh && fresh.getDynamicSizes().empty() &&
          fresh.getType().getLayout().isIdentity() && type.hasStaticShape() &&
          type.getLayout().isIdentity() && reshaped.insert(fresh).second)
        views.push_back(view);
    }
  });
  for (mlir::Operation *view : views) {
    auto fresh = view->getOperand(0).getDefiningOp<mlir::memref::AllocOp>();
    mlir::MemRefType computedType = fresh.getType();
    mlir::OpBuilder builder(fresh);
    mlir::Value returned = builder.create<mlir::memref::AllocOp>(
        fresh.getLoc(),
        mlir::cast<mlir::MemRefType>(view->getResult(0).getType()),
        fresh.getAlignmentAttr());
    mlir::Value computed;
    if (auto expand = mlir::dyn_cast<mlir::memref::ExpandShapeOp>(view))
      computed = builder.create<mlir::memref::CollapseShapeOp>(
          view->getLoc(), computedType, returned,
          expand.getReassociationIndices());
    else
      computed = builder.create<mlir::memref::ExpandShapeOp>(
          view->getLoc(), computedType.getShape(), returned,
          mlir::cast<mlir::memref::CollapseShapeOp>(view)
              .getReassociationIndices());
    view->getResult(0).replaceAllUsesWith(returned);
    view->erase();
    fresh.getResult().replaceAllUsesWith(computed);
    fresh.erase();
  }
}

static Status runPasses(mlir::ModuleOp module, const std::string &passes) {
  DiagnosticCollector diagnostics(module.getContext());
  mlir::PassManager pm(module.getContext());
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (mlir::failed(mlir::parsePassPipeline(passes, pm, errorStream)))
    return makeError("bad lowering pipeline: " + parseErrors);
  if (mlir::failed(pm.run(module)))
    return makeError("lowering failed: " + diagnostics.take("a pass failed"));
  return Status::success();
}

/// Expands the arith ops that convert-arith-to-llvm cannot lower (the
/// ceiling and floor divisions). arith-expand would also expand
/// arith.maximumf and arith.minimumf into compares and selects that take
/// -0 and +0 for equal; they stay whole, as llvm.maximum and llvm.minimum,
/// which order them as arith says (and which lowerMinimumsAndMaximums
/// makes cheaper).
static Status expandArith(mlir::ModuleOp module) {
  mlir::RewritePatternSet patterns(module.getContext());
  mlir::arith::populateCeilFloorDivExpandOpsPatterns(patterns);
  if (mlir::failed(
          mlir::applyPatternsAndFoldGreedily(module, std::move(patterns))))
    return makeError("lowering failed: arith expansion did not converge");
  return Status::success();
}

Result<LoweredEntry> lowerToLLVM(mlir::ModuleOp module) {
  mlir::MLIRContext *context = module.getContext();
  mlir::func::FuncOp entry;
  for (auto func : module.getOps<mlir::func::FuncOp>())
    if (!func.isExternal()) {
      func->setAttr("llvm.emit_c_interface", mlir::UnitAttr::get(context));
      entry = func;
    }

  // LLVM lowers vector math.exp, tanh, log and the like to one libm call
  // per element (there is no vector math library in the JIT), and math.tanh
  // has no lowering at all: rewrite the f32 ones as MLIR's polynomial
  // approximations (plain arith, so they vectorize), on the baseline and
  // the candidate alike.
  mlir::RewritePatternSet mathPatterns(context);
  mlir::populateMathPolynomialApproximationPatterns(mathPatterns);
  if (mlir::failed(
          mlir::applyPatternsAndFoldGreedily(module, std::move(mathPatterns))))
    return makeError("lowering failed: math approximations did not "
                     "converge");
  copyTilesThatPadNothing(module);
  if (Status s = runPasses(module, bufferizationPasses()); !s)
    return s.error();
  copyStridedBuffersInLoops(module);
  allocateReturnedReshapes(module);
  LoweredEntry lowered;
  if (entry)
    lowered.resultArgument = resultsInArguments(entry);
  if (Status s = runPasses(module, buffersToLLVMPasses()); !s)
    return s.error();
  if (Status s = expandArith(module); !s)
    return s.error();
  if (Status s = runPasses(module, arithToLLVMPasses()); !s)
    return s.error();
  return lowered;
}

} // namespace rlopt::linalg
