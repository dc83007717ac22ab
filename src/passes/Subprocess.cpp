// Child processes for the toolchain (clang, csmith, llvm-stress) and for
// running compiled programs.
#include "rlopt/passes/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <chrono>

namespace rlopt::passes {

namespace {
std::string readAndRemove(const std::string &path) {
  std::string text;
  if (auto buffer = llvm::MemoryBuffer::getFile(path))
    text = (*buffer)->getBuffer().str();
  llvm::sys::fs::remove(path);
  return text;
}
} // namespace

Result<ProcessResult> runProcess(const std::string &program,
                                 const std::vector<std::string> &args,
                                 unsigned timeoutSeconds) {
  auto found = llvm::sys::findProgramByName(program);
  if (!found)
    return makeError(program + ": not found on PATH (run scripts/bootstrap)");
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("rlopt-out", "txt", outPath) ||
      llvm::sys::fs::createTemporaryFile("rlopt-err", "txt", errPath))
    return makeError("cannot create a temporary file for " + program);

  std::vector<llvm::StringRef> argv = {*found};
  for (const auto &arg : args)
    argv.push_back(arg);
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string message;
  bool failedToRun = false;
  auto start = std::chrono::steady_clock::now();
  int code =
      llvm::sys::ExecuteAndWait(*found, argv, std::nullopt, redirects,
                                timeoutSeconds, 0, &message, &failedToRun);
  ProcessResult result;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result.out = readAndRemove(outPath.str().str());
  result.err = readAndRemove(errPath.str().str());
  if (failedToRun)
    return makeError(program + ": could not run: " + message);
  if (code == -2)
    return makeError(program + ": " +
                     (message.empty() ? "timed out or crashed" : message));
  result.exitCode = code;
  return result;
}

Result<TempDir> TempDir::create(const std::string &prefix) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createUniqueDirectory(prefix, path))
    return makeError("cannot create a temporary directory");
  return TempDir(path.str().str());
}

TempDir::~TempDir() {
  if (!dir.empty())
    llvm::sys::fs::remove_directories(dir);
}

} // namespace rlopt::passes
