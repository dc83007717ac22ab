// Known custom-call targets (threefry2x32, Neuron GELU and RMSNorm,
// LAPACK-style linear algebra), the triangular-solve and cholesky opcodes, and
// the error for unknown targets.
#include "InterpreterTestUtil.h"

#include <cmath>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

TEST(InterpreterCustomCall, Threefry2x32KnownAnswers) {
  // Known-answer vectors of Threefry-2x32-20 (Random123, and JAX's tests).
  std::string text = R"(HloModule m
ENTRY e {
  k0 = u32[3] parameter(0)
  k1 = u32[3] parameter(1)
  x0 = u32[3] parameter(2)
  x1 = u32[3] parameter(3)
  ROOT r = (u32[3], u32[3]) custom-call(k0, k1, x0, x1), custom_call_target="cuda_threefry2x32"
})";
  Value result = run(text, {u32({3}, {0, 0xffffffff, 0x13198a2e}),
                            u32({3}, {0, 0xffffffff, 0x03707344}),
                            u32({3}, {0, 0xffffffff, 0x243f6a88}),
                            u32({3}, {0, 0xffffffff, 0x85a308d3})});
  ASSERT_EQ(result.elements.size(), 2u);
  EXPECT_EQ(result.elements[0].data,
            (Data{0x6b200159, 0x1cb996fc, 0xc4923a9c}));
  EXPECT_EQ(result.elements[1].data,
            (Data{0x99ba4efe, 0xbb002be7, 0x483df7a0}));
}

TEST(InterpreterCustomCall, NeuronGeluAndItsDerivative) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  g = f32[2] custom-call(x), custom_call_target="AwsNeuronGelu"
  d = f32[2] custom-call(x), custom_call_target="AwsNeuronGeluBackward"
  ROOT t = (f32[2], f32[2]) tuple(g, d)
})";
  Value result = run(text, {f32({2}, {0, 1})});
  EXPECT_EQ(result.elements[0].data[0], 0);
  EXPECT_FLOAT_EQ(result.elements[0].data[1], 0.8413447460685429);
  EXPECT_EQ(result.elements[1].data[0], 0.5);
  // Phi(1) + phi(1).
  EXPECT_FLOAT_EQ(result.elements[1].data[1],
                  0.8413447460685429 + 0.24197072451914337);
}

TEST(InterpreterCustomCall, NeuronRmsNormKnownValues) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2,1] parameter(0)
  w = f32[2] parameter(1)
  eps = f32[] constant(0)
  ROOT y = f32[2,1] custom-call(x, w, eps), custom_call_target="AwsNeuronRmsNorm", backend_config="0"
})";
  // The root mean square of (3, 4) is sqrt(12.5).
  Value result = run(text, {f32({2, 1}, {3, 4}), f32({2}, {1, 2})});
  EXPECT_FLOAT_EQ(result.data[0], 3 / std::sqrt(12.5));
  EXPECT_FLOAT_EQ(result.data[1], 2 * 4 / std::sqrt(12.5));
}

TEST(InterpreterCustomCall, NeuronRmsNormMatchesItsDecomposition) {
  // The hidden dimension first, as transformers-neuronx lays out Llama's
  // activations ([hidden, tokens, batch]), normalized along it; beside it
  // the same norm written in plain HLO ops.
  std::string text = R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8,3,2] parameter(0)
  w = f32[8] parameter(1)
  eps = f32[] constant(1e-05)
  kernel = f32[8,3,2] custom-call(x, w, eps), custom_call_target="AwsNeuronRmsNorm", api_version=API_VERSION_UNSPECIFIED, backend_config="0"
  squares = f32[8,3,2] multiply(x, x)
  zero = f32[] constant(0)
  sums = f32[3,2] reduce(squares, zero), dimensions={0}, to_apply=add
  n = f32[] constant(8)
  ns = f32[3,2] broadcast(n), dimensions={}
  means = f32[3,2] divide(sums, ns)
  epss = f32[3,2] broadcast(eps), dimensions={}
  shifted = f32[3,2] add(means, epss)
  scales = f32[3,2] rsqrt(shifted)
  scales_b = f32[8,3,2] broadcast(scales), dimensions={1,2}
  scaled = f32[8,3,2] multiply(x, scales_b)
  w_b = f32[8,3,2] broadcast(w), dimensions={0}
  plain = f32[8,3,2] multiply(scaled, w_b)
  ROOT t = (f32[8,3,2], f32[8,3,2]) tuple(kernel, plain)
})";
  Data x(48), w(8);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(1.7 * i) * (1 + i % 5);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = 0.5 + 0.125 * i;
  Value result = run(text, {f32({8, 3, 2}, x), f32({8}, w)});
  ASSERT_EQ(result.elements.size(), 2u);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(result.elements[0].data[i], result.elements[1].data[i],
                1e-5 * std::fabs(result.elements[1].data[i]))
        << i;
}

TEST(InterpreterCustomCall, NeuronRmsNormNeedsItsDimension) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2,1] parameter(0)
  w = f32[2] parameter(1)
  eps = f32[] constant(0)
  ROOT y = f32[2,1] custom-call(x, w, eps), custom_call_target="AwsNeuronRmsNorm", backend_config="2"
})";
  std::string error = runError(text, {f32({2, 1}, {3, 4}), f32({2}, {1, 2})});
  EXPECT_NE(error.find("normalized dimension"), std::string::npos) << error;
  EXPECT_NE(error.find("\"2\""), std::string::npos) << error;
}

