#include "rlopt/linalg/Analysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstdlib>
#include <sstream>

using namespace mlir;

namespace rlopt::linalg {

const char *opClassName(OpClass opClass) {
  switch (opClass) {
  case OpClass::Fill:
    return "fill";
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Matmul:
    return "matmul";
  case OpClass::Conv2d:
    return "conv2d";
  case OpClass::Pooling:
    return "pooling";
  case OpClass::Transpose:
    return "transpose";
  case OpClass::Generic:
    return "generic";
  }
  return "generic";
}

int64_t OpInfo::iterationCount() const {
  int64_t n = 1;
  for (int64_t r : loopRanges)
    n *= r;
  return n;
}

std::vector<Operation *> collectLinalgOps(ModuleOp module) {
  std::vector<Operation *> ops;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<mlir::linalg::LinalgOp>(op))
      ops.push_back(op);
  });
  return ops;
}

/// Adds `scale` times the linear form of `expr` to `row`. Non-linear terms
/// (mod, floordiv) leave no coefficient: the matrix then under-approximates.
static void accumulateLinear(AffineExpr expr, int64_t scale,
                             std::vector<int64_t> &row) {
  unsigned constantColumn = row.size() - 1;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    row[dim.getPosition()] += scale;
  } else if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
    row[constantColumn] += scale * cst.getValue();
  } else if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
    if (expr.getKind() == AffineExprKind::Add) {
      accumulateLinear(bin.getLHS(), scale, row);
      accumulateLinear(bin.getRHS(), scale, row);
    } else if (expr.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        accumulateLinear(bin.getLHS(), scale * c.getValue(), row);
      else if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        accumulateLinear(bin.getRHS(), scale * c.getValue(), row);
    }
  }
}

AccessMatrix accessMatrix(AffineMap map) {
  AccessMatrix matrix;
  for (AffineExpr expr : map.getResults()) {
    std::vector<int64_t> row(map.getNumDims() + 1, 0);
    accumulateLinear(expr, 1, row);
    matrix.push_back(std::move(row));
  }
  return matrix;
}

int64_t accessSpan(const std::vector<int64_t> &row,
                   const std::vector<int64_t> &extent) {
  int64_t span = 1;
  for (size_t l = 0; l + 1 < row.size() && l < extent.size(); ++l)
    span += std::abs(row[l]) * (extent[l] - 1);
  return span;
}

static ArithCounts countArith(Operation *op) {
  ArithCounts counts;
  for (Region &region : op->getRegions()) {
    region.walk([&](Operation *inner) {
      if (isa<arith::AddFOp, arith::AddIOp>(inner))
        ++counts.add;
      else if (isa<arith::SubFOp, arith::SubIOp>(inner))
        ++counts.sub;
      else if (isa<arith::MulFOp, arith::MulIOp>(inner))
        ++counts.mul;
      else if (isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>(inner))
        ++counts.div;
      else if (inner->getDialect() &&
               inner->getDialect()->getNamespace() == "math")
        ++counts.transcendental;
      else if (!isa<mlir::linalg::YieldOp, mlir::linalg::IndexOp,
                    arith::ConstantOp>(inner))
        ++counts.other;
    });
  }
  return counts;
}

static bool isElementwise(mlir::linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 0)
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return false;
  return true;
}

static OpClass classify(mlir::linalg::LinalgOp op) {
  Operation *raw = op.getOperation();
  if (isa<mlir::linalg::FillOp>(raw))
    return OpClass::Fill;
  if (isa<mlir::linalg::MatmulOp, mlir::linalg::BatchMatmulOp,
          mlir::linalg::MatvecOp, mlir::linalg::VecmatOp,
          mlir::linalg::MatmulTransposeBOp, mlir::linalg::MatmulTransposeAOp,
          mlir::linalg::BatchMatmulTransposeBOp, mlir::linalg::DotOp>(raw))
    return OpClass::Matmul;
  if (isa<mlir::linalg::Conv2DNhwcHwcfOp, mlir::linalg::Conv2DNchwFchwOp,
          mlir::linalg::DepthwiseConv2DNhwcHwcOp,
          mlir::linalg::Conv2DNhwcFhwcOp>(raw))
    return OpClass::Conv2d;
  if (isa<mlir::linalg::PoolingNhwcMaxOp, mlir::linalg::PoolingNhwcSumOp,
          mlir::linalg::PoolingNchwMaxOp, mlir::linalg::PoolingNchwSumOp>(raw))
    return OpClass::Pooling;
  if (isa<mlir::linalg::TransposeOp>(raw))
    return OpClass::Transpose;
  if (isElementwise(op))
    return OpClass::Elementwise;
  if (op.getNumReductionLoops() != 0) {
    bool permutations =
        llvm::all_of(op.getIndexingMapsArray(),
                     [](AffineMap m) { return m.isProjectedPermutation(); });
    if (permutations &&
        isa<mlir::linalg::GenericOp, mlir::linalg::ReduceOp>(raw))
      return op.getNumDpsInputs() >= 2 ? OpClass::Matmul : OpClass::Reduction;
  }
  return OpClass::Generic;
}

