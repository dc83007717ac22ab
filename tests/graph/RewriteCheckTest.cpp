// checkRewrite: the interpreter as the oracle for a rewritten graph, as
// `rlopt graph run --validate` uses it.
#include "rlopt/graph/RewriteCheck.h"

#include "GraphTestUtil.h"

using namespace rlopt::graph;
using namespace rlopt::graph::testing;

namespace {

/// Attention-like scores masked by an integer mask: 1 keeps a score, 0
/// sends it to -10000 before the softmax's exp.
std::string maskedScores(const std::string &scaleBy) {
  return R"(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  mask = s32[8] parameter(1)
  one = s32[] constant(1)
  ones = s32[8] broadcast(one), dimensions={}
  keep = pred[8] compare(mask, ones), direction=EQ
  k = f32[] constant(8)
  ks = f32[8] broadcast(k), dimensions={}
  scaled = f32[8] )" +
         scaleBy + R"((x, ks)
  big = f32[] constant(-10000)
  bigs = f32[8] broadcast(big), dimensions={}
  masked = f32[8] select(keep, scaled, bigs)
  ROOT e = f32[8] exponential(masked)
})";
}

/// (10^5 a + b) - 10^5 a: the sum cancels, so one f32 rounding of it
/// moves the result by far more than the tolerance. The sum goes through a
/// convert to `sumType` and back to f32, or through none for "".
std::string cancellingSum(const std::string &sumType) {
  std::string text = R"(
HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = f32[64] parameter(1)
  k = f32[] constant(100000)
  ks = f32[64] broadcast(k), dimensions={}
  big = f32[64] multiply(a, ks)
  sum = f32[64] add(big, b)
)";
  if (sumType.empty())
    return text + "  ROOT d = f32[64] subtract(sum, big)\n}";
  return text + "  c = " + sumType + "[64] convert(sum)\n" +
         "  back = f32[64] convert(c)\n" +
         "  ROOT d = f32[64] subtract(back, big)\n}";
}

/// The check failed on a value that differs, not for another reason.
void expectMismatch(const RewriteCheck &check) {
  EXPECT_FALSE(check.ok());
  ASSERT_FALSE(check.errors.empty());
  EXPECT_NE(check.errors[0].find("mismatch"), std::string::npos)
      << check.errors[0];
}

} // namespace

TEST(RewriteCheck, AnEquivalentRewritePassesAndSaysWhatItCompared) {
  Module before = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  zeros = f32[4] broadcast(zero), dimensions={}
  ROOT s = f32[4] add(p, zeros)
})");
  Module after = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT c = f32[4] copy(p)
})");
  RewriteCheck check = checkRewrite(before, after);
  EXPECT_TRUE(check.ok()) << check.toJson().dump();
  EXPECT_EQ(check.argumentSets, 3);
  EXPECT_EQ(check.compared, 12);
  EXPECT_EQ(check.checked(), "3 argument sets, 12 finite output elements");
}

TEST(RewriteCheck, APlantedDivideToMultiplyBehindAMaskIsCaught) {
  // With integers drawn from [0, 8) the mask keeps one score in eight; the
  // 0/1 argument set keeps half of them, so the wrong scale shows.
  Module before = parseOk(maskedScores("divide"));
  Module wrong = parseOk(maskedScores("multiply"));
  RewriteCheck check = checkRewrite(before, wrong);
  expectMismatch(check);
}

TEST(RewriteCheck, RemovingAConvertToTheSameTypeIsExact) {
  // XLA's convert to the same type is a no-op, so algsimp removes it; the
  // check must not see a rounding that was never there.
  Module before = parseOk(cancellingSum("f32"));
  Module after = parseOk(cancellingSum(""));
  RewriteCheck check = checkRewrite(before, after);
  EXPECT_TRUE(check.ok()) << check.toJson().dump();
}

TEST(RewriteCheck, RemovingANarrowingConvertIsCaught) {
  Module before = parseOk(cancellingSum("bf16"));
  Module after = parseOk(cancellingSum(""));
  RewriteCheck check = checkRewrite(before, after);
  expectMismatch(check);
}

TEST(RewriteCheck, NaNWhereTheOriginalIsFiniteIsAMismatch) {
  Module before = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT a = f32[4] abs(p)
})");
  Module after = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] abs(p)
  ROOT l = f32[4] log(p)
})");
  RewriteCheck check = checkRewrite(before, after);
  EXPECT_FALSE(check.ok());
}

TEST(RewriteCheck, AnOriginalThatIsNaNEverywhereChecksNothing) {
  Module nan = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  zs = f32[4] broadcast(z), dimensions={}
  ROOT d = f32[4] divide(zs, zs)
})");
  RewriteCheck check = checkRewrite(nan, nan);
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.notFinite, 12);
  EXPECT_NE(check.errors[0].find("nothing compared"), std::string::npos);
}

TEST(RewriteCheck, AnUnsupportedOpIsReportedNotPassed) {
  Module custom = parseOk(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT c = f32[4] custom-call(p), custom_call_target="NoSuchKernel"
})");
  RewriteCheck check = checkRewrite(custom, custom);
  EXPECT_FALSE(check.ok());
  EXPECT_NE(check.errors[0].find("NoSuchKernel"), std::string::npos)
      << check.errors[0];
}
