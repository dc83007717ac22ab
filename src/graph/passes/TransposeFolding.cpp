// TransposeFolding: a transpose feeding a dot is folded into the dot's
// dimension numbers when it keeps the order of the operand's free
// (non-batch, non-contracting) dimensions, so the output is unchanged; a
// transpose feeding a convolution's input or kernel is folded into its
// dim_labels. Transposes of dot/convolution outputs are left alone.
//
// XLA's CPU pipeline configures the pass more narrowly, and the default
// pipeline uses that configuration: into a dot only a transpose that swaps
// the two non-batch dims of an operand with one contracting dim
// (IsRowColumnTransposeDotOperand), since that is what its GEMM calls take
// as a flag; never into a convolution (NeverFoldTranspose).
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

/// Which transposes a configuration folds.
struct FoldRules {
  bool anyFreeOrderKeepingDotOperand = true;
  bool convolutionOperands = true;
};

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

/// Two non-batch dims, one of them contracting, swapped; batch dims fixed.
bool isRowColumnTranspose(const Instruction *transpose,
                          const std::vector<int64_t> &batch,
                          const std::vector<int64_t> &contracting) {
  const std::vector<int64_t> &perm = transpose->dimensions();
  if (contracting.size() != 1 || batch.size() + 2 != perm.size())
    return false;
  for (int64_t dim : batch)
    if (perm[dim] != dim)
      return false;
  return true;
}

Instruction *foldIntoDot(Instruction &dot, ModuleEditor &editor,
                         const FoldRules &rules) {
  DotDims dims = dot.dotDims();
  std::vector<Instruction *> operands = dot.operands();
  bool folded = false;
  for (int side = 0; side < 2; ++side) {
    Instruction *operand = operands[side];
    auto &batch = side == 0 ? dims.lhsBatch : dims.rhsBatch;
    auto &contracting = side == 0 ? dims.lhsContracting : dims.rhsContracting;
    if (operand->opcode() != Opcode::Transpose)
      continue;
    bool foldable = rules.anyFreeOrderKeepingDotOperand
                        ? keepsFreeOrder(operand, batch, contracting)
                        : isRowColumnTranspose(operand, batch, contracting);
    if (!foldable)
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

Result<bool> foldTransposes(Module &module, const FoldRules &rules) {
  return rewriteEachInstruction(
      module, [&](Instruction &instruction, ModuleEditor &editor) {
        if (instruction.opcode() == Opcode::Dot)
          return foldIntoDot(instruction, editor, rules);
        if (instruction.opcode() == Opcode::Convolution &&
            rules.convolutionOperands)
          return foldIntoConvolution(instruction, editor);
        return static_cast<Instruction *>(nullptr);
      });
}

} // namespace

Result<bool> runTransposeFolding(Module &module) {
  return foldTransposes(module, FoldRules{});
}

Result<bool> runCpuTransposeFolding(Module &module) {
  return foldTransposes(module, FoldRules{false, false});
}

} // namespace rlopt::graph
