// InstCount and IrInstructionCount observations.
#include "rlopt/passes/Features.h"

#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

#include <cctype>

namespace rlopt::passes {

namespace {
constexpr unsigned kFirstOpcode = llvm::Instruction::TermOpsBegin;
constexpr unsigned kEndOpcode = llvm::Instruction::OtherOpsEnd;
} // namespace

int64_t instructionCount(const llvm::Module &module) {
  int64_t count = 0;
  for (const llvm::Function &function : module)
    count += function.getInstructionCount();
  return count;
}

std::vector<std::string> instCountNames() {
  std::vector<std::string> names = {"TotalInstsCount", "TotalBlocksCount",
                                    "TotalFuncsCount"};
  for (unsigned op = kFirstOpcode; op < kEndOpcode; ++op) {
    std::string name = llvm::Instruction::getOpcodeName(op);
    name[0] = static_cast<char>(std::toupper(name[0]));
    names.push_back(name + "Count");
  }
  return names;
}

std::vector<int64_t> instCount(const llvm::Module &module) {
  std::vector<int64_t> counts(3 + kEndOpcode - kFirstOpcode, 0);
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    ++counts[2];
    for (const llvm::BasicBlock &block : function) {
      ++counts[1];
      for (const llvm::Instruction &inst : block) {
        ++counts[0];
        ++counts[3 + inst.getOpcode() - kFirstOpcode];
      }
    }
  }
  return counts;
}

} // namespace rlopt::passes
