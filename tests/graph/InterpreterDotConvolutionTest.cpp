// dot with batch and contracting dimensions; convolution with stride,
// padding, dilations and feature groups.
#include "InterpreterTestUtil.h"

#include <numeric>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

namespace {

Data iotaFrom(double first, size_t count) {
  Data values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

} // namespace

TEST(InterpreterDot, MatrixProduct) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]].
  EXPECT_EQ(
      run(text, {f32({2, 3}, iotaFrom(1, 6)), f32({3, 2}, iotaFrom(7, 6))})
          .data,
      (Data{58, 64, 139, 154}));
}

TEST(InterpreterDot, BatchDimensions) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,2,3] parameter(0)
  b = f32[2,3,1] parameter(1)
  ROOT d = f32[2,2,1] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})";
  // Batch 0: [[0,1,2],[3,4,5]] x [1,1,1]; batch 1: [[6,7,8],[9,10,11]] x
  // [1,2,3].
  Value b = f32({2, 3, 1}, {1, 1, 1, 1, 2, 3});
  EXPECT_EQ(run(text, {f32({2, 2, 3}, iotaFrom(0, 12)), b}).data,
            (Data{3, 12, 6 + 14 + 24, 9 + 20 + 33}));
}

TEST(InterpreterDot, ContractingTheLeadingDimension) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[3,2] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
})";
  // a^T b with a = [[1,2],[3,4],[5,6]], b = ones.
  EXPECT_EQ(
      run(text, {f32({3, 2}, iotaFrom(1, 6)), f32({3, 2}, Data(6, 1))}).data,
      (Data{9, 9, 12, 12}));
}

TEST(InterpreterDot, LargeProductMatchesNaiveSum) {
  // Sizes that are not multiples of the interpreter's tiles.
  const int64_t m = 13, k = 300, n = 21;
  Data a(m * k), b(k * n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<double>((i * 7) % 11) - 5;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<double>((i * 5) % 13) - 6;
  std::string text = R"(HloModule m
ENTRY e {
  a = f64[13,300] parameter(0)
  b = f64[300,21] parameter(1)
  ROOT d = f64[13,21] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  Value result = run(text, {arrayValue(ElementType::F64, {m, k}, a),
                            arrayValue(ElementType::F64, {k, n}, b)});
  ASSERT_EQ(result.data.size(), static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * k + p] * b[p * n + j];
      EXPECT_EQ(result.data[i * n + j], sum) << i << "," << j;
    }
}

TEST(InterpreterConvolution, StridedWithoutPadding) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[1,4,4,1] parameter(0)
  k = f32[2,2,1,1] parameter(1)
  ROOT c = f32[1,2,2,1] convolution(x, k), window={size=2x2 stride=2x2}, dim_labels=b01f_01io->b01f
})";
  // Sums of the four 2x2 blocks of 1..16.
  EXPECT_EQ(run(text, {f32({1, 4, 4, 1}, iotaFrom(1, 16)),
                       f32({2, 2, 1, 1}, Data(4, 1))})
                .data,
            (Data{14, 22, 46, 54}));
}

TEST(InterpreterConvolution, StridedWithPadding) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[1,4,4,1] parameter(0)
  k = f32[3,3,1,1] parameter(1)
  ROOT c = f32[1,2,2,1] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})";
  // 3x3 sums around (0,0), (0,2), (2,0), (2,2) of 1..16, zero outside.
  EXPECT_EQ(run(text, {f32({1, 4, 4, 1}, iotaFrom(1, 16)),
                       f32({3, 3, 1, 1}, Data(9, 1))})
                .data,
            (Data{14, 30, 57, 99}));
}

TEST(InterpreterConvolution, FeatureGroups) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[1,1,4] parameter(0)
  k = f32[1,2,2] parameter(1)
  ROOT c = f32[1,1,2] convolution(x, k), window={size=1}, dim_labels=b0f_0io->b0f, feature_group_count=2
})";
  // Output feature 0 sees input features 0,1; output 1 sees 2,3.
  Value kernel = f32({1, 2, 2}, {1, 100, 10, 1000});
  EXPECT_EQ(run(text, {f32({1, 1, 4}, {1, 2, 3, 4}), kernel}).data,
            (Data{1 * 1 + 2 * 10, 3 * 100 + 4 * 1000}));
}

TEST(InterpreterConvolution, InputAndKernelDilation) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[1,3,1] parameter(0)
  y = f32[1,4,1] parameter(1)
  k = f32[2,1,1] parameter(2)
  up = f32[1,4,1] convolution(x, k), window={size=2 lhs_dilate=2}, dim_labels=b0f_0io->b0f
  wide = f32[1,2,1] convolution(y, k), window={size=2 rhs_dilate=2}, dim_labels=b0f_0io->b0f
  ROOT t = (f32[1,4,1], f32[1,2,1]) tuple(up, wide)
})";
  Value result =
      run(text, {f32({1, 3, 1}, {1, 2, 3}), f32({1, 4, 1}, {1, 2, 3, 4}),
                 f32({2, 1, 1}, {1, 1})});
  // [1,0,2,0,3] summed in pairs; taps 0 and 2 of [1,2,3,4].
  EXPECT_EQ(result.elements[0].data, (Data{1, 2, 2, 3}));
  EXPECT_EQ(result.elements[1].data, (Data{4, 6}));
}

TEST(InterpreterConvolution, OtherDimensionLabels) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[1,2,3] parameter(0)
  k = f32[2,2,2] parameter(1)
  ROOT c = f32[1,2,2] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0
})";
  // Input [batch, feature, space], kernel [out, in, space]:
  // c[o][s] = sum_i sum_w x[i][s+w] * k[o][i][w].
  Value x = f32({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  Value k = f32({2, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0});
  EXPECT_EQ(run(text, {x, k}).data, (Data{1 + 5, 2 + 6, 2 + 4, 3 + 5}));
}
