#include "rlopt/core/File.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace rlopt {

std::string temporaryPathFor(const std::string &path) {
  return path + ".tmp." + std::to_string(getpid());
}

void removeLeftoverTemporaries(const std::string &path) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  std::vector<fs::path> leftovers;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    char *rest = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &rest, 10);
    if (pid <= 0 || pid > INT_MAX || *rest != '\0')
      continue;
    // This process has written nothing yet: a file with its pid is from an
    // earlier process that had the same pid.
    bool gone = pid == getpid() ||
                (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
    if (gone)
      leftovers.push_back(it->path());
  }
  for (const fs::path &path : leftovers)
    fs::remove(path, ec);
}

Status writeFileAtomically(const std::string &path, const std::string &text) {
  std::string temporary = temporaryPathFor(path);
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out)
      return makeError(path + ": cannot write (directory missing or not "
                              "writable)");
    out << text;
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return makeError(path + ": write failed");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return makeError(path + ": cannot replace the file");
  }
  return Status::success();
}

} // namespace rlopt
