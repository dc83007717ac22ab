// Shapes that contradict their operands or attributes are one error
// `file:line:col: what`, at the instruction, as XLA's verifier rejects
// them; the forms real graphs use still load.
#include "GraphTestUtil.h"

using namespace rlopt::graph;
using rlopt::graph::testing::parseOk;

namespace {

// The error for `text` read as the file "t", or "parsed" when it loads.
std::string errorOf(const std::string &text) {
  auto module = parseModule(text, "t");
  return module ? "parsed" : module.error().message;
}

std::string entry(const std::string &body) {
  return "HloModule m\n\nENTRY e {\n" + body + "}\n";
}

const char *kAdd = R"(HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

)";

} // namespace

TEST(VerifierShape, ReshapeMustKeepTheElementCount) {
  EXPECT_EQ(errorOf(entry("  p = f32[4] parameter(0)\n"
                          "  ROOT r = f32[5] reshape(p)\n")),
            "t:5:3: reshape of f32[4] to f32[5] changes the element count "
            "(4 to 5)");
  EXPECT_EQ(errorOf(entry("  p = f32[4] parameter(0)\n"
                          "  ROOT r = s32[2,2] reshape(p)\n")),
            "t:5:3: shape s32[2,2] differs from the inferred f32[2,2]");
}

TEST(VerifierShape, SliceMustStayInBoundsAndGiveItsShape) {
  EXPECT_EQ(errorOf(entry("  p = f32[4] parameter(0)\n"
                          "  ROOT s = f32[100] slice(p), slice={[0:100]}\n")),
            "t:5:3: slice [0:100:1] is out of range for dimension 0 of f32[4]");
  EXPECT_EQ(errorOf(entry("  p = f32[4] parameter(0)\n"
                          "  ROOT s = f32[2] slice(p), slice={[0:4:0]}\n")),
            "t:5:3: slice [0:4:0] is out of range for dimension 0 of f32[4]");
  EXPECT_EQ(errorOf(entry("  p = f32[4] parameter(0)\n"
                          "  ROOT s = f32[3] slice(p), slice={[0:4:2]}\n")),
            "t:5:3: shape f32[3] differs from the inferred f32[2]");
}

TEST(VerifierShape, TransposeNeedsAPermutation) {
  EXPECT_EQ(errorOf(entry("  p = f32[2,3] parameter(0)\n"
                          "  ROOT t = f32[2,2] transpose(p), "
                          "dimensions={0,0}\n")),
            "t:5:3: transpose dimensions {0,0} are not a permutation of the 2 "
            "dimensions of f32[2,3]");
  EXPECT_EQ(errorOf(entry("  p = f32[2,3] parameter(0)\n"
                          "  ROOT t = f32[2,3] transpose(p), "
                          "dimensions={1,0}\n")),
            "t:5:3: shape f32[2,3] differs from the inferred f32[3,2]");
}

TEST(VerifierShape, BroadcastDimensionsMustMapOntoEqualSizes) {
  EXPECT_EQ(errorOf(entry("  p = f32[3] parameter(0)\n"
                          "  ROOT b = f32[2,3] broadcast(p), "
                          "dimensions={2}\n")),
            "t:5:3: broadcast dimension 2 is out of range for rank 2");
  EXPECT_EQ(errorOf(entry("  p = f32[3] parameter(0)\n"
                          "  ROOT b = f32[2,3] broadcast(p), "
                          "dimensions={0}\n")),
            "t:5:3: operand dimension 0 (size 3) maps to result dimension 0 "
            "of size 2");
  EXPECT_EQ(errorOf(entry("  p = f32[3] parameter(0)\n"
                          "  ROOT b = f32[2,3] broadcast(p), "
                          "dimensions={}\n")),
            "t:5:3: broadcast has 0 dimensions for an operand of rank 1");
}

TEST(VerifierShape, ReduceDimensionsMustBeInRangeAndDistinct) {
  std::string reduce = std::string(kAdd) + "ENTRY e {\n"
                                           "  p = f32[2,3] parameter(0)\n"
                                           "  z = f32[] constant(0)\n";
  EXPECT_EQ(errorOf(reduce + "  ROOT r = f32[2] reduce(p, z), "
                             "dimensions={2}, to_apply=add\n}\n"),
            "t:12:3: reduce dimension 2 is out of range for rank 2");
  EXPECT_EQ(errorOf(reduce + "  ROOT r = f32[2] reduce(p, z), "
                             "dimensions={1,1}, to_apply=add\n}\n"),
            "t:12:3: reduce dimension 1 is repeated");
  EXPECT_EQ(errorOf(reduce + "  ROOT r = f32[3] reduce(p, z), "
                             "dimensions={1}, to_apply=add\n}\n"),
            "t:12:3: shape f32[3] differs from the inferred f32[2]");
}

