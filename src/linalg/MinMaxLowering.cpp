#include "rlopt/linalg/MinMaxLowering.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <optional>

namespace rlopt::linalg {
namespace {

/// VRANGE's immediate: bits 1:0 pick the minimum (00) or the maximum (01);
/// bits 3:2 = 01 take the sign from the comparison, which puts -0 below +0
/// (00 would copy the first operand's sign).
constexpr unsigned kRangeMinimum = 0b0100, kRangeMaximum = 0b0101;
/// The last operand of the 512-bit forms: round as MXCSR says.
constexpr unsigned kCurrentRounding = 4;

struct RangeFeatures {
  bool available = false;    ///< AVX-512F and DQ: the 512-bit forms
  bool vectorLength = false; ///< and VL: the 256-bit forms
};

RangeFeatures rangeFeatures(const llvm::TargetMachine &machine) {
  if (!machine.getTargetTriple().isX86())
    return {};
  llvm::SmallVector<llvm::StringRef> features;
  llvm::SplitString(machine.getTargetFeatureString(), features, ",");
  auto has = [&](llvm::StringRef name) {
    return llvm::is_contained(features, ("+" + name).str());
  };
  RangeFeatures range;
  range.available = has("avx512f") && has("avx512dq");
  range.vectorLength = range.available && has("avx512vl");
  return range;
}

/// The VRANGE form for one register of a vector, and how many lanes it
/// takes.
struct RangeForm {
  llvm::Intrinsic::ID intrinsic;
  unsigned lanes;
  bool wide; ///< the 512-bit form, which takes a rounding operand
};

bool isMinimumOrMaximum(const llvm::Instruction &instruction) {
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  return call && (call->getIntrinsicID() == llvm::Intrinsic::maximum ||
                  call->getIntrinsicID() == llvm::Intrinsic::minimum);
}

/// The form for a vector call of floats or doubles whose lanes fill whole
/// registers, if the CPU has one.
std::optional<RangeForm> rangeForm(const llvm::IntrinsicInst &call,
                                   const RangeFeatures &features) {
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(call.getType());
  if (!features.available || !type)
    return std::nullopt;
  llvm::Type *element = type->getElementType();
  unsigned lanes = type->getNumElements();
  bool single = element->isFloatTy();
  if (!single && !element->isDoubleTy())
    return std::nullopt;
  unsigned wideLanes = single ? 16 : 8;
  if (lanes % wideLanes == 0)
    return RangeForm{single ? llvm::Intrinsic::x86_avx512_mask_range_ps_512
                            : llvm::Intrinsic::x86_avx512_mask_range_pd_512,
                     wideLanes, true};
  if (features.vectorLength && lanes % (wideLanes / 2) == 0)
    return RangeForm{single ? llvm::Intrinsic::x86_avx512_mask_range_ps_256
                            : llvm::Intrinsic::x86_avx512_mask_range_pd_256,
                     wideLanes / 2, false};
  return std::nullopt;
}

/// The operand index of a constant (a splat for vectors) that is no NaN and
/// not the zero an equal operand of the other sign should win over: for it
/// the call is `x > c ? x : c` (maximum) or `x < c ? x : c` (minimum), with
/// unordered compares so that a NaN x is returned. -1 if there is none.
int selectableConstant(const llvm::IntrinsicInst &call) {
  bool maximum = call.getIntrinsicID() == llvm::Intrinsic::maximum;
  for (int i : {0, 1}) {
    auto *constant = llvm::dyn_cast<llvm::Constant>(call.getArgOperand(i));
    if (!constant)
      continue;
    auto *value = llvm::dyn_cast_or_null<llvm::ConstantFP>(
        constant->getType()->isVectorTy() ? constant->getSplatValue()
                                          : constant);
    // The select keeps the constant for an equal x: wrong only where x is
    // the other zero and should win (maximum(+0, -0) is +0).
    if (value && !value->isNaN() &&
        !(value->isZero() && value->isNegative() == maximum))
      return i;
  }
  return -1;
}

void rewriteAsSelect(llvm::IntrinsicInst &call, int constantIndex) {
  llvm::IRBuilder<> builder(&call);
  llvm::Value *constant = call.getArgOperand(constantIndex);
  llvm::Value *x = call.getArgOperand(1 - constantIndex);
  llvm::Value *wins = call.getIntrinsicID() == llvm::Intrinsic::maximum
                          ? builder.CreateFCmpUGT(x, constant)
                          : builder.CreateFCmpULT(x, constant);
  call.replaceAllUsesWith(builder.CreateSelect(wins, x, constant));
  call.eraseFromParent();
}

void rewriteAsRange(llvm::IntrinsicInst &call, const RangeForm &form) {
  auto *type = llvm::cast<llvm::FixedVectorType>(call.getType());
  unsigned lanes = type->getNumElements();
  unsigned immediate = call.getIntrinsicID() == llvm::Intrinsic::maximum
                           ? kRangeMaximum
                           : kRangeMinimum;
  llvm::IRBuilder<> builder(&call);
  llvm::Value *lhs = call.getArgOperand(0), *rhs = call.getArgOperand(1);
  auto lanesOf = [&](llvm::Value *vector, unsigned start) {
    if (form.lanes == lanes)
      return vector;
    return builder.CreateShuffleVector(
        vector, llvm::createSequentialMask(start, form.lanes, 0));
  };
  llvm::SmallVector<llvm::Value *> parts;
  for (unsigned start = 0; start < lanes; start += form.lanes) {
    llvm::Value *a = lanesOf(lhs, start), *b = lanesOf(rhs, start);
    // Every lane selected: the pass-through operand is never read.
    llvm::SmallVector<llvm::Value *> operands = {
        a, b, builder.getInt32(immediate), a,
        builder.getIntN(std::max(form.lanes, 8u), -1)};
    if (form.wide)
      operands.push_back(builder.getInt32(kCurrentRounding));
    parts.push_back(builder.CreateIntrinsic(form.intrinsic, {}, operands));
  }
  llvm::Value *result =
      parts.size() == 1 ? parts[0] : llvm::concatenateVectors(builder, parts);
  if (!call.hasNoNaNs()) {
    // VRANGE returns the other operand for a NaN; the sum is a NaN.
    llvm::Value *unordered = builder.CreateFCmpUNO(lhs, rhs);
    result =
        builder.CreateSelect(unordered, builder.CreateFAdd(lhs, rhs), result);
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
}

} // namespace

unsigned lowerMinimumsAndMaximums(llvm::Module &module,
                                  const llvm::TargetMachine &machine) {
  RangeFeatures features = rangeFeatures(machine);
  llvm::SmallVector<llvm::IntrinsicInst *> calls;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (isMinimumOrMaximum(instruction))
        calls.push_back(llvm::cast<llvm::IntrinsicInst>(&instruction));
  unsigned rewritten = 0;
  for (llvm::IntrinsicInst *call : calls) {
    if (int constant = selectableConstant(*call); constant >= 0) {
      rewriteAsSelect(*call, constant);
      ++rewritten;
    } else if (auto form = rangeForm(*call, features)) {
      rewriteAsRange(*call, *form);
      ++rewritten;
    }
  }
  return rewritten;
}

} // namespace rlopt::linalg
