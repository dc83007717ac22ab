// randomArguments, the values of elided constants, and compareValues.
#include "InterpreterTestUtil.h"

#include <cmath>
#include <limits>

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

const char *kParameters = R"(HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = s32[64] parameter(1)
  c = pred[64] parameter(2)
  d = bf16[64] parameter(3)
  e = (f32[2], u32[3]) parameter(4)
  ROOT t = (f32[64], s32[64], pred[64], bf16[64], (f32[2], u32[3])) tuple(a, b, c, d, e)
})";

} // namespace

TEST(InterpreterValues, RandomArgumentsAreSeededAndInRange) {
  Module module = parseOk(kParameters);
  auto first = randomArguments(module, 3);
  auto again = randomArguments(module, 3);
  auto other = randomArguments(module, 4);
  ASSERT_TRUE(first.ok() && again.ok() && other.ok());
  ASSERT_EQ(first->size(), 5u);
  EXPECT_EQ((*first)[0].data, (*again)[0].data);
  EXPECT_NE((*first)[0].data, (*other)[0].data);
  for (size_t i = 0; i < first->size(); ++i)
    EXPECT_TRUE(
        (*first)[i].shape.compatible(module.entry()->parameters()[i]->shape()));
  for (double x : (*first)[0].data)
    EXPECT_TRUE(x >= -1 && x < 1) << x;
  for (double x : (*first)[1].data)
    EXPECT_TRUE(x >= 0 && x < 8 && x == std::floor(x)) << x;
  for (double x : (*first)[2].data)
    EXPECT_TRUE(x == 0 || x == 1) << x;
  // bf16 values are exactly representable: 8 significant bits.
  for (double x : (*first)[3].data)
    EXPECT_EQ(std::ldexp(x, 8 - std::ilogb(x)),
              std::floor(std::ldexp(x, 8 - std::ilogb(x))))
        << x;
  ASSERT_EQ((*first)[4].elements.size(), 2u);
  EXPECT_EQ((*first)[4].elements[1].data.size(), 3u);
  // The entry runs on them and returns them.
  auto result = evaluate(module, *first);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(compareValues(result->elements[0], (*first)[0], 0, 0).ok());
}

TEST(InterpreterValues, RandomArgumentsRefuseParametersOverTheLimit) {
  Module module = parseOk(kParameters);
  InterpreterOptions options;
  options.maxElements = 32;
  auto arguments = randomArguments(module, 1, options);
  ASSERT_FALSE(arguments.ok());
  EXPECT_NE(arguments.error().message.find("parameter a"), std::string::npos)
      << arguments.error().message;
}

TEST(InterpreterValues, ElidedConstantsAreSeededByName) {
  std::string text = R"(HloModule m
ENTRY e {
  big = f32[16] constant({...})
  other = f32[16] constant({...})
  ROOT t = (f32[16], f32[16]) tuple(big, other)
})";
  // The same constant under another module keeps its values.
  std::string renamedModule = R"(HloModule n
ENTRY f {
  x = f32[] constant(1)
  big = f32[16] constant({...})
  ROOT y = f32[16] add(big, big)
})";
  Value a = run(text, {});
  Value b = run(text, {});
  EXPECT_EQ(a.elements[0].data, b.elements[0].data);
  EXPECT_NE(a.elements[0].data, a.elements[1].data);
  Value doubled = run(renamedModule, {});
  for (size_t i = 0; i < 16; ++i)
    EXPECT_EQ(doubled.data[i], 2 * a.elements[0].data[i]);
  InterpreterOptions reseeded;
  reseeded.constantSeed = 99;
  EXPECT_NE(run(text, {}, reseeded).elements[0].data, a.elements[0].data);
}

TEST(InterpreterValues, CompareValuesNamesTheFirstMismatch) {
  Value expected;
  expected.shape = Shape::tuple({Shape::array(ElementType::F32, {2, 3}),
                                 Shape::scalar(ElementType::S32)});
  expected.elements = {f32({2, 3}, {0, 1, 2, 3, 4, 5}), s32({}, {7})};
  Value actual = expected;
  EXPECT_TRUE(compareValues(expected, actual).ok());

  // Within rtol * |expected| + atol passes; beyond it fails.
  actual.elements[0].data[5] = 5 * (1 + 5e-5);
  EXPECT_TRUE(compareValues(expected, actual).ok());
  actual.elements[0].data[5] = 5.01;
  rlopt::Status status = compareValues(expected, actual);
  ASSERT_FALSE(status.ok());
  const std::string &message = status.error().message;
  EXPECT_NE(message.find("{0}"), std::string::npos) << message;
  EXPECT_NE(message.find("[1,2]"), std::string::npos) << message;
  EXPECT_NE(message.find("expected 5, got 5.01"), std::string::npos) << message;

  Value wrongShape = expected;
  wrongShape.elements[1] = s32({1}, {7});
  EXPECT_FALSE(compareValues(expected, wrongShape).ok());
}

TEST(InterpreterValues, CompareValuesTreatsNaNAsEqualAndInfinityExactly) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Value a = f32({3}, {nan, inf, -inf});
  EXPECT_TRUE(compareValues(a, a).ok());
  EXPECT_FALSE(compareValues(a, f32({3}, {1, inf, -inf})).ok());
  EXPECT_FALSE(compareValues(a, f32({3}, {nan, -inf, -inf})).ok());
  EXPECT_FALSE(compareValues(a, f32({3}, {nan, 1e30, -inf})).ok());
}
