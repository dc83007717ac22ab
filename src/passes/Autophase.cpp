// Autophase features (Huang et al., "AutoPhase: Juggling HLS Phase Orderings
// in Random Forests with Deep Reinforcement Learning", MLSys 2020), written
// from the feature definitions in the paper, in its order.
#include "rlopt/passes/Features.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <iterator>

namespace rlopt::passes {

namespace {

enum Feature {
  BBNumArgsHi,    // blocks whose phis take more than 5 arguments in total
  BBNumArgsLo,    // blocks whose phis take 1 to 5 arguments in total
  OnePred,        // blocks with one predecessor
  OnePredOneSuc,  // ... and one successor
  OnePredTwoSuc,  // ... and two successors
  OneSuccessor,   // blocks with one successor
  TwoPred,        // blocks with two predecessors
  TwoPredOneSuc,  // ... and one successor
  TwoEach,        // two predecessors and two successors
  TwoSuccessor,   // blocks with two successors
  MorePreds,      // blocks with more than two predecessors
  BB03Phi,        // blocks with 1 to 3 phis
  BBHiPhi,        // blocks with more than 3 phis
  BBNoPhi,        // blocks without phis
  BeginPhi,       // phis at block starts (all phis, in valid IR)
  BranchCount,    // br instructions
  ReturnInt,      // calls returning an integer
  CriticalCount,  // critical edges
  NumEdges,       // CFG edges
  Const32Bit,     // 32-bit integer constant operands
  Const64Bit,     // 64-bit integer constant operands
  NumConstZeroes, // integer constant operands equal to 0
  NumConstOnes,   // integer constant operands equal to 1
  UncondBranches, // unconditional br
  BinaryConstArg, // binary operators with a constant operand
  NumAShrInst,
  NumAddInst,
  NumAllocaInst,
  NumAndInst,
  BlockMid, // blocks with 15 to 500 instructions
  BlockLow, // blocks with fewer than 15 instructions
  NumBitCastInst,
  NumBrInst,
  NumCallInst,
  NumGetElementPtrInst,
  NumICmpInst,
  NumLShrInst,
  NumLoadInst,
  NumMulInst,
  NumOrInst,
  NumPHIInst,
  NumRetInst,
  NumSExtInst,
  NumSelectInst,
  NumShlInst,
  NumStoreInst,
  NumSubInst,
  NumTruncInst,
  NumXorInst,
  NumZExtInst,
  TotalBlocks,
  TotalInsts,
  TotalMemInst, // loads and stores
  TotalFuncs,   // defined functions
  ArgsPhi,      // phi arguments in total
  TestUnary,    // unary instructions (casts, loads, allocas, fneg, ...)
  FeatureCount
};

/// The per-opcode features, indexed by opcode.
int opcodeFeature(unsigned opcode) {
  switch (opcode) {
  case llvm::Instruction::AShr:
    return NumAShrInst;
  case llvm::Instruction::Add:
    return NumAddInst;
  case llvm::Instruction::Alloca:
    return NumAllocaInst;
  case llvm::Instruction::And:
    return NumAndInst;
  case llvm::Instruction::BitCast:
    return NumBitCastInst;
  case llvm::Instruction::Br:
    return NumBrInst;
  case llvm::Instruction::Call:
    return NumCallInst;
  case llvm::Instruction::GetElementPtr:
    return NumGetElementPtrInst;
  case llvm::Instruction::ICmp:
    return NumICmpInst;
  case llvm::Instruction::LShr:
    return NumLShrInst;
  case llvm::Instruction::Load:
    return NumLoadInst;
  case llvm::Instruction::Mul:
    return NumMulInst;
  case llvm::Instruction::Or:
    return NumOrInst;
  case llvm::Instruction::PHI:
    return NumPHIInst;
  case llvm::Instruction::Ret:
    return NumRetInst;
  case llvm::Instruction::SExt:
    return NumSExtInst;
  case llvm::Instruction::Select:
    return NumSelectInst;
  case llvm::Instruction::Shl:
    return NumShlInst;
  case llvm::Instruction::Store:
    return NumStoreInst;
  case llvm::Instruction::Sub:
    return NumSubInst;
  case llvm::Instruction::Trunc:
    return NumTruncInst;
  case llvm::Instruction::Xor:
    return NumXorInst;
  case llvm::Instruction::ZExt:
    return NumZExtInst;
  default:
    return -1;
  }
}

void countBlockShape(const llvm::BasicBlock &block, std::vector<int64_t> &f) {
  auto preds = std::distance(llvm::pred_begin(&block), llvm::pred_end(&block));
  auto succs = std::distance(llvm::succ_begin(&block), llvm::succ_end(&block));
  if (preds == 1) {
    ++f[OnePred];
    f[OnePredOneSuc] += succs == 1;
    f[OnePredTwoSuc] += succs == 2;
  } else if (preds == 2) {
    ++f[TwoPred];
    f[TwoPredOneSuc] += succs == 1;
    f[TwoEach] += succs == 2;
  } else if (preds > 2) {
    ++f[MorePreds];
  }
  f[OneSuccessor] += succs == 1;
  f[TwoSuccessor] += succs == 2;
  f[NumEdges] += succs;
  if (const llvm::Instruction *terminator = block.getTerminator())
    for (unsigned i = 0; i < terminator->getNumSuccessors(); ++i)
      f[CriticalCount] += llvm::isCriticalEdge(terminator, i);

  int64_t phis = 0, phiArgs = 0;
  for (const llvm::PHINode &phi : block.phis()) {
    ++phis;
    phiArgs += phi.getNumIncomingValues();
  }
  f[BeginPhi] += phis;
  f[ArgsPhi] += phiArgs;
  f[BBNoPhi] += phis == 0;
  f[BB03Phi] += phis > 0 && phis <= 3;
  f[BBHiPhi] += phis > 3;
  f[BBNumArgsHi] += phiArgs > 5;
  f[BBNumArgsLo] += phiArgs >= 1 && phiArgs <= 5;

  auto size = static_cast<int64_t>(block.size());
  f[BlockLow] += size < 15;
  f[BlockMid] += size >= 15 && size <= 500;
}

void countInstruction(const llvm::Instruction &inst, std::vector<int64_t> &f) {
  ++f[TotalInsts];
  int feature = opcodeFeature(inst.getOpcode());
  if (feature >= 0)
    ++f[feature];
  if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(&inst)) {
    ++f[BranchCount];
    f[UncondBranches] += branch->isUnconditional();
  }
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
    f[ReturnInt] += call->getType()->isIntegerTy();
  f[TotalMemInst] += llvm::isa<llvm::LoadInst, llvm::StoreInst>(inst);
  f[TestUnary] += llvm::isa<llvm::UnaryInstruction>(inst);

