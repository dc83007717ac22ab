//===- Cache.cpp - SQLite measurement cache -------------------------------===//
//
// Every sample is a row; nothing is overwritten, so the noise of repeated
// measurements stays visible. WAL mode and a busy timeout let several trainer
// or worker processes write at once. Each row carries a checksum of its key
// and payload: a row edited by hand or damaged on disk is not an answer.
//
//===----------------------------------------------------------------------===//

#include "rlopt/measure/Cache.h"

#include <sqlite3.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace rlopt::measure {

namespace {

namespace fs = std::filesystem;

constexpr int busyTimeoutMs = 10000;

const char *const schema = R"sql(
CREATE TABLE IF NOT EXISTS samples(
  id INTEGER PRIMARY KEY,
  program_hash TEXT,
  machine TEXT,
  version TEXT,
  payload TEXT,
  created_at REAL,
  checksum TEXT);
CREATE INDEX IF NOT EXISTS samples_key
  ON samples(program_hash, machine, version);
CREATE TABLE IF NOT EXISTS sources(
  hash TEXT PRIMARY KEY,
  text TEXT);
)sql";

/// A prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
      stmt = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt); }
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  bool ok() const { return stmt != nullptr; }
  sqlite3_stmt *get() const { return stmt; }

  void bindKey(const CacheKey &key) {
    bindText(1, key.programHash);
    bindText(2, key.machine);
    bindText(3, key.version);
  }
  void bindText(int index, const std::string &text) {
    sqlite3_bind_text(stmt, index, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
  }
  std::string columnText(int index) const {
    const unsigned char *text = sqlite3_column_text(stmt, index);
    int size = sqlite3_column_bytes(stmt, index);
    return text ? std::string(reinterpret_cast<const char *>(text), size)
                : std::string();
  }

  /// sqlite3_step() that also retries the rare SQLITE_BUSY the busy handler
  /// does not cover (e.g. while another connection recovers the WAL).
  int step() {
    int rc = sqlite3_step(stmt);
    for (int attempt = 0;
         (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && attempt < 50;
         ++attempt) {
      sqlite3_reset(stmt);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      rc = sqlite3_step(stmt);
    }
    return rc;
  }

private:
  sqlite3_stmt *stmt = nullptr;
};

/// Runs SQL without results, retrying on the busy cases the handler skips.
int execute(sqlite3 *db, const char *sql) {
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  for (int attempt = 0; rc == SQLITE_BUSY && attempt < 50; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  }
  return rc;
}

/// Databases written before rows had checksums gain the column; their rows
/// have none and are measured again.
int addChecksumColumn(sqlite3 *db) {
  Statement columns(db, "SELECT 1 FROM pragma_table_info('samples') "
                        "WHERE name = 'checksum'");
  if (!columns.ok())
    return SQLITE_ERROR;
  int rc = columns.step();
  if (rc == SQLITE_ROW)
    return SQLITE_OK;
  if (rc != SQLITE_DONE)
    return rc;
  return execute(db, "ALTER TABLE samples ADD COLUMN checksum TEXT");
}

/// FNV-1a over the key and the payload: detects a row changed by anything
/// but this code. Not a signature: it guards against damage and careless
/// edits, while plausibility checks of the payload guard the rest.
std::string checksumOf(const CacheKey &key, const std::string &payload) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const std::string *part :
       {&key.programHash, &key.machine, &key.version, &payload}) {
    for (unsigned char c : *part)
      hash = (hash ^ c) * 0x100000001b3ull;
    hash = (hash ^ 0xff) * 0x100000001b3ull; // separator
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, hash);
  return text;
}

double unixSeconds() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace

Result<std::unique_ptr<Cache>> Cache::open(const std::string &path) {
  std::string prefix = "cannot open measurement cache " + path + ": ";
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty())
    dir = ".";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return makeError(prefix + "directory " + dir.string() + " does not exist");

  sqlite3 *db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return makeError(prefix + reason);
  }
  // From here on the Cache owns (and closes) the connection.
  std::unique_ptr<Cache> cache(new Cache(db, path));
  sqlite3_busy_timeout(db, busyTimeoutMs);

  // SQLite reads the file lazily: a file that is not a database is reported
  // by the first statement, here.
  if (execute(db, "PRAGMA journal_mode=WAL") != SQLITE_OK ||
      execute(db, schema) != SQLITE_OK || addChecksumColumn(db) != SQLITE_OK)
    return makeError(prefix + sqlite3_errmsg(db));
  return cache;
}