TEST(VerifierShape, ReducerMustTakeAndReturnScalarsOfTheInputTypes) {
  auto module = [](const std::string &reducer, const std::string &reduce) {
    return "HloModule m\n\n" + reducer +
           "\nENTRY e {\n"
           "  p = f32[2,3] parameter(0)\n"
           "  q = s32[2,3] parameter(1)\n"
           "  z = f32[] constant(0)\n"
           "  i = s32[] constant(0)\n" +
           reduce + "}\n";
  };
  std::string one = "  ROOT r = f32[2] reduce(p, z), dimensions={1}, "
                    "to_apply=red\n";
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  ROOT s = f32[] negate(a)\n}\n",
                           one)),
            "t:13:3: to_apply 'red' takes 1 parameter; reducing 1 input "
            "needs 2 scalar parameters");
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  b = f32[2] parameter(1)\n"
                           "  ROOT s = f32[] negate(a)\n}\n",
                           one)),
            "t:14:3: to_apply 'red' parameter 1 is f32[2], expected f32[]");
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  b = f32[] parameter(1)\n"
                           "  ROOT t = (f32[], f32[]) tuple(a, b)\n}\n",
                           one)),
            "t:14:3: to_apply 'red' returns (f32[], f32[]), expected f32[]");
  // Two inputs: four parameters, a pair of results.
  std::string two = "  ROOT r = (f32[2], s32[2]) reduce(p, q, z, i), "
                    "dimensions={1}, to_apply=red\n";
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  b = f32[] parameter(1)\n"
                           "  ROOT s = f32[] add(a, b)\n}\n",
                           two)),
            "t:14:3: to_apply 'red' takes 2 parameters; reducing 2 inputs "
            "needs 4 scalar parameters");
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  b = f32[] parameter(1)\n"
                           "  c = f32[] parameter(2)\n"
                           "  d = s32[] parameter(3)\n"
                           "  ROOT s = f32[] add(a, c)\n}\n",
                           two)),
            "t:16:3: to_apply 'red' parameter 1 is f32[], expected s32[]");
  EXPECT_EQ(errorOf(module("red {\n  a = f32[] parameter(0)\n"
                           "  b = s32[] parameter(1)\n"
                           "  c = f32[] parameter(2)\n"
                           "  d = s32[] parameter(3)\n"
                           "  ROOT s = f32[] add(a, c)\n}\n",
                           two)),
            "t:16:3: to_apply 'red' returns f32[], expected (f32[], s32[])");
}

TEST(VerifierShape, ElementwiseOperandsMustAgree) {
  EXPECT_EQ(errorOf(entry("  p = f32[2] parameter(0)\n"
                          "  q = f32[3] parameter(1)\n"
                          "  ROOT a = f32[2] add(p, q)\n")),
            "t:6:3: operands f32[2] and f32[3] differ");
  EXPECT_EQ(errorOf(entry("  p = f32[2] parameter(0)\n"
                          "  ROOT a = f32[2] compare(p, p), direction=LT\n")),
            "t:5:3: shape f32[2] differs from the inferred pred[2]");
  EXPECT_EQ(errorOf(entry("  p = f32[2] parameter(0)\n"
                          "  ROOT n = f32[3] negate(p)\n")),
            "t:5:3: shape f32[3] differs from the inferred f32[2]");
  EXPECT_EQ(errorOf(entry("  p = f32[2] parameter(0)\n"
                          "  ROOT c = s32[3] convert(p)\n")),
            "t:5:3: shape s32[3] differs from the inferred s32[2]");
  EXPECT_EQ(errorOf(entry("  p = pred[3] parameter(0)\n"
                          "  q = f32[2] parameter(1)\n"
                          "  ROOT s = f32[2] select(p, q, q)\n")),
            "t:6:3: select predicate pred[3] does not match the branches "
            "f32[2]");
}

TEST(VerifierShape, BitcastConvertAddsOrRemovesTheWidthRatio) {
  parseOk(entry("  p = f32[2] parameter(0)\n"
                "  ROOT b = u8[2,4] bitcast-convert(p)\n"));
  EXPECT_EQ(errorOf(entry("  p = u8[2,3] parameter(0)\n"
                          "  ROOT b = f32[2] bitcast-convert(p)\n")),
            "t:5:3: bitcast-convert from u8[2,3] to f32 needs a last "
            "dimension of size 4");
}

