// Tuples, call, while and conditional; the limits of the interpreter.
#include "InterpreterTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

using Data = std::vector<double>;

namespace {

const char *kSumLoop = R"(HloModule m
cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[] convert(next)
  sum = f32[] add(acc, x)
  ROOT t = (s32[], f32[]) tuple(next, sum)
}
ENTRY e {
  zero = s32[] constant(0)
  start = f32[] parameter(0)
  init = (s32[], f32[]) tuple(zero, start)
  loop = (s32[], f32[]) while(init), condition=cond, body=body
  ROOT r = f32[] get-tuple-element(loop), index=1
}
)";

} // namespace

TEST(InterpreterControlFlow, WhileLoopSums) {
  EXPECT_EQ(run(kSumLoop, {f32({}, {0})}).data, (Data{55}));
  EXPECT_EQ(run(kSumLoop, {f32({}, {0.5})}).data, (Data{55.5}));
}

TEST(InterpreterControlFlow, WhileLoopOverTheLimitIsAnError) {
  InterpreterOptions options;
  options.maxWhileIterations = 5;
  std::string error = runError(kSumLoop, {f32({}, {0})}, options);
  EXPECT_NE(error.find("loop (while)"), std::string::npos) << error;
  EXPECT_NE(error.find("maxWhileIterations"), std::string::npos) << error;
}

TEST(InterpreterControlFlow, ConditionalOnPredicateAndIndex) {
  std::string text = R"(HloModule m
double {
  x = f32[] parameter(0)
  ROOT y = f32[] add(x, x)
}
negate {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}
square {
  x = f32[] parameter(0)
  ROOT y = f32[] multiply(x, x)
}
ENTRY e {
  p = pred[] parameter(0)
  i = s32[] parameter(1)
  x = f32[] parameter(2)
  a = f32[] conditional(p, x, x), true_computation=double, false_computation=negate
  b = f32[] conditional(i, x, x, x), branch_computations={double, negate, square}
  ROOT t = (f32[], f32[]) tuple(a, b)
})";
  auto both = [&](double p, double i) {
    Value result = run(text, {pred({}, {p}), s32({}, {i}), f32({}, {3})});
    return Data{result.elements[0].data[0], result.elements[1].data[0]};
  };
  EXPECT_EQ(both(1, 0), (Data{6, 6}));
  EXPECT_EQ(both(0, 1), (Data{-3, -3}));
  EXPECT_EQ(both(1, 2), (Data{6, 9}));
  // An index out of range runs the last branch.
  EXPECT_EQ(both(1, 7), (Data{6, 9}));
  EXPECT_EQ(both(1, -1), (Data{6, 9}));
}

TEST(InterpreterControlFlow, CallAndNestedTuples) {
  std::string text = R"(HloModule m
pair {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  s = f32[2] add(a, b)
  inner = (f32[2], f32[2]) tuple(a, s)
  ROOT t = ((f32[2], f32[2]), f32[2]) tuple(inner, b)
}
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  c = ((f32[2], f32[2]), f32[2]) call(x, y), to_apply=pair
  g = (f32[2], f32[2]) get-tuple-element(c), index=0
  ROOT s = f32[2] get-tuple-element(g), index=1
})";
  EXPECT_EQ(run(text, {f32({2}, {1, 2}), f32({2}, {10, 20})}).data,
            (Data{11, 22}));
}

TEST(InterpreterControlFlow, CollectivesAndTokensOnOneDevice) {
  std::string text = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  x = f32[2] parameter(0)
  r = f32[2] all-reduce(x), replica_groups={{0,1}}, to_apply=add
  g = f32[4] all-gather(x), dimensions={0}, replica_groups={{0,1}}
  t = token[] after-all()
  id = u32[] replica-id()
  b = f32[2] opt-barrier(r)
  ROOT out = (f32[2], f32[4], u32[]) tuple(b, g, id)
})";
  Value result = run(text, {f32({2}, {1, 2})});
  EXPECT_EQ(result.elements[0].data, (Data{1, 2}));
  EXPECT_EQ(result.elements[1].data, (Data{1, 2, 1, 2}));
  EXPECT_EQ(result.elements[2].data, (Data{0}));
}

TEST(InterpreterControlFlow, ValuesOverTheElementLimitAreAnError) {
  std::string text = R"(HloModule m
ENTRY e {
  x = f32[] parameter(0)
  ROOT b = f32[10,10] broadcast(x), dimensions={}
})";
  InterpreterOptions options;
  options.maxElements = 50;
  std::string error = runError(text, {f32({}, {1})}, options);
  EXPECT_NE(error.find("b (broadcast)"), std::string::npos) << error;
  EXPECT_NE(error.find("100 elements"), std::string::npos) << error;
  EXPECT_NE(error.find("maxElements"), std::string::npos) << error;
}

TEST(InterpreterControlFlow, WrongArgumentsAreAnError) {
  std::string text = R"(HloModule m
ENTRY e {
  ROOT x = f32[2] parameter(0)
})";
  EXPECT_NE(runError(text, {}).find("takes 1 arguments, got 0"),
            std::string::npos);
  std::string error = runError(text, {f32({3}, {1, 2, 3})});
  EXPECT_NE(error.find("expected f32[2], got f32[3]"), std::string::npos)
      << error;
}
