// DotDecomposer: every dot not already in canonical form becomes one:
// operands transposed to [batch..., free..., contracting...] (lhs) and
// [batch..., contracting..., free...] (rhs), reshaped so each has exactly
// one free and one contracting dimension (size 1 when there is none), a
// dot with batch dimensions leading, and a reshape back to the original
// output. Adds instructions; canonical dots are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>
#include <numeric>

namespace rlopt::graph {

namespace {

std::vector<int64_t> freeDims(int64_t rank, const std::vector<int64_t> &batch,
                              const std::vector<int64_t> &contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!std::count(batch.begin(), batch.end(), d) &&
        !std::count(contracting.begin(), contracting.end(), d))
      free.push_back(d);
  return free;
}

bool isCanonical(const Instruction &dot) {
  const DotDims &dims = dot.dotDims();
  int64_t batch = static_cast<int64_t>(dims.lhsBatch.size());
  std::vector<int64_t> leading(batch);
  std::iota(leading.begin(), leading.end(), 0);
  return dims.lhsBatch == leading && dims.rhsBatch == leading &&
         dot.operand(0)->shape().rank() == batch + 2 &&
         dot.operand(1)->shape().rank() == batch + 2 &&
         dims.lhsContracting == std::vector<int64_t>{batch + 1} &&
         dims.rhsContracting == std::vector<int64_t>{batch};
}

// Transposes `operand` to `order` and reshapes it to `dims`, skipping
// whichever is a no-op.
Instruction *arrange(ModuleEditor &editor, Computation &computation,
                     Instruction *operand, const std::vector<int64_t> &order,
                     const std::vector<int64_t> &dims) {
  if (!isIdentityPermutation(order))
    operand = addTranspose(editor, computation, operand, order);
  if (operand->shape().dims() != dims)
    operand = addReshape(editor, computation, operand, dims);
  return operand;
}

Instruction *canonicalize(Instruction &dot, ModuleEditor &editor) {
  if (dot.opcode() != Opcode::Dot || !isStaticArray(dot.shape()) ||
      isCanonical(dot))
    return nullptr;
  Computation &computation = *dot.parent();
  const DotDims &dims = dot.dotDims();
  Instruction *lhs = dot.operand(0), *rhs = dot.operand(1);
  std::vector<int64_t> lhsFree =
      freeDims(lhs->shape().rank(), dims.lhsBatch, dims.lhsContracting);
  std::vector<int64_t> rhsFree =
      freeDims(rhs->shape().rank(), dims.rhsBatch, dims.rhsContracting);

  auto sizes = [](const Instruction *operand, const std::vector<int64_t> &d) {
    int64_t size = 1;
    for (int64_t dim : d)
      size *= operand->shape().dim(dim);
    return size;
  };
  std::vector<int64_t> batchDims;
  for (int64_t dim : dims.lhsBatch)
    batchDims.push_back(lhs->shape().dim(dim));
  int64_t m = sizes(lhs, lhsFree), n = sizes(rhs, rhsFree);
  int64_t k = sizes(lhs, dims.lhsContracting);

  std::vector<int64_t> lhsOrder = dims.lhsBatch;
  lhsOrder.insert(lhsOrder.end(), lhsFree.begin(), lhsFree.end());
  lhsOrder.insert(lhsOrder.end(), dims.lhsContracting.begin(),
                  dims.lhsContracting.end());
  std::vector<int64_t> lhsDims = batchDims;
  lhsDims.push_back(m);
  lhsDims.push_back(k);

  std::vector<int64_t> rhsOrder = dims.rhsBatch;
  rhsOrder.insert(rhsOrder.end(), dims.rhsContracting.begin(),
                  dims.rhsContracting.end());
  rhsOrder.insert(rhsOrder.end(), rhsFree.begin(), rhsFree.end());
  std::vector<int64_t> rhsDims = batchDims;
  rhsDims.push_back(k);
  rhsDims.push_back(n);

  Instruction *left = arrange(editor, computation, lhs, lhsOrder, lhsDims);
  Instruction *right = arrange(editor, computation, rhs, rhsOrder, rhsDims);
  int64_t batch = static_cast<int64_t>(batchDims.size());
  std::vector<int64_t> leading(batch);
  std::iota(leading.begin(), leading.end(), 0);
  std::vector<int64_t> outDims = batchDims;
  outDims.push_back(m);
  outDims.push_back(n);
  auto copy = copyInstruction(dot, editor.names().fresh("dot"), {left, right});
  copy->setShape(arrayShape(dot.shape().type(), outDims));
  for (const char *key : {"lhs_batch_dims", "rhs_batch_dims"})
    if (!copy->setAttribute(key, formatIntList(leading)))
      return nullptr;
  if (!copy->setAttribute("lhs_contracting_dims", formatIntList({batch + 1})) ||
      !copy->setAttribute("rhs_contracting_dims", formatIntList({batch})))
    return nullptr;
  Instruction *canonical = editor.adopt(computation, std::move(copy));
  if (canonical->shape().dims() == dot.shape().dims())
    return canonical;
  return addReshape(editor, computation, canonical, dot.shape().dims());
}

} // namespace

Result<bool> runDotDecomposer(Module &module) {
  return rewriteEachInstruction(module, canonicalize);
}

} // namespace rlopt::graph