TEST(VerifierShape, DotContractsEqualSizes) {
  EXPECT_EQ(
      errorOf(entry("  a = f32[2,3] parameter(0)\n"
                    "  b = f32[4,5] parameter(1)\n"
                    "  ROOT d = f32[2,5] dot(a, b), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n")),
      "t:6:3: contracting dimensions lhs 1 (size 3) and rhs 0 (size 4) "
      "differ");
  EXPECT_EQ(
      errorOf(entry("  a = f32[2,3] parameter(0)\n"
                    "  b = f32[3,5] parameter(1)\n"
                    "  ROOT d = f32[5,2] dot(a, b), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n")),
      "t:6:3: shape f32[5,2] differs from the inferred f32[2,5]");
}

TEST(VerifierShape, ConcatenatePadAndDynamicSliceSizes) {
  EXPECT_EQ(errorOf(entry("  a = f32[2,3] parameter(0)\n"
                          "  b = f32[4,3] parameter(1)\n"
                          "  ROOT c = f32[6,3] concatenate(a, b), "
                          "dimensions={1}\n")),
            "t:6:3: operand 1 f32[4,3] does not concatenate with f32[2,3] "
            "along dimension 1");
  EXPECT_EQ(errorOf(entry("  a = f32[3] parameter(0)\n"
                          "  z = f32[] constant(0)\n"
                          "  ROOT p = f32[7] pad(a, z), padding=1_2_1\n")),
            "t:6:3: shape f32[7] differs from the inferred f32[8]");
  EXPECT_EQ(errorOf(entry("  a = f32[4] parameter(0)\n"
                          "  i = s32[] parameter(1)\n"
                          "  ROOT d = f32[5] dynamic-slice(a, i), "
                          "dynamic_slice_sizes={5}\n")),
            "t:6:3: dynamic_slice_sizes {5} do not fit in f32[4]");
  EXPECT_EQ(errorOf(entry("  a = f32[4] parameter(0)\n"
                          "  i = f32[] parameter(1)\n"
                          "  ROOT d = f32[2] dynamic-slice(a, i), "
                          "dynamic_slice_sizes={2}\n")),
            "t:6:3: start index 0 is f32[], not an integer scalar");
}

TEST(VerifierShape, CalledComputationsMustFitTheirCallers) {
  std::string negate = "HloModule m\n\nneg {\n  x = f32[2] parameter(0)\n"
                       "  ROOT n = f32[2] negate(x)\n}\n\n";
  EXPECT_EQ(errorOf(negate + "ENTRY e {\n  p = f32[3] parameter(0)\n"
                             "  ROOT c = f32[3] call(p), to_apply=neg\n}\n"),
            "t:10:3: to_apply 'neg' parameter 0 is f32[2], expected f32[3]");
  EXPECT_EQ(errorOf(negate + "ENTRY e {\n  p = f32[2] parameter(0)\n"
                             "  ROOT c = f32[3] call(p), to_apply=neg\n}\n"),
            "t:10:3: to_apply 'neg' returns f32[2], expected f32[3]");
  std::string loop =
      "HloModule m\n\ncond {\n  s = s32[] parameter(0)\n"
      "  ROOT c = s32[] constant(0)\n}\n\n"
      "body {\n  s = s32[] parameter(0)\n"
      "  ROOT n = s32[] negate(s)\n}\n\n"
      "ENTRY e {\n  p = s32[] parameter(0)\n"
      "  ROOT w = s32[] while(p), condition=cond, body=body\n}\n";
  EXPECT_EQ(errorOf(loop),
            "t:15:3: condition 'cond' returns s32[], expected pred[]");
  std::string branches = "HloModule m\n\nb0 {\n  x = f32[] parameter(0)\n"
                         "  ROOT n = f32[] negate(x)\n}\n\n"
                         "b1 {\n  x = s32[] parameter(0)\n"
                         "  ROOT n = s32[] negate(x)\n}\n\n"
                         "ENTRY e {\n  i = s32[] parameter(0)\n"
                         "  a = f32[] parameter(1)\n"
                         "  ROOT c = f32[] conditional(i, a, a), "
                         "branch_computations={b0, b1}\n}\n";
  EXPECT_EQ(errorOf(branches),
            "t:16:3: branch 'b1' parameter 0 is s32[], expected f32[]");
}

