#include "rlopt/core/File.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

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
  for (const auto &entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    char *end = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid <= 0 || *end != '\0')
      continue;
    bool gone = kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
    if (gone)
      fs::remove(entry.path(), ec);
  }
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
