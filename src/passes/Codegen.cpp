// Host code generation: object files for the code-size observation and
// executables for the runtime observation.
#include "rlopt/passes/Codegen.h"

#include "rlopt/core/File.h"
#include "rlopt/core/Process.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace rlopt::passes {

Result<std::string> emitObject(const llvm::Module &module,
                               llvm::TargetMachine &machine) {
  // Code generation rewrites the IR it is given, so it works on a copy.
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
  copy->setDataLayout(machine.createDataLayout());
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager manager;
  if (machine.addPassesToEmitFile(manager, stream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return makeError("the host target cannot emit object files");
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { manager.run(*copy); }))
    return makeError("code generation crashed inside LLVM");
  return std::string(buffer.begin(), buffer.end());
}

Result<int64_t> textSectionBytes(const std::string &object) {
  llvm::MemoryBufferRef ref(object, "object");
  auto file = llvm::object::ObjectFile::createObjectFile(ref);
  if (!file)
    return makeError("cannot read the generated object: " +
                     llvm::toString(file.takeError()));
  int64_t bytes = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections())
    if (section.isText())
      bytes += static_cast<int64_t>(section.getSize());
  return bytes;
}

Result<std::string> buildExecutable(const llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    const std::vector<std::string> &libs,
                                    const std::string &dir,
                                    const std::string &clang) {
  auto object = emitObject(module, machine);
  if (!object)
    return object.error();
  std::string objectPath = dir + "/program.o";
  std::string exePath = dir + "/program";
  if (Status written = writeFileAtomically(objectPath, *object); !written)
    return written.error();
  std::vector<std::string> argv = {clang, objectPath, "-o", exePath};
  argv.insert(argv.end(), libs.begin(), libs.end());
  ProcessOptions options;
  options.timeoutSeconds = 120;
  auto linked = runProcess(argv, options);
  if (!linked)
    return linked.error();
  if (!linked->succeeded())
    return makeError("linking failed: " +
                     (linked->exitCode > 0 && !linked->err.empty()
                          ? linked->err.substr(0, linked->err.find('\n'))
                          : describeFailure(*linked, options)));
  return exePath;
}

} // namespace rlopt::passes
