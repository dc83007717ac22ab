#ifndef RLOPT_MEASURE_CACHE_H
#define RLOPT_MEASURE_CACHE_H

#include "rlopt/core/Result.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

struct sqlite3;

namespace rlopt::measure {

/// Key of one measurement: what was run, where, by which rlopt.
struct CacheKey {
  std::string programHash; ///< hash of the lowered baseline + candidate
  std::string machine;     ///< MachineInfo::fingerprint
  std::string version = RLOPT_VERSION;
};

/// The SQLite measurement cache. Every sample is stored (JSON payload), so
/// noise stays visible; lookups return the newest row whose checksum holds.
/// Safe with several processes writing at once (WAL, busy timeout).
class Cache {
public:
  /// Opens or creates the database; the directory must exist.
  static Result<std::unique_ptr<Cache>> open(const std::string &path);
  /// `$XDG_CACHE_HOME/rlopt/measurements.sqlite` or `~/.cache/rlopt/...`;
  /// creates the directory.
  static std::string defaultPath();
  /// open(path), or open(defaultPath()) when `path` is empty.
  static Result<std::unique_ptr<Cache>> openOrDefault(const std::string &path) {
    return open(path.empty() ? defaultPath() : path);
  }
  ~Cache();

  Status store(const CacheKey &key, const std::string &payloadJson);
  /// The newest payload stored under `key` whose checksum matches; rows that
  /// fail it are skipped with a warning.
  std::optional<std::string> lookup(const CacheKey &key);
  /// Warns (once per cache) that a row was not used, so it is re-measured.
  void reportRejectedRow(const std::string &why);
  /// Number of samples stored under `key`.
  int count(const CacheKey &key);
  /// Calls `visit` with every sample whose checksum holds, oldest first.
  Status forEachSample(
      const std::function<void(const CacheKey &, const std::string &)> &visit);

  /// The program texts samples name by hash (payload key "source"), so that
  /// a learned cost model can recompute features of what was measured.
  Status storeSource(const std::string &hash, const std::string &text);
  std::optional<std::string> source(const std::string &hash);

private:
  Cache(sqlite3 *db, std::string path) : db(db), path(std::move(path)) {}
  sqlite3 *db;
  std::string path;
  bool warned = false;
};

} // namespace rlopt::measure

#endif
