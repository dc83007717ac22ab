#ifndef RLOPT_CORE_PROGRESS_H
#define RLOPT_CORE_PROGRESS_H

#include <chrono>
#include <cstdio>
#include <string>

namespace rlopt {

/// A one-line progress bar on stderr: `[=====>    ] 12/60  label  ETA 1m20s`.
/// Redrawn in place on a terminal; on a pipe or file it prints a plain line
/// every 10 % so logs stay readable.
class ProgressBar {
public:
  ProgressBar(std::string title, size_t total);
  void update(size_t done, const std::string &label);
  void finish();

private:
  std::string title;
  size_t total;
  bool terminal;
  int lastDecile = -1;
  std::chrono::steady_clock::time_point start;
};

} // namespace rlopt

#endif
