#ifndef RLOPT_PASSES_MODULECOPY_H
#define RLOPT_PASSES_MODULECOPY_H

#include "rlopt/core/Result.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace rlopt::passes {

/// Deletes a module, then the LLVMContext it lives in alone.
struct ModuleAndContextDeleter {
  void operator()(llvm::Module *module) const;
};

/// A module that owns its LLVMContext. Passes see context-wide state (named
/// struct types, which `strip` renames in place; the use lists of constants;
/// dead constants), so a module that shares its context with others is
/// optimized differently depending on what else the context has seen.
/// release() leaks the module and its context together, as a crash inside
/// LLVM requires.
using IsolatedModule = std::unique_ptr<llvm::Module, ModuleAndContextDeleter>;

/// The module as bitcode, with the order of every use list, which passes
/// that walk users or predecessors depend on.
std::string writeModuleBitcode(const llvm::Module &module);

/// The module as bitcode without its use-list order. Some passes leave use
/// lists in an order that depends on where their own data structures were
/// allocated, so the same IR can carry different orders from run to run;
/// these bytes depend on the IR alone, and a module read back from them has
/// its use lists in the order reading gives, the same every time.
std::string writeCanonicalBitcode(const llvm::Module &module);

/// Reads bitcode from writeModuleBitcode into a new context of its own.
Result<IsolatedModule> readModuleBitcode(llvm::StringRef bitcode,
                                         llvm::StringRef name);

/// An exact copy in a new context: the same IR, names and use-list order.
/// Unlike llvm::CloneModule, passes cannot tell it from the original.
Result<IsolatedModule> copyModule(const llvm::Module &module);

} // namespace rlopt::passes

#endif