TEST(InterpreterCustomCall, UnknownTargetIsAnErrorNamingIt) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT y = f32[2] custom-call(x), custom_call_target="MysteryKernel"
})";
  std::string error = runError(text, {f32({2}, {0, 1})});
  EXPECT_NE(error.find("\"MysteryKernel\""), std::string::npos) << error;
  EXPECT_NE(error.find("y (custom-call)"), std::string::npos) << error;
}

TEST(InterpreterLinalg, TriangularSolveLeftRightTransposed) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,2] parameter(0)
  b = f32[2,1] parameter(1)
  c = f32[1,2] parameter(2)
  left = f32[2,1] triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE
  leftT = f32[2,1] triangular-solve(a, b), left_side=true, lower=true, transpose_a=TRANSPOSE
  right = f32[1,2] triangular-solve(a, c), left_side=false, lower=true, transpose_a=NO_TRANSPOSE
  ROOT t = (f32[2,1], f32[2,1], f32[1,2]) tuple(left, leftT, right)
})";
  // a = [[2, 0], [1, 1]]; the 9 above the diagonal is never read.
  Value result = run(text, {f32({2, 2}, {2, 9, 1, 1}), f32({2, 1}, {2, 3}),
                            f32({1, 2}, {4, 1})});
  EXPECT_EQ(result.elements[0].data, (Data{1, 2}));    // a x = b
  EXPECT_EQ(result.elements[1].data, (Data{-0.5, 3})); // a^T x = b
  EXPECT_EQ(result.elements[2].data, (Data{1.5, 1}));  // x a = c
}

TEST(InterpreterLinalg, CholeskyOpcodeAndPotrf) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,2] parameter(0)
  l = f32[2,2] cholesky(a), lower=true
  p = (f32[2,2], s32[], s8[16]) custom-call(a), custom_call_target="cusolver_potrf"
  ROOT t = (f32[2,2], (f32[2,2], s32[], s8[16])) tuple(l, p)
})";
  Value result = run(text, {f32({2, 2}, {4, 2, 2, 3})});
  EXPECT_EQ(result.elements[0].data[0], 2);
  EXPECT_EQ(result.elements[0].data[2], 1);
  EXPECT_FLOAT_EQ(result.elements[0].data[3], std::sqrt(2.0));
  const Value &potrf = result.elements[1];
  // potrf writes the lower factor and leaves the upper triangle.
  EXPECT_EQ(potrf.elements[0].data[1], 2);
  EXPECT_FLOAT_EQ(potrf.elements[0].data[3], std::sqrt(2.0));
  EXPECT_EQ(potrf.elements[1].data, (Data{0}));

  Value failed = run(text, {f32({2, 2}, {1, 2, 2, 1})});
  EXPECT_TRUE(std::isnan(failed.elements[0].data[0]));
  EXPECT_EQ(failed.elements[1].elements[1].data, (Data{2})); // info
}

TEST(InterpreterLinalg, LuWithPivotsAndPermutation) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,2] parameter(0)
  lu = (f32[2,2], s32[2], s32[], f32[8]) custom-call(a), custom_call_target="cusolver_getrf"
  pivots = s32[2] get-tuple-element(lu), index=1
  one = s32[] constant(1)
  ones = s32[2] broadcast(one), dimensions={}
  zeroBased = s32[2] subtract(pivots, ones)
  perm = s32[2] custom-call(zeroBased), custom_call_target="cuda_lu_pivots_to_permutation"
  ROOT t = ((f32[2,2], s32[2], s32[], f32[8]), s32[2]) tuple(lu, perm)
})";
  Value result = run(text, {f32({2, 2}, {1, 2, 3, 4})});
  const Value &lu = result.elements[0];
  EXPECT_EQ(lu.elements[0].data[0], 3);
  EXPECT_EQ(lu.elements[0].data[1], 4);
  EXPECT_FLOAT_EQ(lu.elements[0].data[2], 1.0 / 3);
  EXPECT_FLOAT_EQ(lu.elements[0].data[3], 2.0 / 3);
  EXPECT_EQ(lu.elements[1].data, (Data{2, 2})); // LAPACK's 1-based rows
  EXPECT_EQ(lu.elements[2].data, (Data{0}));
  EXPECT_EQ(result.elements[1].data, (Data{1, 0}));
}

TEST(InterpreterLinalg, HouseholderQrReconstructsTheMatrix) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f64[3,2] parameter(0)
  qr = (f64[3,2], f64[2], s32[], f64[8]) custom-call(a), custom_call_target="cusolver_geqrf"
  factored = f64[3,2] get-tuple-element(qr), index=0
  taus = f64[2] get-tuple-element(qr), index=1
  q = (f64[3,2], s32[], f64[8]) custom-call(factored, taus), custom_call_target="cusolver_orgqr"
  ROOT t = (f64[3,2], (f64[3,2], s32[], f64[8])) tuple(factored, q)
})";
  Data a = {1, 2, 3, 4, 5, 7};
  Value result = run(text, {arrayValue(ElementType::F64, {3, 2}, a)});
  const Data &r = result.elements[0].data;
  const Data &q = result.elements[1].elements[0].data;
  // Q R = A with R the upper triangle of geqrf's output.
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      double sum = 0;
      for (int k = 0; k <= j; ++k)
        sum += q[i * 2 + k] * r[k * 2 + j];
      EXPECT_NEAR(sum, a[i * 2 + j], 1e-12) << i << "," << j;
    }
  // Q has orthonormal columns.
  for (int j = 0; j < 2; ++j)
    for (int k = 0; k < 2; ++k) {
      double dot = 0;
      for (int i = 0; i < 3; ++i)
        dot += q[i * 2 + j] * q[i * 2 + k];
      EXPECT_NEAR(dot, j == k ? 1 : 0, 1e-12);
    }
}
