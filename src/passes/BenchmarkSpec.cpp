// Benchmark specs: programs of several files, with arguments and inputs.
#include "rlopt/passes/BenchmarkSpec.h"

#include "rlopt/core/ConfigFields.h"
#include "rlopt/core/File.h"
#include "rlopt/passes/Benchmark.h"
#include "rlopt/passes/ModuleCopy.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace rlopt::passes {

namespace fs = std::filesystem;

namespace {

/// The spec's "run" object as written.
struct RunFields {
  std::vector<std::string> args, inputs, outputs;
  std::string stdinFile;

  static Result<RunFields> fromJson(const nlohmann::json &json,
                                    const std::string &where);
  nlohmann::json toJson() const;
};

template <typename Visit> void visitFields(RunFields &r, Visit &&visit) {
  visit("args", r.args);
  visit("inputs", r.inputs);
  visit("stdin", r.stdinFile);
  visit("outputs", r.outputs);
}

Result<RunFields> RunFields::fromJson(const nlohmann::json &json,
                                      const std::string &where) {
  return configFromJson<RunFields>(
      json, where, [](RunFields &r, auto &&visit) { visitFields(r, visit); });
}

nlohmann::json RunFields::toJson() const {
  return configToJson(
      *this, [](RunFields &r, auto &&visit) { visitFields(r, visit); });
}

/// The spec file as written.
struct SpecFields {
  std::vector<std::string> sources, cflags, libs = {"-lm"};
  std::string bitcode, expectedStdout;
  RunFields run;
};

template <typename Visit> void visitFields(SpecFields &s, Visit &&visit) {
  visit("sources", s.sources);
  visit("bitcode", s.bitcode);
  visit("cflags", s.cflags);
  visit("libs", s.libs);
  visit("run", s.run);
  visit("expected_stdout", s.expectedStdout);
}

/// `relative` resolved against the spec's directory; it must be a regular
/// file (a FIFO would block the program or the compiler).
Result<std::string> specFile(const std::string &where, const fs::path &base,
                             const std::string &relative, const char *key) {
  if (relative.empty())
    return makeError(where + ": " + key + ": empty path");
  std::string path = (base / relative).lexically_normal().string();
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    return makeError(where + ": " + key + ": " + relative +
                     (fs::exists(path, error) ? " is not a regular file"
                                              : ": no such file"));
  return path;
}

/// The C files a "sources" entry names: the file, or a directory's *.c.
Status expandSource(const std::string &where, const fs::path &base,
                    const std::string &entry, std::vector<std::string> &out) {
  fs::path path = (base / entry).lexically_normal();
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    auto file = specFile(where, base, entry, "sources");
    if (!file)
      return file.error();
    if (path.extension() != ".c")
      return makeError(where + ": sources: " + entry + " is not a .c file");
    out.push_back(*file);
    return Status::success();
  }
  std::vector<std::string> found;
  for (const auto &item : fs::directory_iterator(path, error))
    if (item.path().extension() == ".c" && item.is_regular_file())
      found.push_back(item.path().string());
  if (found.empty())
    return makeError(where + ": sources: " + entry + " holds no .c file");
  std::sort(found.begin(), found.end()); // link order is stable
  out.insert(out.end(), found.begin(), found.end());
  return Status::success();
}

Status resolveFiles(const std::string &where, const fs::path &base,
                    const std::vector<std::string> &names, const char *key,
                    std::vector<std::string> &out) {
  for (const auto &name : names) {
    auto file = specFile(where, base, name, key);
    if (!file)
      return file.error();
    out.push_back(*file);
  }
  return Status::success();
}

/// An output file is written in the run's working directory: a plain name.
Status checkOutputNames(const std::string &where,
                        const std::vector<std::string> &names) {
  for (const auto &name : names)
    if (name.empty() || name.find('/') != std::string::npos || name == "." ||
        name == "..")
      return makeError(where + ": run: outputs: '" + name +
                       "' must be a file name without '/'");
  return Status::success();
}

/// Checks that two inputs do not land on the same name in the working
/// directory.
Status checkInputNames(const std::string &where,
                       const std::vector<std::string> &inputs) {
  std::vector<std::string> names;
  for (const auto &input : inputs)
    names.push_back(fs::path(input).filename().string());
  std::sort(names.begin(), names.end());
  auto twice = std::adjacent_find(names.begin(), names.end());
  if (twice != names.end())
    return makeError(where + ": run: inputs: two inputs are named " + *twice);
  return Status::success();
}

} // namespace

