#ifndef RLOPT_LINALG_SCRIPTWRITER_H
#define RLOPT_LINALG_SCRIPTWRITER_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rlopt::linalg {

/// Accumulates the body of a transform-dialect named sequence as text; the
/// same text is applied in-process and written by --emit-transform.
class ScriptWriter {
public:
  /// A fresh SSA name ('%' + `base` + a counter).
  std::string fresh(const std::string &base);
  void line(const std::string &text) { lines.push_back(text); }
  /// A line emitted after every other, before the vector lowering: a step
  /// whose ops must wait until the schedule's last step has run.
  void lineAtEnd(const std::string &text) { endLines.push_back(text); }

  /// Emits `tile_using_for` of `handle` (typed `handleType`) by `sizes`
  /// (0 = untiled) and returns the tiled op's handle, named after `base`;
  /// `loops`, if given, gets the loops' handle (`loops#i` is the i-th).
  std::string tileUsingFor(const std::string &handle,
                           const std::vector<int64_t> &sizes,
                           const std::string &base,
                           const std::string &handleType = "!transform.any_op",
                           std::string *loops = nullptr);

  /// `(!transform.any_op, ...)` with `n` entries.
  static std::string anyOps(unsigned n);
  static std::string intList(const std::vector<int64_t> &values);

  /// The complete module with `__transform_main`; `numOps` handles are
  /// split from one match over all Linalg ops. `dropLeadingUnitDims`
  /// strips vectors' leading unit dimensions before contractions lower.
  std::string finish(unsigned numOps, bool lowerVectors,
                     bool dropLeadingUnitDims = false) const;

private:
  std::vector<std::string> lines, endLines;
  std::map<std::string, unsigned> counters;
};

} // namespace rlopt::linalg

#endif
