#include "rlopt/linalg/Normalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace rlopt::linalg {

static bool allOnes(DenseIntElementsAttr values) {
  return llvm::all_of(values.getValues<int64_t>(),
                      [](int64_t v) { return v == 1; });
}

/// A 1 x 1 NCHW convolution on static shapes of one float type, over at
/// least 64 output pixels, or 9 with a stride. Dilations do not matter when
/// the window is one tap. A smaller unit-stride image (7 x 7: 49 pixels)
/// stays a convolution: its pixels are one register tile of the matmul and a
/// rest of a third, while the convolution's schedule packs its filters into
/// vectors instead, measured 1.3-3.7x faster than the matmul's on four of
/// five such layers (0.88x on the fifth, of fewer channels than filters). A
/// strided layer copies its pixels out either way (img2col, or the copy
/// below), and read as a matmul it measured 0.99-1.96x on 3 x 3 to 7 x 7
/// outputs, but 0.81-0.87x at one thread on 2 x 2 (four columns).
static bool isPointwise(mlir::linalg::Conv2DNchwFchwOp conv) {
  constexpr int64_t kFewestPixels = 64, kFewestStridedPixels = 9;
  auto input = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filter = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto output = dyn_cast<RankedTensorType>(conv.getOutputs()[0].getType());
  if (!input || !filter || !output || !input.hasStaticShape() ||
      !filter.hasStaticShape() || !output.hasStaticShape())
    return false;
  Type element = output.getElementType();
  int64_t pixels = output.getDimSize(2) * output.getDimSize(3);
  bool strided = !allOnes(conv.getStrides());
  return isa<FloatType>(element) && input.getElementType() == element &&
         filter.getElementType() == element && filter.getDimSize(2) == 1 &&
         filter.getDimSize(3) == 1 &&
         pixels >= (strided ? kFewestStridedPixels : kFewestPixels);
}

/// The pixels a strided 1 x 1 convolution reads, N x C x OH x OW, copied
/// out of its image by a generic of their own, which the schedule can split
/// among threads like any op. img2col's copy of the same pixels ran on one
/// thread inside the convolution's schedule, and the convolution's schedule
/// missed the contraction's rules: on 17 ResNet-style downsampling layers
/// the heuristic's schedules of the matmul read are 1.33x faster at two
/// threads and 1.20x at one (bench/RESULTS.md).
static Value stridedPixels(RewriterBase &rewriter,
                           mlir::linalg::Conv2DNchwFchwOp conv) {
  Value image = conv.getInputs()[0];
  if (allOnes(conv.getStrides()))
    return image;
  Location loc = conv.getLoc();
  auto imageType = cast<RankedTensorType>(image.getType());
  auto outputType = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> shape = {
      imageType.getDimSize(0), imageType.getDimSize(1),
      outputType.getDimSize(2), outputType.getDimSize(3)};
  Value empty =
      rewriter.create<tensor::EmptyOp>(loc, shape, imageType.getElementType());
  MLIRContext *context = conv.getContext();
  AffineExpr n, c, h, w;
  bindDims(context, n, c, h, w);
  SmallVector<AffineMap> maps = {
      AffineMap::get(4, 0, {n, c, h * strides[0], w * strides[1]}, context),
      AffineMap::getMultiDimIdentityMap(4, context)};
  SmallVector<mlir::utils::IteratorType> iterators(
      4, mlir::utils::IteratorType::parallel);
  return rewriter
      .create<mlir::linalg::GenericOp>(
          loc, empty.getType(), ValueRange{image}, ValueRange{empty}, maps,
          iterators,
          [](OpBuilder &b, Location at, ValueRange args) {
            b.create<mlir::linalg::YieldOp>(at, args[0]);
          })
      .getResult(0);
}

static RankedTensorType collapsedPixels(RankedTensorType type) {
  return RankedTensorType::get({type.getDimSize(0), type.getDimSize(1),
                                type.getDimSize(2) * type.getDimSize(3)},
                               type.getElementType());
}