Result<BenchmarkSpec> loadBenchmarkSpec(const std::string &path) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  auto fields = configFromJson<SpecFields>(
      *json, path, [](SpecFields &s, auto &&visit) { visitFields(s, visit); });
  if (!fields)
    return fields.error();
  BenchmarkSpec spec;
  spec.path = path;
  spec.name = fs::path(path).stem().string();
  fs::path base = fs::absolute(path).parent_path();
  if (fields->sources.empty() == fields->bitcode.empty())
    return makeError(path + ": expected either \"sources\" (C files) or "
                            "\"bitcode\" (one .bc or .ll file)");
  for (const auto &entry : fields->sources)
    if (Status ok = expandSource(path, base, entry, spec.sources); !ok)
      return ok.error();
  if (!fields->bitcode.empty()) {
    auto bitcode = specFile(path, base, fields->bitcode, "bitcode");
    if (!bitcode)
      return bitcode.error();
    llvm::StringRef ext = llvm::StringRef(*bitcode).rsplit('.').second;
    if (ext != "bc" && ext != "ll")
      return makeError(path + ": bitcode: expected a .bc or .ll file");
    spec.bitcode = *bitcode;
  }
  spec.cflags = fields->cflags;
  spec.run.libs = fields->libs;
  spec.runSpecified = json->contains("run");
  const RunFields &run = fields->run;
  spec.run.args = run.args;
  spec.run.outputs = run.outputs;
  if (Status ok = firstError(
          {resolveFiles(path, base, run.inputs, "run: inputs", spec.run.inputs),
           checkInputNames(path, spec.run.inputs),
           checkOutputNames(path, run.outputs)});
      !ok)
    return ok.error();
  if (!run.stdinFile.empty()) {
    auto input = specFile(path, base, run.stdinFile, "run: stdin");
    if (!input)
      return input.error();
    spec.run.stdinFile = *input;
  }
  if (!fields->expectedStdout.empty()) {
    auto expected =
        specFile(path, base, fields->expectedStdout, "expected_stdout");
    if (!expected)
      return expected.error();
    spec.expectedStdout = *expected;
  }
  return spec;
}

Result<std::unique_ptr<llvm::Module>>
buildSpecModule(const BenchmarkSpec &spec, const BenchmarkSources &sources,
                llvm::LLVMContext &context) {
  if (!spec.bitcode.empty())
    return readIrFile(spec.bitcode, context);
  std::unique_ptr<llvm::Module> linked;
  for (const auto &source : spec.sources) {
    auto module = compileC(source, sources, context, spec.cflags);
    if (!module)
      return makeError(spec.path + ": " + module.error().message);
    if (!linked) {
      linked = module.takeValue();
      continue;
    }
    // Linker diagnostics (a symbol defined twice) go to the context's
    // handler, which prints them; the returned flag says whether it failed.
    if (llvm::Linker::linkModules(*linked, module.takeValue()))
      return makeError(spec.path + ": linking " + source +
                       " failed (a symbol defined in two sources?)");
  }
  if (llvm::verifyModule(*linked, nullptr))
    return makeError(spec.path + ": the linked module is not valid IR");
  return linked;
}

Status installSpec(const BenchmarkSpec &spec, const llvm::Module &module,
                   const std::string &dir) {
  // Inputs keep their names; stdin and the expected output may share a name
  // with an input, so they get a directory each.
  auto copyInto = [&](const std::string &from,
                      const std::string &sub) -> Result<std::string> {
    std::string relative = spec.name + ".files/" + sub;
    std::error_code error;
    fs::create_directories(dir + "/" + relative, error);
    relative += "/" + fs::path(from).filename().string();
    if (!error)
      fs::copy_file(from, dir + "/" + relative,
                    fs::copy_options::overwrite_existing, error);
    if (error)
      return makeError("cannot copy " + from + " into " + dir + ": " +
                       error.message());
    return fs::path(relative).lexically_normal().string();
  };
  SpecFields out;
  out.bitcode = spec.name + ".bc";
  out.libs = spec.run.libs;
  out.run.args = spec.run.args;
  out.run.outputs = spec.run.outputs;
  for (const auto &input : spec.run.inputs) {
    auto copied = copyInto(input, ".");
    if (!copied)
      return copied.error();
    out.run.inputs.push_back(*copied);
  }
  for (auto [from, sub, field] :
       {std::tuple{&spec.run.stdinFile, "stdin", &out.run.stdinFile},
        std::tuple{&spec.expectedStdout, "expected", &out.expectedStdout}}) {
    if (from->empty())
      continue;
    auto copied = copyInto(*from, sub);
    if (!copied)
      return copied.error();
    *field = *copied;
  }
  nlohmann::json json = configToJson(
      out, [](SpecFields &s, auto &&visit) { visitFields(s, visit); });
  // Written as a user would write it: without the fields left empty.
  auto dropEmpty = [](nlohmann::json &object) {
    for (auto it = object.begin(); it != object.end();) {
      bool empty = it->is_string() ? it->get_ref<const std::string &>().empty()
                                   : it->empty();
      it = empty ? object.erase(it) : std::next(it);
    }
  };
  dropEmpty(json["run"]);
  dropEmpty(json);
  // "run": {} says the program runs without arguments: that is kept.
  if (spec.runSpecified && !json.contains("run"))
    json["run"] = nlohmann::json::object();
  if (Status written = writeFileAtomically(dir + "/" + out.bitcode,
                                           writeModuleBitcode(module));
      !written)
    return written;
  return writeFileAtomically(dir + "/" + spec.name + ".json",
                             json.dump(2) + "\n");
}

} // namespace rlopt::passes
