// TransposeFolding: a transpose feeding a dot is folded into the dot's
// dimension numbers when it keeps the order of the operand's free
// (non-batch, non-contracting) dimensions, so the output is unchanged; a
// transpose feeding a convolution's input or kernel is folded into its
// dim_labels. Transposes of dot/convolution outputs are left alone.
#include "PassSupport.h"
#include "Passes.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

std::vector<int64_t> mapped(const std::vector<int64_t> &dims,
                            const std::vector<int64_t> &perm) {
  std::vector<int64_t> out;
  for (int64_t dim : dims)
    out.push_back(perm[dim]);
  return out;
}

bool keepsFreeOrder(const Instruction *transpose,
                    const std::vector<int64_t> &batch,
                    const std::vector<int64_t> &contracting) {
  const std::vector<int64_t> &perm = transpose->dimensions();
  int64_t last = -1;
  for (int64_t i = 0; i < static_cast<int64_t>(perm.size()); ++i) {
    if (std::count(batch.begin(), batch.end(), i) ||
        std::count(contracting.begin(), contracting.end(), i))
      continue;
    if (perm[i] < last)
      return false;
    last = perm[i];
  }
  return true;
}

Instruction *foldIntoDot(Instruction &dot, ModuleEditor &editor) {
  DotDims dims = dot.dotDims();
  std::vector<Instruction *> operands = dot.operands();
  bool folded = false;
  for (int side = 0; side < 2; ++side) {
    Instruction *operand = operands[side];
    auto &batch = side == 0 ? dims.lhsBatch : dims.rhsBatch;
    auto &contracting = side == 0 ? dims.lhsContracting : dims.rhsContracting;
    if (operand->opcode() != Opcode::Transpose ||
        !keepsFreeOrder(operand, batch, contracting))
      continue;
    batch = mapped(batch, operand->dimensions());
    contracting = mapped(contracting, operand->dimensions());
    operands[side] = operand->operand(0);
    folded = true;
  }
  if (!folded)
    return nullptr;
  auto copy = copyInstruction(dot, editor.names().fresh("dot"), operands);
  std::pair<const char *, const std::vector<int64_t> *> lists[] = {
      {"lhs_batch_dims", &dims.lhsBatch},
      {"rhs_batch_dims", &dims.rhsBatch},
      {"lhs_contracting_dims", &dims.lhsContracting},
      {"rhs_contracting_dims", &dims.rhsContracting}};
  for (auto [key, values] : lists)
    if (!values->empty() || copy->findAttribute(key))
      if (!copy->setAttribute(key, formatIntList(*values)))
        return nullptr;
  return editor.adopt(*dot.parent(), std::move(copy));
}

Instruction *foldIntoConvolution(Instruction &convolution,
                                 ModuleEditor &editor) {
  if (!convolution.convDims() || convolution.operandCount() != 2)
    return nullptr;
  ConvDims dims = *convolution.convDims();
  std::vector<Instruction *> operands = convolution.operands();
  bool folded = false;
  if (operands[0]->opcode() == Opcode::Transpose) {
    const auto &perm = operands[0]->dimensions();
    dims.inputBatch = perm[dims.inputBatch];
    dims.inputFeature = perm[dims.inputFeature];
    dims.inputSpatial = mapped(dims.inputSpatial, perm);
    operands[0] = operands[0]->operand(0);
    folded = true;
  }
  if (operands[1]->opcode() == Opcode::Transpose) {
    const auto &perm = operands[1]->dimensions();
    dims.kernelInputFeature = perm[dims.kernelInputFeature];
    dims.kernelOutputFeature = perm[dims.kernelOutputFeature];
    dims.kernelSpatial = mapped(dims.kernelSpatial, perm);
    operands[1] = operands[1]->operand(0);
    folded = true;
  }
  if (!folded || dims.inputSpatial.size() > 10)
    return nullptr;
  auto copy = copyInstruction(convolution, editor.names().fresh("convolution"),
                              operands);
  if (!copy->setAttribute("dim_labels", formatConvDims(dims)))
    return nullptr;
  return editor.adopt(*convolution.parent(), std::move(copy));
}

Instruction *simplify(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() == Opcode::Dot)
    return foldIntoDot(instruction, editor);
  if (instruction.opcode() == Opcode::Convolution)
    return foldIntoConvolution(instruction, editor);
  return nullptr;
}

} // namespace

Result<bool> runTransposeFolding(Module &module) {
  return rewriteEachInstruction(module, simplify);
}

} // namespace rlopt::graph
