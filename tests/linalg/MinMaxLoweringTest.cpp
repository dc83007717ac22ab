// NaN-propagating minimums and maximums in fewer instructions: which calls
// are rewritten for which CPU, and that a vectorized program still computes
// what arith.maximumf / arith.minimumf say on NaNs, zeros and infinities.
#include "rlopt/linalg/MinMaxLowering.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Executor.h"
#include "rlopt/linalg/Lowering.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace rlopt;
using namespace rlopt::linalg;

namespace {

constexpr const char *kCalls = R"(
define void @f(<64 x float> %a, <16 x double> %b, <8 x float> %c,
               <5 x float> %d, float %e, <16 x float> %f, ptr %out) {
  %1 = call <64 x float> @llvm.maximum.v64f32(<64 x float> %a, <64 x float> %a)
  store <64 x float> %1, ptr %out
  %2 = call <16 x double> @llvm.minimum.v16f64(<16 x double> %b, <16 x double> %b)
  store <16 x double> %2, ptr %out
  %3 = call <8 x float> @llvm.maximum.v8f32(<8 x float> %c, <8 x float> %c)
  store <8 x float> %3, ptr %out
  %4 = call <5 x float> @llvm.maximum.v5f32(<5 x float> %d, <5 x float> %d)
  store <5 x float> %4, ptr %out
  %5 = call float @llvm.maximum.f32(float %e, float %e)
  store float %5, ptr %out
  %6 = call <16 x float> @llvm.maximum.v16f32(<16 x float> %f, <16 x float> zeroinitializer)
  store <16 x float> %6, ptr %out
  %7 = call <16 x float> @llvm.minimum.v16f32(<16 x float> %f, <16 x float> zeroinitializer)
  store <16 x float> %7, ptr %out
  %8 = call float @llvm.minimum.f32(float 6.0, float %e)
  store float %8, ptr %out
  ret void
}
declare <64 x float> @llvm.maximum.v64f32(<64 x float>, <64 x float>)
declare <16 x double> @llvm.minimum.v16f64(<16 x double>, <16 x double>)
declare <8 x float> @llvm.maximum.v8f32(<8 x float>, <8 x float>)
declare <5 x float> @llvm.maximum.v5f32(<5 x float>, <5 x float>)
declare float @llvm.maximum.f32(float, float)
declare <16 x float> @llvm.maximum.v16f32(<16 x float>, <16 x float>)
declare <16 x float> @llvm.minimum.v16f32(<16 x float>, <16 x float>)
declare float @llvm.minimum.f32(float, float)
)";

std::unique_ptr<llvm::TargetMachine> x86Machine(const std::string &features) {
  llvm::InitializeNativeTarget();
  std::string error;
  const char *triple = "x86_64-unknown-linux-gnu";
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "x86-64", features, llvm::TargetOptions(), std::nullopt));
}

int minMaxCalls(const llvm::Module &module) {
  int calls = 0;
  for (const llvm::Function &function : module)
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
          calls += call->getIntrinsicID() == llvm::Intrinsic::maximum ||
                   call->getIntrinsicID() == llvm::Intrinsic::minimum;
  return calls;
}

int rewrittenFor(const std::string &features, int &callsLeft) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseAssemblyString(kCalls, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  auto machine = x86Machine(features);
  EXPECT_TRUE(machine);
  if (!module || !machine)
    return -1;
  int rewritten = lowerMinimumsAndMaximums(*module, *machine);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  callsLeft = minMaxCalls(*module);
  return rewritten;
}

/// How many of kCalls' eight calls a CPU with `features` rewrites, and how
/// many it leaves.
void expectRewritten(const std::string &features, int rewritten, int left) {
  int callsLeft = 0;
  EXPECT_EQ(rewrittenFor(features, callsLeft), rewritten) << features;
  EXPECT_EQ(callsLeft, left) << features;
}

TEST(MinMaxLowering, RangeForVectorsThatFillWholeRegistersOnAvx512Dq) {
  // 64 and 16 floats and 16 doubles fill 512-bit registers, 8 floats a
  // 256-bit one; 5 floats and a scalar fill none. The maximum with +0 and
  // the minimum with 6 are selects; the minimum with +0 is not (the select
  // would keep +0 for a -0).
  expectRewritten("+avx512f,+avx512dq,+avx512vl", 6, 2);
  expectRewritten("+avx512f,+avx512dq", 5, 3);
}

