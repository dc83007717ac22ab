// BatchDotSimplification: batch dimensions of size 1 are removed from a
// dot: both operands are reshaped without them, the dot runs with the
// remaining batch dimensions, and its result is reshaped back. Adds
// reshapes; dots whose batch dimensions are all larger are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

// `dims` without the entries at `drop`, each remaining index lowered by the
// dropped indices below it.
std::vector<int64_t> renumbered(const std::vector<int64_t> &dims,
                                const std::vector<int64_t> &drop) {
  std::vector<int64_t> out;
  for (int64_t dim : dims) {
    if (std::count(drop.begin(), drop.end(), dim))
      continue;
    int64_t below = std::count_if(drop.begin(), drop.end(),
                                  [&](int64_t d) { return d < dim; });
    out.push_back(dim - below);
  }
  return out;
}

Instruction *simplify(Instruction &dot, ModuleEditor &editor) {
  if (dot.opcode() != Opcode::Dot || !isStaticArray(dot.shape()))
    return nullptr;
  const DotDims &dims = dot.dotDims();
  Instruction *lhs = dot.operand(0), *rhs = dot.operand(1);
  std::vector<int64_t> lhsDrop, rhsDrop, outDrop;
  for (size_t k = 0; k < dims.lhsBatch.size(); ++k) {
    if (lhs->shape().dim(dims.lhsBatch[k]) != 1)
      continue;
    lhsDrop.push_back(dims.lhsBatch[k]);
    rhsDrop.push_back(dims.rhsBatch[k]);
    outDrop.push_back(static_cast<int64_t>(k));
  }
  if (lhsDrop.empty())
    return nullptr;
  Computation &computation = *dot.parent();
  Instruction *left = addReshape(editor, computation, lhs,
                                 dimsWithout(lhs->shape().dims(), lhsDrop));
  Instruction *right = addReshape(editor, computation, rhs,
                                  dimsWithout(rhs->shape().dims(), rhsDrop));
  auto copy = copyInstruction(dot, editor.names().fresh("dot"), {left, right});
  copy->setShape(
      arrayShape(dot.shape().type(), dimsWithout(dot.shape().dims(), outDrop)));
  std::pair<const char *, std::vector<int64_t>> lists[] = {
      {"lhs_batch_dims", renumbered(dims.lhsBatch, lhsDrop)},
      {"rhs_batch_dims", renumbered(dims.rhsBatch, rhsDrop)},
      {"lhs_contracting_dims", renumbered(dims.lhsContracting, lhsDrop)},
      {"rhs_contracting_dims", renumbered(dims.rhsContracting, rhsDrop)}};
  for (const auto &[key, values] : lists)
    if (!values.empty() || copy->findAttribute(key))
      if (!copy->setAttribute(key, formatIntList(values)))
        return nullptr;
  Instruction *narrow = editor.adopt(computation, std::move(copy));
  return addReshape(editor, computation, narrow, dot.shape().dims());
}

} // namespace

Result<bool> runBatchDotSimplification(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
