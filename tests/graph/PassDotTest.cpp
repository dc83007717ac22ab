// Dot and data-movement passes: transpose folding, dot decomposer, dot
// merger, dot dimension sorter, batch-dot simplification, convert operand
// folding, reshape and convert movers, broadcast canonicalizer and slice
// sinker.
#include "PassTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const Instruction *rootOf(const Module &module) {
  return module.entry()->root();
}

TEST(PassTransposeFolding, FoldsIntoDotAndConvolution) {
  Module module = expectRewrite("transpose-folding", R"(
HloModule m
ENTRY e {
  a = f32[3,4] parameter(0)
  b = f32[3,5] parameter(1)
  at = f32[4,3] transpose(a), dimensions={1,0}
  d = f32[4,5] dot(at, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  x = f32[1,2,5,5] parameter(2)
  k = f32[3,3,2,4] parameter(3)
  xt = f32[1,5,5,2] transpose(x), dimensions={0,2,3,1}
  c = f32[1,3,3,4] convolution(xt, k), window={size=3x3}, dim_labels=b01f_01io->b01f
  ROOT r = (f32[4,5], f32[1,3,3,4]) tuple(d, c)
})");
  EXPECT_EQ(countOf(module, Opcode::Transpose), 0);
  EXPECT_EQ(rootOf(module)->operand(0)->dotDims().lhsContracting,
            (std::vector<int64_t>{0}));
}

TEST(PassTransposeFolding, KeepsTransposesThatReorderFreeDims) {
  expectNoRewrite("transpose-folding", R"(
HloModule m
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[4,5] parameter(1)
  at = f32[3,2,4] transpose(a), dimensions={1,0,2}
  ROOT d = f32[3,2,5] dot(at, b), lhs_contracting_dims={2}, rhs_contracting_dims={0}
})");
}

TEST(PassTransposeFolding, OnCpuFoldsOnlyRowColumnTransposesIntoDots) {
  // The dot's operand transpose swaps its two non-batch dims: folded. The
  // convolution's input transpose is not: XLA's CPU convolutions do not take
  // transposed operands.
  Module module = expectRewrite("transpose-folding-cpu", R"(
HloModule m
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[2,3,5] parameter(1)
  at = f32[2,4,3] transpose(a), dimensions={0,2,1}
  d = f32[2,4,5] dot(at, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  x = f32[1,2,5,5] parameter(2)
  k = f32[3,3,2,4] parameter(3)
  xt = f32[1,5,5,2] transpose(x), dimensions={0,2,3,1}
  c = f32[1,3,3,4] convolution(xt, k), window={size=3x3}, dim_labels=b01f_01io->b01f
  ROOT r = (f32[2,4,5], f32[1,3,3,4]) tuple(d, c)
})");
  EXPECT_EQ(countOf(module, Opcode::Transpose), 1);
  EXPECT_EQ(rootOf(module)->operand(0)->dotDims().lhsContracting,
            (std::vector<int64_t>{1}));
  EXPECT_EQ(rootOf(module)->operand(1)->operand(0)->opcode(),
            Opcode::Transpose);
}

TEST(PassTransposeFolding, OnCpuKeepsTransposesOfMoreThanRowAndColumn) {
  // Moves a batch dim: the action folds it (free order kept), the CPU
  // configuration does not.
  const char *text = R"(
HloModule m
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[3,4,5] parameter(1)
  at = f32[3,2,4] transpose(a), dimensions={1,0,2}
  ROOT d = f32[3,2,5] dot(at, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})";
  expectNoRewrite("transpose-folding-cpu", text);
  Module folded = expectRewrite("transpose-folding", text);
  EXPECT_EQ(countOf(folded, Opcode::Transpose), 0);
}