TEST(MinMaxLowering, ConstantOperandsAreASelectOnAnyCpu) {
  expectRewritten("+avx2,+fma", 2, 6);
  expectRewritten("+avx512f,+avx512vl", 2, 6);
}

constexpr const char *kProgram = R"(
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @minmax(%a: tensor<11x32xf32>, %b: tensor<11x32xf32>)
    -> (tensor<11x32xf32>, tensor<11x32xf32>, tensor<11x32xf32>,
        tensor<11x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<11x32xf32>
  %r:4 = linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<11x32xf32>, tensor<11x32xf32>)
      outs(%e, %e, %e, %e : tensor<11x32xf32>, tensor<11x32xf32>,
                            tensor<11x32xf32>, tensor<11x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %p: f32, %q: f32, %s: f32):
    %max = arith.maximumf %x, %y : f32
    %min = arith.minimumf %x, %y : f32
    %relu = arith.maximumf %x, %zero : f32
    %clip = arith.minimumf %six, %x : f32
    linalg.yield %max, %min, %relu, %clip : f32, f32, f32, f32
  } -> (tensor<11x32xf32>, tensor<11x32xf32>, tensor<11x32xf32>,
        tensor<11x32xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<11x32xf32>, tensor<11x32xf32>,
                                  tensor<11x32xf32>, tensor<11x32xf32>
}
)";

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// What arith.maximumf / arith.minimumf return: NaN if either is NaN, and
/// -0 below +0.
float expectedMinMax(float x, float y, bool maximum) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<float>::quiet_NaN();
  if (x == y)
    return std::signbit(x) == maximum ? y : x;
  return (x > y) == maximum ? x : y;
}

TEST(MinMaxLowering, VectorizedProgramComputesWhatArithSays) {
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN(),
                          -std::numeric_limits<float>::quiet_NaN(),
                          1e-40f,
                          -1e-40f,
                          3.5f};
  // Every ordered pair of the 11 values, in both halves of each vector.
  std::vector<float> a(11 * 32), b(11 * 32);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 32; ++j) {
      a[i * 32 + j] = values[i];
      b[i * 32 + j] = values[j % 11];
    }
  auto context = createContext();
  auto program = parseProgram(*context, kProgram, "minmax.mlir");
  ASSERT_TRUE(program.ok()) << program.error().message;
  auto schedule = parseSchedule("op0: tile(1,32) vectorize");
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  auto scheduled = applySchedule(*program, *schedule);
  ASSERT_TRUE(scheduled.ok()) << scheduled.error().message;
  std::string text;
  llvm::raw_string_ostream os(text);
  (*scheduled)->print(os);
  ASSERT_NE(text.find("arith.maximumf %2, %3 : vector<1x32xf32>"),
            std::string::npos)
      << text;
  Signature sig = signatureOf(program->entry());
  auto lowered = lowerToLLVM(**scheduled);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  auto kernel = JitKernel::compile(**scheduled, sig);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  HostBuffer left(sig.inputs[0]), right(sig.inputs[1]);
  std::memcpy(left.data(), a.data(), a.size() * sizeof(float));
  std::memcpy(right.data(), b.data(), b.size() * sizeof(float));
  KernelCall call = prepareCall(sig, *lowered, {&left, &right});
  (*kernel)->run(call.args);
  ASSERT_EQ(call.results.size(), 4u);
  auto resultAt = [&](int which, size_t k) {
    return static_cast<const float *>(call.results[which]->data())[k];
  };
  auto expectSame = [](float actual, float expected, const std::string &what) {
    if (std::isnan(expected))
      EXPECT_TRUE(std::isnan(actual)) << what << " = " << actual;
    else
      EXPECT_EQ(bitsOf(actual), bitsOf(expected)) << what << " = " << actual;
  };
  for (size_t k = 0; k < a.size(); ++k) {
    std::string operands =
        "(" + std::to_string(a[k]) + ", " + std::to_string(b[k]) + ")";
    expectSame(resultAt(0, k), expectedMinMax(a[k], b[k], true),
               "maximum" + operands);
    expectSame(resultAt(1, k), expectedMinMax(a[k], b[k], false),
               "minimum" + operands);
    expectSame(resultAt(2, k), expectedMinMax(a[k], 0.0f, true),
               "maximum(" + std::to_string(a[k]) + ", 0)");
    expectSame(resultAt(3, k), expectedMinMax(6.0f, a[k], false),
               "minimum(6, " + std::to_string(a[k]) + ")");
  }
}

} // namespace
