// Elementwise opcodes: arithmetic, integer wrapping and division, shifts,
// compare/select/clamp, convert and bitcast-convert, rounding to the
// element type.
#include "InterpreterTestUtil.h"

#include <cmath>
#include <limits>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

/// A module applying the binary `op` to two parameters of `type`.
std::string binaryModule(const std::string &op, const std::string &type,
                         const std::string &resultType = "") {
  std::string result = resultType.empty() ? type : resultType;
  return "HloModule m\nENTRY e {\n  a = " + type +
         " parameter(0)\n  b = " + type +
         " parameter(1)\n  ROOT r = " + result + " " + op + "(a, b)\n}\n";
}

std::string unaryModule(const std::string &op, const std::string &type,
                        const std::string &resultType = "") {
  std::string result = resultType.empty() ? type : resultType;
  return "HloModule m\nENTRY e {\n  a = " + type + " parameter(0)\n" +
         "  ROOT r = " + result + " " + op + "(a)\n}\n";
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

} // namespace

TEST(InterpreterElementwise, FloatArithmetic) {
  Value a = f32({4}, {1.5, -2, 3, 0.25});
  Value b = f32({4}, {2, 4, -0.5, 0.25});
  EXPECT_EQ(run(binaryModule("add", "f32[4]"), {a, b}).data,
            (std::vector<double>{3.5, 2, 2.5, 0.5}));
  EXPECT_EQ(run(binaryModule("subtract", "f32[4]"), {a, b}).data,
            (std::vector<double>{-0.5, -6, 3.5, 0}));
  EXPECT_EQ(run(binaryModule("multiply", "f32[4]"), {a, b}).data,
            (std::vector<double>{3, -8, -1.5, 0.0625}));
  EXPECT_EQ(run(binaryModule("divide", "f32[4]"), {a, b}).data,
            (std::vector<double>{0.75, -0.5, -6, 1}));
  EXPECT_EQ(run(binaryModule("maximum", "f32[4]"), {a, b}).data,
            (std::vector<double>{2, 4, 3, 0.25}));
  EXPECT_EQ(run(binaryModule("minimum", "f32[4]"), {a, b}).data,
            (std::vector<double>{1.5, -2, -0.5, 0.25}));
  // Computed in double, stored as f32.
  EXPECT_EQ(
      run(binaryModule("power", "f32[4]"), {a, b}).data,
      (std::vector<double>{2.25, 16, static_cast<float>(std::pow(3.0, -0.5)),
                           static_cast<float>(std::sqrt(0.5))}));
}

TEST(InterpreterElementwise, RemainderTakesTheDividendsSign) {
  Value a = f32({3}, {-7.5, 7.5, 5});
  Value b = f32({3}, {2, -2, 3});
  EXPECT_EQ(run(binaryModule("remainder", "f32[3]"), {a, b}).data,
            (std::vector<double>{-1.5, 1.5, 2}));
  Value x = s32({4}, {-7, 7, -7, 5});
  Value y = s32({4}, {2, -2, -2, 0});
  // x % 0 is x, as in XLA's evaluator.
  EXPECT_EQ(run(binaryModule("remainder", "s32[4]"), {x, y}).data,
            (std::vector<double>{-1, 1, -1, 5}));
}

TEST(InterpreterElementwise, MaximumPropagatesNaN) {
  Value a = f32({2}, {kNaN, 1});
  Value b = f32({2}, {1, kNaN});
  Value max = run(binaryModule("maximum", "f32[2]"), {a, b});
  EXPECT_TRUE(std::isnan(max.data[0]));
  EXPECT_TRUE(std::isnan(max.data[1]));
}

TEST(InterpreterElementwise, IntegerDivisionTruncatesAndHandlesZero) {
  Value a = s32({5}, {-7, 7, 7, -2147483648.0, 9});
  Value b = s32({5}, {2, -2, 0, -1, 3});
  // -7/2 truncates to -3; x/0 is -1 (all bits set); MIN/-1 is MIN.
  EXPECT_EQ(run(binaryModule("divide", "s32[5]"), {a, b}).data,
            (std::vector<double>{-3, -3, -1, -2147483648.0, 3}));
  Value c = u32({2}, {7, 7});
  Value d = u32({2}, {2, 0});
  EXPECT_EQ(run(binaryModule("divide", "u32[2]"), {c, d}).data,
            (std::vector<double>{3, 4294967295.0}));
}

