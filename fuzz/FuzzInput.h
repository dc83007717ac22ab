// What the fuzz targets share: the input as text, and as a file for the
// loaders that read one.
#ifndef RLOPT_FUZZ_FUZZINPUT_H
#define RLOPT_FUZZ_FUZZINPUT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace rlopt::fuzz {

inline std::string asText(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

/// Writes the input to a file of this process's own and returns its path;
/// the file is rewritten for every input and removed when the process
/// exits normally (a crash leaves it beside the crash's artifact).
inline std::string asFile(const uint8_t *data, size_t size,
                          const char *extension) {
  struct OwnFile {
    std::string path;
    ~OwnFile() { std::remove(path.c_str()); }
  };
  static const OwnFile file{"/tmp/rlopt-fuzz-" + std::to_string(getpid()) +
                            extension};
  if (FILE *out = std::fopen(file.path.c_str(), "wb")) {
    std::fwrite(data, 1, size, out);
    std::fclose(out);
  }
  return file.path;
}

} // namespace rlopt::fuzz

#endif
