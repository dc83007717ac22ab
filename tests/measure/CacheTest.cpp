#include "rlopt/measure/Cache.h"
#include "rlopt/core/Worker.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

using namespace rlopt;
using namespace rlopt::measure;
namespace fs = std::filesystem;

namespace {

class CacheTest : public testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (fs::path(testing::TempDir()) / "rlopt-cache-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
    path = (dir / "measurements.sqlite").string();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  std::unique_ptr<Cache> openOrDie() {
    Result<std::unique_ptr<Cache>> cache = Cache::open(path);
    if (!cache.ok()) {
      ADD_FAILURE() << cache.error().message;
      return nullptr;
    }
    return cache.takeValue();
  }

  fs::path dir;
  std::string path;
};

CacheKey keyOf(std::string hash, std::string machine = "cpu|avx2|threads=1") {
  CacheKey key;
  key.programHash = std::move(hash);
  key.machine = std::move(machine);
  return key;
}

TEST_F(CacheTest, StoreThenLookupReturnsTheNewest) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  CacheKey key = keyOf("abc");
  EXPECT_FALSE(cache->lookup(key).has_value());
  EXPECT_EQ(cache->count(key), 0);

  ASSERT_TRUE(cache->store(key, R"({"speedup": 1.5})").ok());
  ASSERT_TRUE(cache->store(key, R"({"speedup": 1.7})").ok());
  std::optional<std::string> found = cache->lookup(key);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, R"({"speedup": 1.7})");
  EXPECT_EQ(cache->count(key), 2);
}

TEST_F(CacheTest, ForEachSampleVisitsEveryIntactRowOldestFirst) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyOf("a"), R"({"speedup": 1})").ok());
  ASSERT_TRUE(cache->store(keyOf("b"), R"({"speedup": 2})").ok());
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "INSERT INTO samples(program_hash, machine, version, "
                         "payload, checksum) VALUES ('c', 'm', 'v', '{}', "
                         "'forged')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  std::vector<std::string> seen;
  ASSERT_TRUE(
      cache
          ->forEachSample([&](const CacheKey &key, const std::string &) {
            seen.push_back(key.programHash);
          })
          .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}

TEST_F(CacheTest, SourcesAreStoredOncePerHash) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->source("h").has_value());
  ASSERT_TRUE(cache->storeSource("h", "func.func @f()").ok());
  ASSERT_TRUE(cache->storeSource("h", "something else").ok());
  EXPECT_EQ(cache->source("h").value_or(""), "func.func @f()");
}

TEST_F(CacheTest, KeyPartsMustAllMatch) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  CacheKey key = keyOf("abc");
  ASSERT_TRUE(cache->store(key, "{}").ok());

  CacheKey otherMachine = keyOf("abc", "cpu|avx512f|threads=1");
  CacheKey otherVersion = key;
  otherVersion.version = "0.0.0-other";
  CacheKey otherProgram = keyOf("abd");
  EXPECT_FALSE(cache->lookup(otherMachine).has_value());
  EXPECT_FALSE(cache->lookup(otherVersion).has_value());
  EXPECT_FALSE(cache->lookup(otherProgram).has_value());
  EXPECT_EQ(cache->count(otherMachine), 0);
  EXPECT_EQ(cache->count(key), 1);
  EXPECT_EQ(key.version, RLOPT_VERSION);
}

TEST_F(CacheTest, ValuesAreNotInterpretedAsSql) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  CacheKey key = keyOf("x'); DROP TABLE samples; --");
  std::string payload = std::string("quote ' and nul \0 inside", 24);
  ASSERT_TRUE(cache->store(key, payload).ok());
  std::optional<std::string> found = cache->lookup(key);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, payload);
}

TEST_F(CacheTest, SamplesPersistAcrossOpens) {
  {
    std::unique_ptr<Cache> cache = openOrDie();
    ASSERT_TRUE(cache);
    ASSERT_TRUE(cache->store(keyOf("abc"), "first").ok());
  }
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->lookup(keyOf("abc")).value_or(""), "first");
}

TEST_F(CacheTest, MissingDirectoryIsAClearError) {
  std::string missing = (dir / "no" / "such" / "m.sqlite").string();
  Result<std::unique_ptr<Cache>> cache = Cache::open(missing);
  ASSERT_FALSE(cache.ok());
  EXPECT_EQ(cache.error().message,
            "cannot open measurement cache " + missing + ": directory " +
                (dir / "no" / "such").string() + " does not exist");
}

