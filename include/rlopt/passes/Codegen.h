#ifndef RLOPT_PASSES_CODEGEN_H
#define RLOPT_PASSES_CODEGEN_H

#include "rlopt/core/Result.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::passes {

/// Compiles a copy of `module` to a host object file in memory, with the
/// target machine's code generation level (-O2).
Result<std::string> emitObject(const llvm::Module &module,
                               llvm::TargetMachine &machine);

/// The size of the object's text sections (CompilerGym's
/// ObjectTextSizeBytes).
Result<int64_t> textSectionBytes(const std::string &object);

/// Writes the object for `module` to `dir` and links it with clang into an
/// executable there; returns its path.
Result<std::string> buildExecutable(const llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    const std::vector<std::string> &libs,
                                    const std::string &dir,
                                    const std::string &clang = "clang-19");

} // namespace rlopt::passes

#endif
