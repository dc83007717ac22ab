// Helpers for tests that run the rlopt binary: a scratch directory per test
// and a runner that captures the exit code, stdout and stderr.
#ifndef RLOPT_TESTS_TOOLS_TOOLTESTUTIL_H
#define RLOPT_TESTS_TOOLS_TOOLTESTUTIL_H

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace rlopt::tool::testing {

namespace fs = std::filesystem;

struct RunResult {
  int exitCode = -1;
  std::string out, err;
};

inline std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The lines of a JSON-lines file; a line that is not JSON is a failure
/// and reads as an empty object.
inline std::vector<nlohmann::json> readJsonLines(const fs::path &path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto json = nlohmann::json::parse(line, nullptr, false);
    EXPECT_FALSE(json.is_discarded())
        << path << ": line " << lines.size() + 1 << " is not JSON: " << line;
    lines.push_back(json.is_discarded() ? nlohmann::json::object() : json);
  }
  return lines;
}

inline void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// Single-quotes `arg` for /bin/sh.
inline std::string shellQuote(const std::string &arg) {
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline std::string fixturePath(const std::string &name) {
  return std::string(RLOPT_TEST_DATA) + "/" + name + ".mlir";
}

/// A fresh directory under the test temp dir, removed afterwards.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern =
        (fs::path(::testing::TempDir()) / "rlopt-tool-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      ADD_FAILURE() << "mkdtemp failed";
    dir = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path operator/(const std::string &name) const { return dir / name; }
  const fs::path &path() const { return dir; }
  /// Names of the files in the directory.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir))
      names.push_back(entry.path().filename().string());
    return names;
  }

private:
  fs::path dir;
};

/// Runs `program args...` with stdout and stderr captured to files in
/// `scratch`.
inline RunResult runCommand(const std::string &program,
                            const std::vector<std::string> &args,
                            const fs::path &captureDir) {
  fs::path outPath = captureDir / ".stdout", errPath = captureDir / ".stderr";
  std::string command = shellQuote(program);
  for (const std::string &arg : args)
    command += " " + shellQuote(arg);
  command += " >" + shellQuote(outPath.string()) + " 2>" +
             shellQuote(errPath.string()) + " </dev/null";
  int status = std::system(command.c_str());
  RunResult result;
  if (status != -1 && WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  result.out = readFile(outPath);
  result.err = readFile(errPath);
  std::error_code ec;
  fs::remove(outPath, ec);
  fs::remove(errPath, ec);
  return result;
}

inline RunResult runRlopt(const std::vector<std::string> &args,
                          const fs::path &captureDir) {
  return runCommand(RLOPT_BINARY, args, captureDir);
}

} // namespace rlopt::tool::testing

#endif