TEST_F(CacheTest, GarbageFileIsAClearError) {
  std::ofstream(path) << std::string(4096, 'g');
  Result<std::unique_ptr<Cache>> cache = Cache::open(path);
  ASSERT_FALSE(cache.ok());
  EXPECT_EQ(cache.error().message, "cannot open measurement cache " + path +
                                       ": file is not a database");
}

TEST_F(CacheTest, ConcurrentWritersAllLand) {
  {
    // Create the database up front, then let both writers race on it.
    std::unique_ptr<Cache> cache = openOrDie();
    ASSERT_TRUE(cache);
  }
  CacheKey key = keyOf("shared");
  auto writer = [&](WorkerChannel &channel) {
    Result<std::unique_ptr<Cache>> cache = Cache::open(path);
    if (!cache.ok()) {
      channel.send(cache.error().message);
      return 1;
    }
    for (int i = 0; i < 50; ++i) {
      Status stored = (*cache)->store(key, std::to_string(i));
      if (!stored.ok()) {
        channel.send(stored.error().message);
        return 1;
      }
    }
    channel.send("ok");
    return 0;
  };
  WorkerLimits limits;
  limits.timeoutSeconds = 60;
  Result<Worker> first = Worker::spawn(writer, limits);
  Result<Worker> second = Worker::spawn(writer, limits);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(second.ok()) << second.error().message;
  for (Result<Worker> *worker : {&first, &second}) {
    Result<std::string> reply = (*worker)->receive();
    ASSERT_TRUE(reply.ok()) << reply.error().message;
    EXPECT_EQ(*reply, "ok");
    (*worker)->finish();
  }

  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->count(key), 100);
}

TEST(CacheDefaultPathTest, FollowsXdgCacheHomeAndCreatesTheDirectory) {
  std::string pattern =
      (fs::path(testing::TempDir()) / "rlopt-xdg-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const char *previous = std::getenv("XDG_CACHE_HOME");
  std::optional<std::string> saved;
  if (previous)
    saved = previous;
  setenv("XDG_CACHE_HOME", pattern.c_str(), 1);

  std::string path = Cache::defaultPath();

  if (saved)
    setenv("XDG_CACHE_HOME", saved->c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(path, pattern + "/rlopt/measurements.sqlite");
  EXPECT_TRUE(fs::is_directory(pattern + "/rlopt"));
  fs::remove_all(pattern);
}

} // namespace

namespace {

/// Runs SQL on the cache file behind the Cache's back, as a user editing it
/// by hand or a damaged disk would.
void tamper(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char *message = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  std::string error = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << error;
}

TEST_F(CacheTest, RowsEditedBehindTheCachesBackAreNotAnswers) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  CacheKey key = keyOf("abc");
  ASSERT_TRUE(cache->store(key, R"({"speedup": 2})").ok());
  tamper(path, R"(UPDATE samples SET payload = '{"speedup": 1000000}')");
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache->lookup(key).has_value());
  std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("warning: measurement cache " + path +
                         ": ignoring a row (its checksum does not match)"),
            std::string::npos)
      << warning;

  // A measurement stored again is found; the edited row stays ignored.
  ASSERT_TRUE(cache->store(key, R"({"speedup": 3})").ok());
  EXPECT_EQ(cache->lookup(key).value_or(""), R"({"speedup": 3})");
}

TEST_F(CacheTest, ForgedRowIsSkippedForAnOlderGenuineOne) {
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  CacheKey key = keyOf("abc");
  ASSERT_TRUE(cache->store(key, "genuine").ok());
  tamper(path, "INSERT INTO samples(program_hash, machine, version, payload) "
               "SELECT program_hash, machine, version, 'forged' FROM samples");
  testing::internal::CaptureStderr();
  EXPECT_EQ(cache->lookup(key).value_or(""), "genuine");
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(cache->count(key), 2) << "nothing is deleted";
}

TEST_F(CacheTest, DatabaseFromBeforeChecksumsOpensAndIsMeasuredAgain) {
  tamper(path, "CREATE TABLE samples(id INTEGER PRIMARY KEY, program_hash "
               "TEXT, machine TEXT, version TEXT, payload TEXT, created_at "
               "REAL); INSERT INTO samples(program_hash, machine, version, "
               "payload) VALUES ('abc', 'cpu|avx2|threads=1', '" RLOPT_VERSION
               "', 'old')");
  std::unique_ptr<Cache> cache = openOrDie();
  ASSERT_TRUE(cache);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache->lookup(keyOf("abc")).has_value());
  testing::internal::GetCapturedStderr();
  ASSERT_TRUE(cache->store(keyOf("abc"), "new").ok());
  EXPECT_EQ(cache->lookup(keyOf("abc")).value_or(""), "new");
}

} // namespace