std::string Cache::defaultPath() {
  fs::path base;
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  // The XDG spec says relative paths are invalid and must be ignored.
  if (xdg && xdg[0] == '/')
    base = xdg;
  else if (home && home[0])
    base = fs::path(home) / ".cache";
  else
    base = fs::path(".cache");
  fs::path dir = base / "rlopt";
  std::error_code ec;
  // A failure surfaces, with the path, when open() finds no directory.
  fs::create_directories(dir, ec);
  return (dir / "measurements.sqlite").string();
}

Cache::~Cache() { sqlite3_close(db); }

Status Cache::store(const CacheKey &key, const std::string &payloadJson) {
  Statement insert(db, "INSERT INTO samples(program_hash, machine, version, "
                       "payload, created_at, checksum) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  if (!insert.ok())
    return makeError(std::string("cannot store measurement: ") +
                     sqlite3_errmsg(db));
  insert.bindKey(key);
  insert.bindText(4, payloadJson);
  sqlite3_bind_double(insert.get(), 5, unixSeconds());
  insert.bindText(6, checksumOf(key, payloadJson));
  if (insert.step() != SQLITE_DONE)
    return makeError(std::string("cannot store measurement: ") +
                     sqlite3_errmsg(db));
  return Status::success();
}

std::optional<std::string> Cache::lookup(const CacheKey &key) {
  // Newest by insertion order: ids only grow, while wall clocks may step.
  Statement select(db, "SELECT payload, checksum FROM samples "
                       "WHERE program_hash = ?1 AND machine = ?2 AND "
                       "version = ?3 ORDER BY id DESC");
  if (!select.ok())
    return std::nullopt;
  select.bindKey(key);
  while (select.step() == SQLITE_ROW) {
    std::string payload = select.columnText(0);
    if (select.columnText(1) == checksumOf(key, payload))
      return payload;
    reportRejectedRow("its checksum does not match");
  }
  return std::nullopt;
}

Status Cache::forEachSample(
    const std::function<void(const CacheKey &, const std::string &)> &visit) {
  Statement select(db, "SELECT program_hash, machine, version, payload, "
                       "checksum FROM samples ORDER BY id");
  if (!select.ok())
    return makeError(std::string("cannot read measurement cache: ") +
                     sqlite3_errmsg(db));
  int rc;
  while ((rc = select.step()) == SQLITE_ROW) {
    CacheKey key{select.columnText(0), select.columnText(1),
                 select.columnText(2)};
    std::string payload = select.columnText(3);
    if (select.columnText(4) == checksumOf(key, payload))
      visit(key, payload);
  }
  if (rc != SQLITE_DONE)
    return makeError(std::string("cannot read measurement cache: ") +
                     sqlite3_errmsg(db));
  return Status::success();
}

Status Cache::storeSource(const std::string &hash, const std::string &text) {
  Statement insert(db, "INSERT OR IGNORE INTO sources(hash, text) "
                       "VALUES (?1, ?2)");
  if (!insert.ok() || (insert.bindText(1, hash), insert.bindText(2, text),
                       insert.step() != SQLITE_DONE))
    return makeError(std::string("cannot store program source: ") +
                     sqlite3_errmsg(db));
  return Status::success();
}

std::optional<std::string> Cache::source(const std::string &hash) {
  Statement select(db, "SELECT text FROM sources WHERE hash = ?1");
  if (!select.ok())
    return std::nullopt;
  select.bindText(1, hash);
  if (select.step() != SQLITE_ROW)
    return std::nullopt;
  return select.columnText(0);
}

void Cache::reportRejectedRow(const std::string &why) {
  // Once per cache: a damaged database would otherwise flood a training log.
  if (warned)
    return;
  warned = true;
  std::fprintf(stderr,
               "warning: measurement cache %s: ignoring a row (%s); "
               "measuring again\n",
               path.c_str(), why.c_str());
}

/// -1 when the database cannot be read, so that an error is not a miss.
int Cache::count(const CacheKey &key) {
  Statement select(db, "SELECT COUNT(*) FROM samples WHERE program_hash = ?1 "
                       "AND machine = ?2 AND version = ?3");
  if (!select.ok())
    return -1;
  select.bindKey(key);
  if (select.step() != SQLITE_ROW)
    return -1;
  return sqlite3_column_int(select.get(), 0);
}

} // namespace rlopt::measure