/// Counts the op's static tensor operands: their elements, and the bytes of
/// the largest. MLIR's contraction and convolution matchers also accept a
/// bias add and a squared-difference sum; counting the reuse itself does not.
static void countOperands(OpInfo &info) {
  int64_t elements = 0;
  for (Value operand : info.op->getOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.getType());
    if (!shaped || !shaped.hasStaticShape())
      continue;
    elements += shaped.getNumElements();
    info.largestOperandBytes = std::max<int64_t>(
        info.largestOperandBytes,
        shaped.getNumElements() *
            std::max<int64_t>(1, shaped.getElementTypeBitWidth() / 8));
  }
  info.reusesOperands = info.iterationCount() >= 2 * elements;
  info.usedOnlyByConsumers =
      llvm::all_of(info.op->getUsers(), [](Operation *user) {
        return isa<mlir::linalg::LinalgOp>(user);
      });
}

static unsigned lineOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return loc.getLine();
  return 0;
}

std::vector<OpInfo> analyzeOps(ModuleOp module) {
  std::vector<Operation *> ops = collectLinalgOps(module);
  llvm::DenseMap<Operation *, unsigned> indexOf;
  for (unsigned i = 0; i < ops.size(); ++i)
    indexOf[ops[i]] = i;

  std::vector<OpInfo> infos(ops.size());
  for (unsigned i = 0; i < ops.size(); ++i) {
    auto op = cast<mlir::linalg::LinalgOp>(ops[i]);
    OpInfo &info = infos[i];
    info.index = i;
    info.id = "op" + std::to_string(i);
    info.kind = ops[i]->getName().getStringRef().str();
    info.opClass = classify(op);
    info.op = ops[i];
    info.line = lineOf(ops[i]);
    llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    info.loopRanges.assign(ranges.begin(), ranges.end());
    for (utils::IteratorType type : op.getIteratorTypesArray())
      info.isReduction.push_back(type == utils::IteratorType::reduction);
    for (OpOperand *input : op.getDpsInputOperands())
      if (!isa<FloatType, IntegerType, IndexType>(input->get().getType()))
        info.loads.push_back(accessMatrix(op.getMatchingIndexingMap(input)));
    for (OpOperand &init : op.getDpsInitsMutable()) {
      AccessMatrix matrix = accessMatrix(op.getMatchingIndexingMap(&init));
      if (op.payloadUsesValueFromOperand(&init))
        info.loads.push_back(matrix);
      info.stores.push_back(matrix);
    }
    info.arith = countArith(ops[i]);
    countOperands(info);
    for (Value operand : ops[i]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      auto it = def ? indexOf.find(def) : indexOf.end();
      if (it == indexOf.end())
        continue;
      unsigned producer = it->second;
      if (llvm::is_contained(info.producers, producer))
        continue;
      info.producers.push_back(producer);
      infos[producer].consumers.push_back(i);
    }
  }
  return infos;
}

nlohmann::json toJson(const OpInfo &info) {
  nlohmann::json iterators = nlohmann::json::array();
  for (bool reduction : info.isReduction)
    iterators.push_back(reduction ? "reduction" : "parallel");
  return {
      {"id", info.id},
      {"kind", info.kind},
      {"class", opClassName(info.opClass)},
      {"line", info.line},
      {"loop_ranges", info.loopRanges},
      {"iterator_types", iterators},
      {"loads", info.loads},
      {"stores", info.stores},
      {"arith",
       {{"add", info.arith.add},
        {"sub", info.arith.sub},
        {"mul", info.arith.mul},
        {"div", info.arith.div},
        {"transcendental", info.arith.transcendental},
        {"other", info.arith.other}}},
      {"producers", info.producers},
      {"consumers", info.consumers},
  };
}

static std::string joinInts(const std::vector<int64_t> &values) {
  std::ostringstream out;
  for (size_t i = 0; i < values.size(); ++i)
    out << (i ? "," : "") << values[i];
  return out.str();
}

std::string describe(const OpInfo &info) {
  std::ostringstream out;
  out << info.id << "  " << info.kind << "  (" << opClassName(info.opClass)
      << ", line " << info.line << ")\n";
  out << "  loops      [" << joinInts(info.loopRanges) << "]  ";
  for (bool reduction : info.isReduction)
    out << (reduction ? 'R' : 'P');
  out << "\n  arith      add " << info.arith.add << ", sub " << info.arith.sub
      << ", mul " << info.arith.mul << ", div " << info.arith.div
      << ", transcendental " << info.arith.transcendental << ", other "
      << info.arith.other << "\n";
  auto printMatrices = [&](const char *label,
                           const std::vector<AccessMatrix> &matrices) {
    for (const AccessMatrix &matrix : matrices) {
      out << "  " << label << "      ";
      for (size_t r = 0; r < matrix.size(); ++r)
        out << (r ? " | " : "") << joinInts(matrix[r]);
      out << "\n";
    }
  };
  printMatrices("load ", info.loads);
  printMatrices("store", info.stores);
  auto printEdges = [&](const char *label, const std::vector<unsigned> &ids) {
    if (ids.empty())
      return;
    out << "  " << label;
    for (unsigned id : ids)
      out << " op" << id;
    out << "\n";
  };
  printEdges("producers ", info.producers);
  printEdges("consumers ", info.consumers);
  return out.str();
}

} // namespace rlopt::linalg