TEST(InterpreterElementwise, IntegerArithmeticWraps) {
  EXPECT_EQ(run(binaryModule("add", "u32[2]"),
                {u32({2}, {4294967295.0, 5}), u32({2}, {1, 4294967295.0})})
                .data,
            (std::vector<double>{0, 4}));
  EXPECT_EQ(run(binaryModule("multiply", "s32[2]"),
                {s32({2}, {65536, 46341}), s32({2}, {65536, 46341})})
                .data,
            (std::vector<double>{0, -2147479015.0}));
  EXPECT_EQ(run(binaryModule("subtract", "s32[1]"),
                {s32({1}, {-2147483648.0}), s32({1}, {1})})
                .data,
            (std::vector<double>{2147483647.0}));
  EXPECT_EQ(
      run(unaryModule("negate", "s32[1]"), {s32({1}, {-2147483648.0})}).data,
      (std::vector<double>{-2147483648.0}));
}

TEST(InterpreterElementwise, Shifts) {
  Value a = u32({3}, {1, 1, 4294967295.0});
  Value b = u32({3}, {31, 32, 28});
  EXPECT_EQ(run(binaryModule("shift-left", "u32[3]"), {a, b}).data,
            (std::vector<double>{2147483648.0, 0, 4026531840.0}));
  EXPECT_EQ(run(binaryModule("shift-right-logical", "u32[3]"), {a, b}).data,
            (std::vector<double>{0, 0, 15}));
  Value c = s32({3}, {-8, -8, 8});
  Value d = s32({3}, {1, 40, 40});
  // Shifting by the width or more fills with the sign bit.
  EXPECT_EQ(run(binaryModule("shift-right-arithmetic", "s32[3]"), {c, d}).data,
            (std::vector<double>{-4, -1, 0}));
  EXPECT_EQ(run(binaryModule("shift-right-logical", "s32[1]"),
                {s32({1}, {-1}), s32({1}, {28})})
                .data,
            (std::vector<double>{15}));
}