TEST(PassDotDecomposer, CanonicalizesDots) {
  Module module = expectRewrite("dot-decomposer", R"(
HloModule m
ENTRY e {
  a = f32[4,3,2] parameter(0)
  b = f32[5,3] parameter(1)
  ROOT d = f32[4,2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})");
  const Instruction *dot = nullptr;
  for (const auto &instruction : module.entry()->instructions())
    if (instruction->opcode() == Opcode::Dot)
      dot = instruction.get();
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(dot->shape().dims(), (std::vector<int64_t>{8, 5}));
  EXPECT_EQ(dot->dotDims().lhsContracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(dot->dotDims().rhsContracting, (std::vector<int64_t>{0}));
}

TEST(PassDotDecomposer, KeepsCanonicalDots) {
  expectNoRewrite("dot-decomposer", R"(
HloModule m
ENTRY e {
  a = f32[2,4,3] parameter(0)
  b = f32[2,3,5] parameter(1)
  ROOT d = f32[2,4,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})");
}

TEST(PassDotMerger, MergesDotsSharingAnOperand) {
  Module module = expectRewrite("dot-merger", R"(
HloModule m
ENTRY e {
  x = f32[4,3] parameter(0)
  w1 = f32[3,5] parameter(1)
  w2 = f32[3,6] parameter(2)
  d1 = f32[4,5] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[4,6] dot(x, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[4,5], f32[4,6]) tuple(d1, d2)
})");
  EXPECT_EQ(countOf(module, Opcode::Dot), 1);
  EXPECT_EQ(countOf(module, Opcode::Slice), 2);
}

TEST(PassDotMerger, KeepsDependentDots) {
  expectNoRewrite("dot-merger", R"(
HloModule m
ENTRY e {
  x = f32[4,4] parameter(0)
  w = f32[4,4] parameter(1)
  d1 = f32[4,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[4,4] dot(x, d1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[4,4], f32[4,4]) tuple(d1, d2)
})");
}

TEST(PassDotDimensionSorter, SortsContractingDims) {
  Module module = expectRewrite("dot-dimension-sorter", R"(
HloModule m
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[3,2,5] parameter(1)
  ROOT d = f32[4,5] dot(a, b), lhs_contracting_dims={1,0}, rhs_contracting_dims={0,1}
})");
  EXPECT_EQ(rootOf(module)->dotDims().lhsContracting,
            (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(rootOf(module)->dotDims().rhsContracting,
            (std::vector<int64_t>{1, 0}));
}

TEST(PassDotDimensionSorter, KeepsSortedDims) {
  expectNoRewrite("dot-dimension-sorter", R"(
HloModule m
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[2,3,5] parameter(1)
  ROOT d = f32[4,5] dot(a, b), lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}
})");
}

TEST(PassBatchDotSimplification, DropsSizeOneBatchDims) {
  Module module = expectRewrite("batch-dot-simplification", R"(
HloModule m
ENTRY e {
  a = f32[1,4,3] parameter(0)
  b = f32[1,3,5] parameter(1)
  ROOT d = f32[1,4,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})");
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Reshape);
  EXPECT_TRUE(rootOf(module)->operand(0)->dotDims().lhsBatch.empty());
}

TEST(PassBatchDotSimplification, KeepsRealBatches) {
  expectNoRewrite("batch-dot-simplification", R"(
HloModule m
ENTRY e {
  a = f32[2,4,3] parameter(0)
  b = f32[2,3,5] parameter(1)
  ROOT d = f32[2,4,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})");
}

TEST(PassConvertOperandFolding, FoldsWideningConverts) {
  Module module = expectRewrite("convert-operand-folding", R"(
HloModule m
ENTRY e {
  a = bf16[4,3] parameter(0)
  b = f32[3,5] parameter(1)
  wide = f32[4,3] convert(a)
  ROOT d = f32[4,5] dot(wide, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_EQ(countOf(module, Opcode::Convert), 0);
}

TEST(PassConvertOperandFolding, KeepsNarrowingConverts) {
  expectNoRewrite("convert-operand-folding", R"(
HloModule m
ENTRY e {
  a = f32[4,3] parameter(0)
  b = bf16[3,5] parameter(1)
  narrow = bf16[4,3] convert(a)
  ROOT d = bf16[4,5] dot(narrow, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
}

TEST(PassReshapeMover, MovesReshapesBelowElementwiseOps) {
  Module module = expectRewrite("reshape-mover", R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[2,3] parameter(1)
  ra = f32[6] reshape(a)
  rb = f32[6] reshape(b)
  two = f32[] constant(2)
  twos = f32[6] broadcast(two), dimensions={}
  s = f32[6] add(ra, rb)
  ROOT m = f32[6] multiply(s, twos)
})");
  // One reshape after the add instead of one per operand.
  EXPECT_EQ(countOf(module, Opcode::Reshape), 1);
  EXPECT_EQ(rootOf(module)->operand(0)->opcode(), Opcode::Reshape);
}

TEST(PassReshapeMover, KeepsUnaryOps) {
  expectNoRewrite("reshape-mover", R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  ra = f32[6] reshape(a)
  ROOT n = f32[6] negate(ra)
})");
}

TEST(PassConvertMover, MovesWideningConvertsBelowConcatenate) {
  Module module = expectRewrite("convert-mover", R"(
HloModule m
ENTRY e {
  a = bf16[2] parameter(0)
  b = bf16[3] parameter(1)
  wa = f32[2] convert(a)
  wb = f32[3] convert(b)
  ROOT c = f32[5] concatenate(wa, wb), dimensions={0}
})");
  EXPECT_EQ(countOf(module, Opcode::Convert), 1);
  EXPECT_EQ(rootOf(module)->opcode(), Opcode::Convert);
}

TEST(PassConvertMover, KeepsConvertsOfDifferentTypes) {
  expectNoRewrite("convert-mover", R"(
HloModule m
ENTRY e {
  a = bf16[2] parameter(0)
  b = f16[3] parameter(1)
  wa = f32[2] convert(a)
  wb = f32[3] convert(b)
  ROOT c = f32[5] concatenate(wa, wb), dimensions={0}
})");
}

TEST(PassBroadcastCanonicalizer, SortsBroadcastDimensions) {
  Module module = expectRewrite("broadcast-canonicalizer", R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  ROOT b = f32[3,4,2] broadcast(a), dimensions={2,0}
})");
  EXPECT_EQ(rootOf(module)->dimensions(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(rootOf(module)->operand(0)->opcode(), Opcode::Transpose);
}

TEST(PassBroadcastCanonicalizer, KeepsSortedBroadcasts) {
  expectNoRewrite("broadcast-canonicalizer", R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  ROOT b = f32[2,4,3] broadcast(a), dimensions={0,2}
})");
}

TEST(PassSliceSinker, SinksSlicesCoveringTheOperands) {
  Module module = expectRewrite("slice-sinker", R"(
HloModule m
ENTRY e {
  a = f32[6] parameter(0)
  b = f32[6] parameter(1)
  a1 = f32[2] slice(a), slice={[0:2]}
  b1 = f32[2] slice(b), slice={[0:2]}
  a2 = f32[4] slice(a), slice={[2:6]}
  b2 = f32[4] slice(b), slice={[2:6]}
  s1 = f32[2] add(a1, b1)
  s2 = f32[4] add(a2, b2)
  ROOT r = (f32[2], f32[4]) tuple(s1, s2)
})");
  EXPECT_EQ(countOf(module, Opcode::Add), 1);
  EXPECT_EQ(countOf(module, Opcode::Slice), 2);
}

TEST(PassSliceSinker, KeepsPartialCovers) {
  expectNoRewrite("slice-sinker", R"(
HloModule m
ENTRY e {
  a = f32[6] parameter(0)
  b = f32[6] parameter(1)
  a1 = f32[2] slice(a), slice={[0:2]}
  b1 = f32[2] slice(b), slice={[0:2]}
  a2 = f32[3] slice(a), slice={[2:5]}
  b2 = f32[3] slice(b), slice={[2:5]}
  s1 = f32[2] add(a1, b1)
  s2 = f32[3] add(a2, b2)
  ROOT r = (f32[2], f32[3]) tuple(s1, s2)
})");
}

const char *kGroupedConvolution = R"(
HloModule m
ENTRY e {
  x = f32[1,5,5,4] parameter(0)
  k = f32[3,3,2,4] parameter(1)
  ROOT c = f32[1,3,3,4] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=GROUPS
})";

std::string groupedConvolution(const char *groups, const char *kernelInputs) {
  std::string text = kGroupedConvolution;
  text.replace(text.find("GROUPS"), 6, groups);
  text.replace(text.find("3,3,2,4"), 7,
               std::string("3,3,") + kernelInputs + ",4");
  return text;
}

TEST(PassConvolutionGroupConverter, ExpandsFeatureGroups) {
  Module module = expectRewrite("convolution-group-converter",
                                groupedConvolution("2", "2"));
  EXPECT_EQ(rootOf(module)->featureGroupCount(), 1);
  EXPECT_EQ(rootOf(module)->operand(1)->shape().dims(),
            (std::vector<int64_t>{3, 3, 4, 4}));
}

TEST(PassConvolutionGroupConverter, KeepsUngroupedConvolutions) {
  expectNoRewrite("convolution-group-converter", groupedConvolution("1", "4"));
}

} // namespace
