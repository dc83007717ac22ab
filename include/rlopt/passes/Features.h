#ifndef RLOPT_PASSES_FEATURES_H
#define RLOPT_PASSES_FEATURES_H

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace rlopt::passes {

/// Instructions in defined functions (CompilerGym's IrInstructionCount).
int64_t instructionCount(const llvm::Module &module);

/// InstCount: total instructions, blocks and functions, then one count per
/// LLVM opcode in opcode order.
std::vector<std::string> instCountNames();
std::vector<int64_t> instCount(const llvm::Module &module);

/// Autophase: the 56 static features of Huang et al. (2019), computed from
/// their definitions, in the paper's order.
std::vector<std::string> autophaseNames();
std::vector<int64_t> autophase(const llvm::Module &module);

} // namespace rlopt::passes

#endif
