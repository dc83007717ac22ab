#include "rlopt/core/File.h"

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace rlopt {

Status writeFileAtomically(const std::string &path, const std::string &text) {
  std::string temporary = path + ".tmp." + std::to_string(getpid());
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