TEST(InterpreterElementwise, BitwiseOnIntegersAndPredicates) {
  Value a = s32({2}, {12, -1});
  Value b = s32({2}, {10, 0});
  EXPECT_EQ(run(binaryModule("and", "s32[2]"), {a, b}).data,
            (std::vector<double>{8, 0}));
  EXPECT_EQ(run(binaryModule("or", "s32[2]"), {a, b}).data,
            (std::vector<double>{14, -1}));
  EXPECT_EQ(run(binaryModule("xor", "s32[2]"), {a, b}).data,
            (std::vector<double>{6, -1}));
  EXPECT_EQ(run(unaryModule("not", "s32[2]"), {a}).data,
            (std::vector<double>{-13, 0}));
  Value p = pred({4}, {0, 0, 1, 1});
  Value q = pred({4}, {0, 1, 0, 1});
  EXPECT_EQ(run(binaryModule("and", "pred[4]"), {p, q}).data,
            (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(run(binaryModule("or", "pred[4]"), {p, q}).data,
            (std::vector<double>{0, 1, 1, 1}));
  EXPECT_EQ(run(binaryModule("xor", "pred[4]"), {p, q}).data,
            (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(run(unaryModule("not", "pred[4]"), {p}).data,
            (std::vector<double>{1, 1, 0, 0}));
  EXPECT_EQ(
      run(unaryModule("popcnt", "u32[2]"), {u32({2}, {7, 4294967295.0})}).data,
      (std::vector<double>{3, 32}));
  EXPECT_EQ(
      run(unaryModule("count-leading-zeros", "s32[2]"), {s32({2}, {1, -1})})
          .data,
      (std::vector<double>{31, 0}));
}

TEST(InterpreterElementwise, UnaryFloatFunctions) {
  Value x = f32({1}, {0.5});
  auto one = [&](const std::string &op) {
    return run(unaryModule(op, "f32[1]"), {x}).data.at(0);
  };
  EXPECT_FLOAT_EQ(one("exponential"), std::exp(0.5));
  EXPECT_FLOAT_EQ(one("log"), std::log(0.5));
  EXPECT_FLOAT_EQ(one("logistic"), 1 / (1 + std::exp(-0.5)));
  EXPECT_FLOAT_EQ(one("tanh"), std::tanh(0.5));
  EXPECT_FLOAT_EQ(one("rsqrt"), 1 / std::sqrt(0.5));
  EXPECT_FLOAT_EQ(one("sqrt"), std::sqrt(0.5));
  EXPECT_FLOAT_EQ(one("erf"), std::erf(0.5));
  EXPECT_FLOAT_EQ(one("log-plus-one"), std::log1p(0.5));
  EXPECT_FLOAT_EQ(one("exponential-minus-one"), std::expm1(0.5));
  EXPECT_FLOAT_EQ(one("sine"), std::sin(0.5));
  EXPECT_FLOAT_EQ(one("cosine"), std::cos(0.5));
  Value y = f32({6}, {2.5, -2.5, 3.5, -0.0, -1.25, 0});
  EXPECT_EQ(run(unaryModule("round-nearest-even", "f32[6]"), {y}).data,
            (std::vector<double>{2, -2, 4, -0.0, -1, 0}));
  EXPECT_EQ(run(unaryModule("round-nearest-afz", "f32[6]"), {y}).data,
            (std::vector<double>{3, -3, 4, -0.0, -1, 0}));
  EXPECT_EQ(run(unaryModule("floor", "f32[6]"), {y}).data,
            (std::vector<double>{2, -3, 3, -0.0, -2, 0}));
  EXPECT_EQ(run(unaryModule("ceil", "f32[6]"), {y}).data,
            (std::vector<double>{3, -2, 4, -0.0, -1, 0}));
  EXPECT_EQ(run(unaryModule("sign", "f32[6]"), {y}).data,
            (std::vector<double>{1, -1, 1, -0.0, -1, 0}));
  EXPECT_EQ(run(unaryModule("abs", "f32[6]"), {y}).data,
            (std::vector<double>{2.5, 2.5, 3.5, 0, 1.25, 0}));
  EXPECT_EQ(run(unaryModule("is-finite", "f32[3]", "pred[3]"),
                {f32({3}, {1, kInf, kNaN})})
                .data,
            (std::vector<double>{1, 0, 0}));
  EXPECT_FLOAT_EQ(
      run(binaryModule("atan2", "f32[1]"), {f32({1}, {1}), f32({1}, {-1})})
          .data[0],
      std::atan2(1.0, -1.0));
}

TEST(InterpreterElementwise, CompareSelectClamp) {
  const char *text = R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  lt = pred[4] compare(a, b), direction=LT
  ge = pred[4] compare(a, b), direction=GE
  ne = pred[4] compare(a, b), direction=NE
  pick = f32[4] select(lt, a, b)
  lo = f32[] constant(-1)
  hi = f32[] constant(1)
  clamped = f32[4] clamp(lo, a, hi)
  ROOT t = (pred[4], pred[4], pred[4], f32[4], f32[4]) tuple(lt, ge, ne, pick, clamped)
})";
  Value result =
      run(text, {f32({4}, {1, 5, kNaN, -3}), f32({4}, {2, 5, 0, -4})});
  ASSERT_EQ(result.elements.size(), 5u);
  EXPECT_EQ(result.elements[0].data, (std::vector<double>{1, 0, 0, 0}));
  // NaN compares unordered: GE is false, NE is true.
  EXPECT_EQ(result.elements[1].data, (std::vector<double>{0, 1, 0, 1}));
  EXPECT_EQ(result.elements[2].data, (std::vector<double>{1, 0, 1, 1}));
  EXPECT_EQ(result.elements[3].data[0], 1);
  EXPECT_EQ(result.elements[3].data[1], 5);
  EXPECT_EQ(result.elements[3].data[3], -4);
  EXPECT_EQ(result.elements[4].data[0], 1);
  EXPECT_EQ(result.elements[4].data[1], 1);
  EXPECT_EQ(result.elements[4].data[3], -1);
}

TEST(InterpreterElementwise, TotalOrderCompareOrdersZerosAndNaN) {
  std::string text = R"(HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT r = pred[3] compare(a, b), direction=LT, type=TOTALORDER
})";
  EXPECT_EQ(
      run(text, {f32({3}, {-0.0, 1, kInf}), f32({3}, {0.0, kNaN, kNaN})}).data,
      (std::vector<double>{1, 1, 1}));
}

TEST(InterpreterElementwise, ConvertTruncatesSaturatesAndWraps) {
  EXPECT_EQ(run(unaryModule("convert", "f32[5]", "s32[5]"),
                {f32({5}, {-2.7, 2.7, 1e10, -1e10, kNaN})})
                .data,
            (std::vector<double>{-2, 2, 2147483647.0, -2147483648.0, 0}));
  EXPECT_EQ(
      run(unaryModule("convert", "s32[3]", "u8[3]"), {s32({3}, {300, -1, 255})})
          .data,
      (std::vector<double>{44, 255, 255}));
  EXPECT_EQ(run(unaryModule("convert", "u32[1]", "s32[1]"),
                {u32({1}, {4294967295.0})})
                .data,
            (std::vector<double>{-1}));
  EXPECT_EQ(run(unaryModule("convert", "f32[3]", "pred[3]"),
                {f32({3}, {0, -0.5, kNaN})})
                .data,
            (std::vector<double>{0, 1, 1}));
}

