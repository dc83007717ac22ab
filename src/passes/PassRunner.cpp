// In-process pass execution with the new pass manager.
#include "rlopt/passes/PassRunner.h"

#include "CpuAlarm.h"

#include "rlopt/core/Process.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <mutex>

namespace rlopt::passes {

namespace {

thread_local std::string fatalReason;

/// LLVM's fatal errors (report_fatal_error) exit the process by default;
/// inside a recovery context they end only the pass that raised them.
void recoverFromFatalError(void *, const char *reason, bool) {
  if (auto *recovery = llvm::CrashRecoveryContext::GetCurrent()) {
    fatalReason = reason;
    recovery->HandleExit(1);
  }
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
  std::exit(1);
}

} // namespace

PassRunner::PassRunner(std::unique_ptr<llvm::TargetMachine> machine)
    : machine(std::move(machine)) {}

PassRunner::~PassRunner() = default;

Result<std::shared_ptr<PassRunner>> PassRunner::create() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    // Turns a crash inside a pass into an error for this step only.
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(recoverFromFatalError);
  });
  std::string triple = llvm::sys::getProcessTriple();
  std::string message;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return makeError("no LLVM backend for " + triple + ": " + message);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), "", options, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!machine)
    return makeError("cannot create a target machine for " + triple);
  return std::shared_ptr<PassRunner>(new PassRunner(std::move(machine)));
}

void PassRunner::adoptHostTarget(llvm::Module &module) const {
  if (module.getTargetTriple().empty())
    module.setTargetTriple(machine->getTargetTriple().str());
  if (module.getDataLayoutStr().empty())
    module.setDataLayout(machine->createDataLayout());
}

namespace {
/// The pass manager and its analyses for one run. After a crash inside LLVM
/// it is leaked, not destroyed: the crash skipped destructors, so its
/// analyses may hold value handles into a half-rewritten module.
struct PassSession {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::ModulePassManager manager;
};
} // namespace

Result<bool> PassRunner::run(llvm::Module &module,
                             const std::string &pipeline) {
  crashed = false;
  // Fresh analysis managers per run: analyses never outlive the module
  // they describe, which matters after fork() and reset().
  auto session = std::make_unique<PassSession>();
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(session->mam);
  builder.registerCGSCCAnalyses(session->cgam);
  builder.registerFunctionAnalyses(session->fam);
  builder.registerLoopAnalyses(session->lam);
  builder.crossRegisterProxies(session->lam, session->fam, session->cgam,
                               session->mam);
  if (llvm::Error error = builder.parsePassPipeline(session->manager, pipeline))
    return makeError("pass pipeline '" + pipeline +
                     "': " + llvm::toString(std::move(error)));

  uint64_t before = structuralHash(module);
  llvm::CrashRecoveryContext recovery;
  fatalReason.clear();
  bool completed, overTime;
  {
    CpuAlarm alarm(cpuSecondsLimit);
    completed =
        recovery.RunSafely([&] { session->manager.run(module, session->mam); });
    overTime = alarm.fired();
  }
  if (!completed) {
    crashed = true;
    session.release();
    if (overTime)
      return makeError("pass '" + pipeline + "' did not finish within " +
                       formatSeconds(cpuSecondsLimit) + " s of CPU time");
    return makeError("pass '" + pipeline + "' " +
                     (fatalReason.empty() ? "crashed inside LLVM"
                                          : "failed: " + fatalReason));
  }

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(module, &stream)) {
    stream.flush();
    std::string first = problems.substr(0, problems.find('\n'));
    return makeError("pass '" + pipeline +
                     "' left an invalid module: " + first);
  }
  return structuralHash(module) != before;
}

uint64_t structuralHash(const llvm::Module &module) {
  return llvm::StructuralHash(module, /*DetailedHash=*/true);
}

std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  stream.flush();
  return text;
}

} // namespace rlopt::passes
