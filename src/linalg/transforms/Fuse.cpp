// fuse(s0, ..., sn-1): tile this consumer with scf.forall (like parallelize)
// and fuse its untransformed producers into the loop, and theirs in turn, so
// each tile computes just the slices of the whole chain it reads and the
// intermediate tensors never go through memory whole. The fused producers
// keep their own schedule entries, which then apply to the fused copy.
#include "rlopt/linalg/Transformation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

namespace rlopt::linalg {

std::optional<std::string>
checkParallelTiling(const OpState &op, const std::vector<int64_t> &sizes);
std::string emitParallelTiling(ScheduleState &state, OpState &op,
                               const std::vector<int64_t> &sizes);

/// The producers fused into the op's loop, consumers before their producers
/// (descending program order, as fuse_into_containing_op needs every use of
/// a producer inside the loop before it moves the producer there). An
/// untransformed producer joins when each of its uses is the op itself or a
/// producer already joined: it moves into the loop whole rather than being
/// cloned beside a copy left outside. A contraction or window joins only as
/// the op's direct producer, and nothing is fused through it: its operands
/// would be read again for every tile.
std::vector<unsigned> fusableProducers(const ScheduleState &state,
                                       unsigned index) {
  std::vector<unsigned> group;
  for (unsigned p = index; p-- > 0;) {
    const OpState &producer = state.ops[p];
    const OpInfo &info = *producer.info;
    if (!producer.history.empty() || producer.fusedInto >= 0 ||
        info.consumers.empty() || !info.usedOnlyByConsumers)
      continue;
    bool joins = llvm::all_of(info.consumers, [&](unsigned c) {
      if (c == index)
        return true;
      return !info.reusesOperands && llvm::is_contained(group, c) &&
             !state.ops[c].info->reusesOperands;
    });
    if (joins)
      group.push_back(p);
  }
  return group;
}

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &sizes) {
  const OpState &op = state.ops[index];
  if (!op.history.empty())
    return std::string("fuse must be the op's first transformation");
  if (fusableProducers(state, index).empty())
    return std::string("the op has no untransformed Linalg producer whose "
                       "every use is in its loop");
  return checkParallelTiling(op, sizes);
}

/// The producer's loop ranges inside one tile of `consumer`, when every loop
/// maps to a plain consumer loop; empty when the slice shape is not static
/// or the consumer does not read the producer.
static std::vector<int64_t> rangesInConsumer(const OpState &consumer,
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

/// The producer's loop ranges inside one tile of the loop: the slice every
/// consumer fused so far (or the loop's op) reads, when they all agree.
static std::vector<int64_t> fusedRanges(const ScheduleState &state,
                                        unsigned loopOp, unsigned producer,
                                        std::vector<bool> &partial) {
  std::vector<int64_t> ranges;
  for (unsigned c : state.ops[producer].info->consumers) {
    const OpState &consumer = state.ops[c];
    if (c != loopOp && consumer.fusedInto != static_cast<int>(loopOp))
      continue;
    if (consumer.fusedOpaque)
      return {};
    std::vector<bool> consumerPartial;
    std::vector<int64_t> slice =
        rangesInConsumer(consumer, state.ops[producer], consumerPartial);
    if (slice.empty() || (!ranges.empty() && slice != ranges))
      return {};
    ranges = slice;
    partial = consumerPartial;
  }
  return ranges;
}

/// Whether two of the producers are the same op on the same operands (two
/// fills of zeros into one empty tensor): CSE in the loop would make them
/// one, and tiling it through one handle would invalidate the other's.
static bool twoAreTheSame(const ScheduleState &state,
                          const std::vector<unsigned> &producers) {
  for (size_t i = 0; i < producers.size(); ++i)
    for (size_t j = i + 1; j < producers.size(); ++j) {
      // Values of the two bodies that correspond, as CSE matches them.
      llvm::DenseMap<mlir::Value, mlir::Value> matched;
      auto check = [&](mlir::Value a, mlir::Value b) {
        return mlir::success(a == b || matched.lookup(a) == b);
      };
      auto mark = [&](mlir::Value a, mlir::Value b) { matched[a] = b; };
      if (mlir::OperationEquivalence::isEquivalentTo(
              state.ops[producers[i]].info->op,
              state.ops[producers[j]].info->op, check, mark,
              mlir::OperationEquivalence::IgnoreLocations))
        return true;
    }
  return false;
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
    std::vector<int64_t> ranges = fusedRanges(state, index, p, partial);
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
  if (producers.empty() || twoAreTheSame(state, producers))
    return;
  // A producer read by two ops in the loop (softmax's exponentials, by the
  // sum and the division) is fused once per use; CSE keeps one copy, and
  // each handle then names its op once.
  state.script.line("transform.apply_cse to " + forall +
                    " : !transform.any_op");
  for (unsigned p : producers) {
    OpState &producer = state.ops[p];
    std::string unique = state.script.fresh(producer.info->id + "_fused");
    state.script.line(unique + " = transform.merge_handles deduplicate " +
                      producer.handle + " : !transform.any_op");
    producer.handle = unique;
  }
}

Transformation fuseTransformation() {
  return {"fuse", ParamKind::PerParallelLoop,
          "tile with scf.forall and fuse the op's producers into the loop",
          check, emit};
}

} // namespace rlopt::linalg
