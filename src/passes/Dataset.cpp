// Installing a directory of benchmark specs as a dataset.
#include "rlopt/passes/Dataset.h"

#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/core/Splits.h"
#include "rlopt/passes/BenchmarkSpec.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace rlopt::passes {

namespace fs = std::filesystem;

namespace {

bool isDatasetName(const std::string &name) {
  return !name.empty() && name[0] != '.' && name != "rlopt-v0" &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                  c == '_' || c == '.';
         });
}

std::vector<std::string> specPaths(const std::string &dir) {
  std::vector<std::string> paths;
  std::error_code error;
  for (const auto &entry : fs::directory_iterator(dir, error))
    if (entry.path().extension() == ".json" &&
        entry.path().stem() != "splits" && entry.is_regular_file())
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// Builds every program into `staging`.
Status buildInto(const std::string &staging, const DatasetInstall &request,
                 const BenchmarkSources &sources,
                 std::vector<std::string> &programs) {
  auto paths = specPaths(request.sourceDir);
  if (paths.empty())
    return makeError(request.sourceDir +
                     ": no benchmark specs (NAME.json) in it");
  for (const auto &path : paths) {
    auto spec = loadBenchmarkSpec(path);
    if (!spec)
      return spec.error();
    if (request.progress)
      request.progress(spec->name);
    llvm::LLVMContext context;
    auto module = buildSpecModule(*spec, sources, context);
    if (!module)
      return module.error();
    if (Status ok = installSpec(*spec, **module, staging); !ok)
      return ok;
    programs.push_back(spec->name);
  }
  std::string splits = request.sourceDir + "/splits.json";
  if (!fs::exists(splits))
    return Status::success();
  if (auto checked = readSplits(splits, programs); !checked)
    return checked.error();
  std::error_code error;
  fs::copy_file(splits, staging + "/splits.json", error);
  if (error)
    return makeError("cannot copy " + splits + ": " + error.message());
  return Status::success();
}

} // namespace

Result<InstalledDataset> installDataset(const DatasetInstall &request,
                                        const BenchmarkSources &sources) {
  std::error_code error;
  if (!fs::is_directory(request.sourceDir, error))
    return makeError(request.sourceDir + ": not a directory");
  InstalledDataset installed;
  installed.name = request.name.empty() ? fs::absolute(request.sourceDir)
                                              .lexically_normal()
                                              .filename()
                                              .string()
                                        : request.name;
  if (installed.name.empty())
    installed.name = fs::absolute(request.sourceDir)
                         .lexically_normal()
                         .parent_path()
                         .filename()
                         .string();
  if (!isDatasetName(installed.name))
    return makeError("dataset name '" + installed.name +
                     "': expected letters, digits, '-', '_' and '.', not "
                     "rlopt-v0");
  installed.dir = sources.datasetsDir + "/" + installed.name;
  if (fs::exists(installed.dir, error) && !request.replace)
    return makeError(installed.dir +
                     ": already installed (--replace replaces it)");
  fs::create_directories(sources.datasetsDir, error);
  if (error)
    return makeError(sources.datasetsDir + ": " + error.message());

  // Built beside its final place and renamed into it, so a failure or a
  // kill leaves no half-installed dataset under its name.
  std::string pattern =
      sources.datasetsDir + "/." + installed.name + ".installing-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    return makeError(sources.datasetsDir +
                     ": cannot create a directory: " + std::strerror(errno));
  std::string staging = buffer.data();
  Status built = buildInto(staging, request, sources, installed.programs);
  if (built) {
    std::string old = staging + ".old";
    if (fs::exists(installed.dir, error))
      fs::rename(installed.dir, old, error);
    if (!error)
      fs::rename(staging, installed.dir, error);
    if (error)
      built = makeError(installed.dir + ": " + error.message());
    fs::remove_all(old, error);
  }
  fs::remove_all(staging, error);
  if (!built)
    return built.error();
  return installed;
}

} // namespace rlopt::passes