/// N x C x H x W -> N x C x HW.
static SmallVector<ReassociationIndices> pixelsInOneDimension() {
  return {{0}, {1}, {2, 3}};
}

/// The accumulator at N x F x HW: a fill only the convolution reads is made
/// anew at that shape (the old one then dies); anything else is collapsed.
static Value collapsedInit(RewriterBase &rewriter, Location loc, Value init) {
  auto type = collapsedPixels(cast<RankedTensorType>(init.getType()));
  auto fill = init.getDefiningOp<mlir::linalg::FillOp>();
  if (fill && init.hasOneUse()) {
    Value empty = rewriter.create<tensor::EmptyOp>(loc, type.getShape(),
                                                   type.getElementType());
    return rewriter
        .create<mlir::linalg::FillOp>(fill.getLoc(), fill.getInputs()[0], empty)
        .getResult(0);
  }
  return rewriter.create<tensor::CollapseShapeOp>(loc, type, init,
                                                  pixelsInOneDimension());
}

static void rewritePointwise(RewriterBase &rewriter,
                             mlir::linalg::Conv2DNchwFchwOp conv) {
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  const SmallVector<ReassociationIndices> pixels = pixelsInOneDimension();
  Value input = rewriter.create<tensor::CollapseShapeOp>(
      loc, stridedPixels(rewriter, conv), pixels);
  Value filter = rewriter.create<tensor::CollapseShapeOp>(
      loc, conv.getInputs()[1],
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  Value init = collapsedInit(rewriter, loc, conv.getOutputs()[0]);

  // Loops (n, f, p, c): out[n, f, p] += filter[f, c] * in[n, c, p], the
  // filter as A and the image as B of a row-major matmul. The order of the
  // operands decides how the vectorized contraction lowers: filter first,
  // its FMAs run along the pixels; image first, along the filters, a row
  // apart (measured 4x slower).
  MLIRContext *context = conv.getContext();
  AffineExpr n, f, p, c;
  bindDims(context, n, f, p, c);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {f, c}, context),
                                 AffineMap::get(4, 0, {n, c, p}, context),
                                 AffineMap::get(4, 0, {n, f, p}, context)};
  using mlir::utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
      IteratorType::reduction};
  auto matmul = rewriter.create<mlir::linalg::GenericOp>(
      loc, init.getType(), ValueRange{filter, input}, ValueRange{init}, maps,
      iterators, [](OpBuilder &b, Location at, ValueRange args) {
        Value product = b.create<arith::MulFOp>(at, args[0], args[1]);
        Value sum = b.create<arith::AddFOp>(at, args[2], product);
        b.create<mlir::linalg::YieldOp>(at, sum);
      });
  Value result = rewriter.create<tensor::ExpandShapeOp>(
      loc, conv.getResultTypes()[0], matmul.getResult(0), pixels);
  Operation *oldInit = conv.getOutputs()[0].getDefiningOp();
  rewriter.replaceOp(conv, result);
  // The fill made anew leaves the old one and its empty tensor unread.
  while (oldInit && oldInit->use_empty() &&
         isa<mlir::linalg::FillOp, tensor::EmptyOp>(oldInit)) {
    Operation *next = isa<mlir::linalg::FillOp>(oldInit)
                          ? oldInit->getOperand(1).getDefiningOp()
                          : nullptr;
    rewriter.eraseOp(oldInit);
    oldInit = next;
  }
}

unsigned convolutionsAsMatmuls(ModuleOp module) {
  SmallVector<mlir::linalg::Conv2DNchwFchwOp> pointwise;
  module.walk([&](mlir::linalg::Conv2DNchwFchwOp conv) {
    if (isPointwise(conv))
      pointwise.push_back(conv);
  });
  IRRewriter rewriter(module.getContext());
  for (auto conv : pointwise)
    rewritePointwise(rewriter, conv);
  return pointwise.size();
}

} // namespace rlopt::linalg
