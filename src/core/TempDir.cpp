// Scratch directories for child processes and the files they exchange.
#include "rlopt/core/TempDir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace rlopt {

Result<TempDir> TempDir::create(const std::string &prefix) {
  if (prefix.empty() || prefix.find('/') != std::string::npos)
    return makeError("temporary directory prefix '" + prefix +
                     "': expected a name without '/'");
  const char *base = std::getenv("TMPDIR");
  std::string parent = base && *base ? base : "/tmp";
  std::string pattern = parent + "/" + prefix + "-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    return makeError("cannot create a temporary directory in " + parent + ": " +
                     std::strerror(errno) + " (check TMPDIR)");
  return TempDir(std::string(buffer.data()));
}

TempDir::TempDir(TempDir &&other) noexcept : dir(std::move(other.dir)) {
  other.dir.clear();
}

TempDir &TempDir::operator=(TempDir &&other) noexcept {
  if (this != &other) {
    remove();
    dir = std::move(other.dir);
    other.dir.clear();
  }
  return *this;
}

TempDir::~TempDir() { remove(); }

void TempDir::remove() {
  if (dir.empty())
    return;
  // Best effort: a destructor has nobody to report to, and a leftover
  // scratch directory is harmless.
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  dir.clear();
}

} // namespace rlopt
