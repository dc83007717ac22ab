#include "rlopt/core/Progress.h"

#include <unistd.h>

namespace rlopt {

ProgressBar::ProgressBar(std::string title, size_t total)
    : title(std::move(title)), total(total), terminal(isatty(STDERR_FILENO)),
      start(std::chrono::steady_clock::now()) {}

static std::string formatSeconds(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    snprintf(text, sizeof(text), "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60)
    snprintf(text, sizeof(text), "%ldm%02lds", s / 60, s % 60);
  else
    snprintf(text, sizeof(text), "%lds", s);
  return text;
}

void ProgressBar::update(size_t done, const std::string &label) {
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::string eta =
      done > 0 && done < total
          ? "ETA " + formatSeconds(elapsed / done * (total - done))
          : formatSeconds(elapsed);
  if (!terminal) {
    int decile = total ? static_cast<int>(10 * done / total) : 10;
    if (decile == lastDecile)
      return;
    lastDecile = decile;
    fprintf(stderr, "%s: %zu/%zu  %s\n", title.c_str(), done, total,
            eta.c_str());
    return;
  }
  const int width = 30;
  int filled = total ? static_cast<int>(width * done / total) : width;
  std::string bar(filled, '=');
  if (filled < width)
    bar += '>' + std::string(width - filled - 1, ' ');
  fprintf(stderr, "\r\033[K%s [%s] %zu/%zu  %s  %s", title.c_str(), bar.c_str(),
          done, total, label.c_str(), eta.c_str());
  fflush(stderr);
}

void ProgressBar::finish() {
  if (terminal)
    fprintf(stderr, "\n");
}

} // namespace rlopt
