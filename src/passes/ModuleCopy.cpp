// Exact module copies, each in an LLVMContext of its own.
#include "rlopt/passes/ModuleCopy.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace rlopt::passes {

void ModuleAndContextDeleter::operator()(llvm::Module *module) const {
  llvm::LLVMContext *context = &module->getContext();
  delete module;
  delete context;
}

static std::string bitcodeOf(const llvm::Module &module, bool useListOrder) {
  std::string bitcode;
  llvm::raw_string_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(module, stream, useListOrder);
  stream.flush();
  return bitcode;
}

std::string writeModuleBitcode(const llvm::Module &module) {
  return bitcodeOf(module, /*useListOrder=*/true);
}

std::string writeCanonicalBitcode(const llvm::Module &module) {
  return bitcodeOf(module, /*useListOrder=*/false);
}

Result<IsolatedModule> readModuleBitcode(llvm::StringRef bitcode,
                                         llvm::StringRef name) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, name), *context);
  if (!module)
    return makeError(name.str() +
                     ": unreadable bitcode: " + toString(module.takeError()));
  // From here the module owns its context.
  context.release();
  return IsolatedModule(module->release());
}

Result<IsolatedModule> copyModule(const llvm::Module &module) {
  return readModuleBitcode(writeModuleBitcode(module),
                           module.getModuleIdentifier());
}

} // namespace rlopt::passes