TEST(InterpreterElementwise, ConvertRoundsToNarrowFloats) {
  // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie, rounded to even.
  Value x = f32({3}, {1 + std::ldexp(1, -8), 1 + 3 * std::ldexp(1, -8), 1e39});
  EXPECT_EQ(run(unaryModule("convert", "f32[3]", "bf16[3]"), {x}).data,
            (std::vector<double>{1, 1 + std::ldexp(1, -6), kInf}));
  // f16 keeps 11 significant bits and overflows past 65504.
  Value y = f32({3}, {1 + std::ldexp(1, -11), 65519, 65520});
  EXPECT_EQ(run(unaryModule("convert", "f32[3]", "f16[3]"), {y}).data,
            (std::vector<double>{1, 65504, kInf}));
  Value z = arrayValue(ElementType::F64, {1}, {0.1});
  EXPECT_EQ(run(unaryModule("convert", "f64[1]", "f32[1]"), {z}).data[0],
            static_cast<double>(0.1f));
}

TEST(InterpreterElementwise, ResultsRoundToTheirElementType) {
  std::string text = binaryModule("add", "f32[1]");
  Value a = f32({1}, {1});
  Value b = f32({1}, {std::ldexp(1, -30)});
  EXPECT_EQ(run(text, {a, b}).data[0], 1);
  InterpreterOptions exact;
  exact.roundToElementType = false;
  EXPECT_EQ(run(text, {a, b}, exact).data[0], 1 + std::ldexp(1, -30));
}

TEST(InterpreterElementwise, WithoutStorageRoundingOnlyNarrowingConvertsRound) {
  auto convertedSum = [](const std::string &type) {
    return R"(HloModule m
ENTRY e {
  a = f32[1] parameter(0)
  b = f32[1] parameter(1)
  s = f32[1] add(a, b)
  ROOT c = )" +
           type + "[1] convert(s)\n}";
  };
  Value a = f32({1}, {1});
  Value b = f32({1}, {std::ldexp(1, -30)});
  InterpreterOptions exact;
  exact.roundToElementType = false;
  EXPECT_EQ(run(convertedSum("f32"), {a, b}, exact).data[0],
            1 + std::ldexp(1, -30));
  EXPECT_EQ(run(convertedSum("bf16"), {a, b}, exact).data[0], 1);
  EXPECT_EQ(run(convertedSum("f32"), {a, b}).data[0], 1);
}

TEST(InterpreterElementwise, AReducerConvertToItsOwnTypeDoesNotRoundEither) {
  std::string text = R"(HloModule m
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  s = f32[] add(x, y)
  ROOT c = f32[] convert(s)
}
ENTRY e {
  a = f32[2] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[] reduce(a, zero), dimensions={0}, to_apply=sum
})";
  Value a = f32({2}, {1, std::ldexp(1, -30)});
  InterpreterOptions exact;
  exact.roundToElementType = false;
  EXPECT_EQ(run(text, {a}, exact).data[0], 1 + std::ldexp(1, -30));
  EXPECT_EQ(run(text, {a}).data[0], 1);
}

TEST(InterpreterElementwise, BitcastConvertReinterpretsBits) {
  EXPECT_EQ(run(unaryModule("bitcast-convert", "f32[2]", "s32[2]"),
                {f32({2}, {1, -2})})
                .data,
            (std::vector<double>{1065353216, -1073741824.0}));
  // JAX's uniform sampler: random mantissa bits under the exponent of 1.
  EXPECT_EQ(run(unaryModule("bitcast-convert", "u32[1]", "f32[1]"),
                {u32({1}, {1065353216 + (1 << 22)})})
                .data,
            (std::vector<double>{1.5}));
  Value d = arrayValue(ElementType::F64, {1}, {-0.0});
  EXPECT_EQ(run(unaryModule("bitcast-convert", "f64[1]", "u64[1]"), {d}).data,
            (std::vector<double>{9223372036854775808.0}));
  std::string error = runError(
      unaryModule("bitcast-convert", "f32[]", "s16[2]"), {f32({}, {1})});
  EXPECT_NE(error.find("element widths 32 and 16"), std::string::npos) << error;
}

TEST(InterpreterElementwise, ScalarOperandsOfSelectAndClampBroadcast) {
  std::string text = R"(HloModule m
ENTRY e {
  p = pred[] parameter(0)
  a = f32[3] parameter(1)
  b = f32[3] parameter(2)
  ROOT r = f32[3] select(p, a, b)
})";
  EXPECT_EQ(
      run(text, {pred({}, {0}), f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})}).data,
      (std::vector<double>{4, 5, 6}));
}

TEST(InterpreterElementwise, MapAppliesAComputationPerElement) {
  std::string text = R"(HloModule m
f {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  xy = f32[] multiply(x, y)
  ROOT s = f32[] add(xy, x)
}
ENTRY e {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT r = f32[3] map(a, b), dimensions={0}, to_apply=f
})";
  EXPECT_EQ(run(text, {f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})}).data,
            (std::vector<double>{5, 12, 21}));
}