TEST(VerifierShape, WellFormedCallsAndVariadicReducesLoad) {
  parseOk(std::string(kAdd) + R"(max2 {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  m = f32[] maximum(a, c)
  n = s32[] maximum(b, d)
  ROOT t = (f32[], s32[]) tuple(m, n)
}

ENTRY e {
  p = f32[2,3] parameter(0)
  q = s32[2,3] parameter(1)
  z = f32[] constant(0)
  i = s32[] constant(0)
  r = (f32[2], s32[2]) reduce(p, q, z, i), dimensions={1}, to_apply=max2
  s = f32[3] reduce(p, z), dimensions={0}, to_apply=add
  w = f32[1,2] reduce-window(p, z), window={size=2x2}, to_apply=add
  ROOT t = ((f32[2], s32[2]), f32[3], f32[1,2]) tuple(r, s, w)
})");
}

TEST(VerifierShape, GatherGivesTheShapeOfItsSlices) {
  // An embedding lookup: rows of a [10, 4] table at 3 indices.
  std::string lookup = "  table = f32[10,4] parameter(0)\n"
                       "  ids = s32[3,1] parameter(1)\n"
                       "  ROOT g = f32[3,4] gather(table, ids), "
                       "offset_dims={1}, collapsed_slice_dims={0}, "
                       "start_index_map={0}, index_vector_dim=1, "
                       "slice_sizes={1,4}\n";
  EXPECT_EQ(errorOf(entry(lookup)), "parsed");
  std::string wrongShape = lookup;
  wrongShape.replace(wrongShape.find("f32[3,4] gather"), 8, "f32[4,3]");
  EXPECT_EQ(errorOf(entry(wrongShape)),
            "t:6:3: shape f32[4,3] differs from the inferred f32[3,4]");
  // Found by fuzz_graph_passes: a slice wider than the operand loaded, and
  // gather-expander turned it into a dynamic-slice that did not verify.
  EXPECT_EQ(errorOf(entry("  p = f32[500] parameter(0)\n"
                          "  i = s32[1] parameter(1)\n"
                          "  ROOT g = f32[499] gather(p, i), offset_dims={0}, "
                          "collapsed_slice_dims={}, start_index_map={0}, "
                          "index_vector_dim=0, slice_sizes={864}\n")),
            "t:6:3: slice_sizes {864} do not fit in f32[500]");
  EXPECT_EQ(errorOf(entry("  p = f32[10,4] parameter(0)\n"
                          "  i = s32[3,1] parameter(1)\n"
                          "  ROOT g = f32[3,4] gather(p, i), offset_dims={1}, "
                          "collapsed_slice_dims={1}, start_index_map={0}, "
                          "index_vector_dim=1, slice_sizes={1,4}\n")),
            "t:6:3: collapsed dimension 1 has slice size 4");
}

TEST(VerifierShape, ScatterUpdatesAreWindowsOfTheInput) {
  // torch-xla's KV-cache write: one [4, 64] window into row i of [8, 4, 64].
  std::string write = std::string(kAdd) +
                      "ENTRY e {\n"
                      "  cache = f32[8,4,64] parameter(0)\n"
                      "  i = s32[1] parameter(1)\n"
                      "  row = f32[1,4,64] parameter(2)\n"
                      "  ROOT s = f32[8,4,64] scatter(cache, i, row), "
                      "update_window_dims={1,2}, inserted_window_dims={0}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                      "to_apply=add\n"
                      "}\n";
  EXPECT_EQ(errorOf(write), "parsed");
  std::string wide = write;
  wide.replace(wide.find("f32[1,4,64] parameter"), 11, "f32[1,4,65]");
  EXPECT_EQ(errorOf(wide),
            "t:13:3: update f32[1,4,65] dimension 2 is wider than the input's "
            "dimension 2");
  std::string uncovered = write;
  uncovered.replace(uncovered.find("inserted_window_dims={0}"), 24,
                    "inserted_window_dims={}");
  EXPECT_EQ(errorOf(uncovered),
            "t:13:3: update_window_dims {1,2} and the 0 inserted dimensions "
            "do not cover the input's rank 3");
  std::string twoRows = write;
  twoRows.replace(twoRows.find("s32[1] parameter"), 6, "s32[2]");
  EXPECT_EQ(errorOf(twoRows),
            "t:13:3: update f32[1,4,64] dimension 0 does not match the "
            "indices s32[2]");
}
