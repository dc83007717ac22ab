// fuse(s0, ..., sn-1): tile this consumer with scf.forall (like parallelize)
// and fuse its untransformed producers into the loop, so each tile computes
// just the producer slice it reads. The fused producers keep their own
// schedule entries, which then apply to the fused copy.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace rlopt::linalg {

std::optional<std::string>
checkParallelTiling(const OpState &op, const std::vector<int64_t> &sizes);
std::string emitParallelTiling(ScheduleState &state, OpState &op,
                               const std::vector<int64_t> &sizes);

static std::vector<unsigned> fusableProducers(const ScheduleState &state,
                                              unsigned index) {
  std::vector<unsigned> result;
  for (unsigned p : state.ops[index].info->producers) {
    const OpState &producer = state.ops[p];
    if (producer.history.empty() && producer.fusedInto < 0)
      result.push_back(p);
  }
  return result;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  const OpState &op = state.ops[index];
  if (!op.history.empty())
    return std::string("fuse must be the op's first transformation");
  if (fusableProducers(state, index).empty())
    return std::string("the op has no untransformed Linalg producer to fuse");
  return checkParallelTiling(op, sizes);
}

/// The producer's loop ranges inside one consumer tile, when every loop maps
/// to a plain consumer loop; empty when the slice shape is not static.
static std::vector<int64_t> fusedRanges(const OpState &consumer,
                                        const OpState &producer,
                                        std::vector<bool> &partial) {
  auto consumerOp = mlir::cast<mlir::linalg::LinalgOp>(consumer.info->op);
  auto producerOp = mlir::cast<mlir::linalg::LinalgOp>(producer.info->op);
  mlir::OpOperand *use = nullptr;
  for (mlir::OpOperand &operand : consumerOp->getOpOperands())
    if (operand.get().getDefiningOp() == producerOp.getOperation())
      use = &operand;
  if (!use || producerOp->getNumResults() != 1)
    return {};
  mlir::AffineMap consumerMap = consumerOp.getMatchingIndexingMap(use);
  mlir::AffineMap producerMap = producerOp.getIndexingMapMatchingResult(
      mlir::cast<mlir::OpResult>(use->get()));
  std::vector<int64_t> ranges = producer.ranges;
  partial.assign(ranges.size(), false);
  for (unsigned r = 0; r < producerMap.getNumResults(); ++r) {
    auto producerDim =
        mlir::dyn_cast<mlir::AffineDimExpr>(producerMap.getResult(r));
    auto consumerDim =
        mlir::dyn_cast<mlir::AffineDimExpr>(consumerMap.getResult(r));
    if (!producerDim || !consumerDim)
      return {};
    unsigned p = producerDim.getPosition(), c = consumerDim.getPosition();
    ranges[p] = consumer.ranges[c];
    partial[p] = consumer.partial[c];
  }
  return ranges;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &sizes) {
  std::vector<unsigned> producers = fusableProducers(state, index);
  std::string forall = emitParallelTiling(state, state.ops[index], sizes);
  for (unsigned p : producers) {
    OpState &producer = state.ops[p];
    std::string fused = state.script.fresh(producer.info->id + "_fused");
    std::string loop = state.script.fresh(forall);
    state.script.line(fused + ", " + loop +
                      " = transform.structured.fuse_into_containing_op " +
                      producer.handle + " into " + forall + " : " +
                      ScriptWriter::anyOps(2) + " -> " +
                      ScriptWriter::anyOps(2));
    forall = loop;
    std::vector<bool> partial;
    std::vector<int64_t> ranges =
        fusedRanges(state.ops[index], producer, partial);
    producer.handle = fused;
    producer.fusedInto = index;
    producer.parallelized = true;
    if (ranges.empty()) {
      producer.fusedOpaque = true;
    } else {
      producer.ranges = ranges;
      producer.partial = partial;
    }
  }
}

Transformation fuseTransformation() {
  return {"fuse", ParamKind::PerParallelLoop,
          "tile with scf.forall and fuse the op's producers into the loop",
          check, emit};
}

} // namespace rlopt::linalg