  bool constantOperand = false;
  for (const llvm::Value *operand : inst.operands()) {
    auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand);
    if (!constant)
      continue;
    constantOperand = true;
    f[Const32Bit] += constant->getBitWidth() == 32;
    f[Const64Bit] += constant->getBitWidth() == 64;
    f[NumConstZeroes] += constant->isZero();
    f[NumConstOnes] += constant->isOne();
  }
  f[BinaryConstArg] += llvm::isa<llvm::BinaryOperator>(inst) && constantOperand;
}

} // namespace

std::vector<std::string> autophaseNames() {
  return {"BBNumArgsHi",
          "BBNumArgsLo",
          "onePred",
          "onePredOneSuc",
          "onePredTwoSuc",
          "oneSuccessor",
          "twoPred",
          "twoPredOneSuc",
          "twoEach",
          "twoSuccessor",
          "morePreds",
          "BB03Phi",
          "BBHiPhi",
          "BBNoPhi",
          "BeginPhi",
          "BranchCount",
          "returnInt",
          "CriticalCount",
          "NumEdges",
          "const32Bit",
          "const64Bit",
          "numConstZeroes",
          "numConstOnes",
          "UncondBranches",
          "binaryConstArg",
          "NumAShrInst",
          "NumAddInst",
          "NumAllocaInst",
          "NumAndInst",
          "BlockMid",
          "BlockLow",
          "NumBitCastInst",
          "NumBrInst",
          "NumCallInst",
          "NumGetElementPtrInst",
          "NumICmpInst",
          "NumLShrInst",
          "NumLoadInst",
          "NumMulInst",
          "NumOrInst",
          "NumPHIInst",
          "NumRetInst",
          "NumSExtInst",
          "NumSelectInst",
          "NumShlInst",
          "NumStoreInst",
          "NumSubInst",
          "NumTruncInst",
          "NumXorInst",
          "NumZExtInst",
          "TotalBlocks",
          "TotalInsts",
          "TotalMemInst",
          "TotalFuncs",
          "ArgsPhi",
          "testUnary"};
}

std::vector<int64_t> autophase(const llvm::Module &module) {
  std::vector<int64_t> f(FeatureCount, 0);
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    ++f[TotalFuncs];
    for (const llvm::BasicBlock &block : function) {
      ++f[TotalBlocks];
      countBlockShape(block, f);
      for (const llvm::Instruction &inst : block)
        countInstruction(inst, f);
    }
  }
  return f;
}

} // namespace rlopt::passes
