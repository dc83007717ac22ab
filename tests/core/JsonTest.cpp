// Config files as users get them wrong: every mistake is a one-line error
// naming the file and the key, never an abort.
#include "rlopt/core/Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace rlopt;
namespace fs = std::filesystem;

namespace {

std::string errorOf(const std::string &text) {
  auto json = parseJson(text, "config.json");
  return json ? "" : json.error().message;
}

template <typename T> std::string fieldError(const std::string &text) {
  auto json = parseJson(text, "config.json");
  if (!json)
    return json.error().message;
  T value{};
  Status status = readField(*json, "key", value, "config.json");
  return status ? "" : status.error().message;
}

TEST(JsonTest, NumberTooLargeForADoubleIsAnError) {
  EXPECT_EQ(errorOf(R"({"learning_rate": 1e400})"),
            "config.json: a number is out of range");
}

TEST(JsonTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_EQ(errorOf(deep + std::string(100000, ']')),
            "config.json: nested deeper than 256 levels");
  // Brackets inside strings are text, not nesting.
  EXPECT_EQ(errorOf("{\"name\": \"" + std::string(1000, '[') + "\"}"), "");
}

TEST(JsonTest, SyntaxErrorNamesTheByte) {
  EXPECT_EQ(errorOf("{\"a\": }"),
            "config.json: parse error at byte 7: not valid JSON");
}

TEST(JsonTest, IntegerFieldsRefuseSilentConversions) {
  EXPECT_EQ(fieldError<int>(R"({"key": 12})"), "");
  EXPECT_EQ(fieldError<int>(R"({"key": true})"),
            "config.json: key: wrong type (got true)");
  EXPECT_EQ(fieldError<int>(R"({"key": 4294967297})"),
            "config.json: key: wrong type (got 4294967297)");
  EXPECT_EQ(fieldError<int>(R"({"key": 2.5})"),
            "config.json: key: wrong type (got 2.5)");
  EXPECT_EQ(fieldError<uint64_t>(R"({"key": -1})"),
            "config.json: key: wrong type (got -1)");
  EXPECT_EQ(fieldError<int64_t>(R"({"key": -1})"), "");
}

TEST(JsonTest, OtherFieldsKeepTheirTypes) {
  EXPECT_EQ(fieldError<double>(R"({"key": 3})"), "");
  EXPECT_EQ(fieldError<double>(R"({"key": "0.1"})"),
            "config.json: key: wrong type (got \"0.1\")");
  EXPECT_EQ(fieldError<bool>(R"({"key": 1})"),
            "config.json: key: wrong type (got 1)");
  EXPECT_EQ(fieldError<std::string>(R"({"key": ["a"]})"),
            "config.json: key: wrong type (got [\"a\"])");
  EXPECT_EQ(fieldError<std::vector<int>>(R"({"key": [0, 7, 14]})"), "");
  EXPECT_EQ(fieldError<std::vector<int>>(R"({"key": [0, true]})"),
            "config.json: key: wrong type (got [0,true])");
  EXPECT_EQ(fieldError<std::vector<int>>(R"({"key": {"a": 1}})"),
            "config.json: key: wrong type (got {\"a\":1})");
}

TEST(JsonTest, RecordFieldsReadNullAsNaNOrAbsent) {
  auto json = parseJson(R"({"ms": null, "name": null, "n": "3"})", "r.json");
  ASSERT_TRUE(json);
  double ms = 0;
  EXPECT_TRUE(readRecordField(*json, "ms", ms, "r.json", true));
  EXPECT_TRUE(std::isnan(ms));
  std::string name = "kept";
  EXPECT_TRUE(readRecordField(*json, "name", name, "r.json"));
  EXPECT_EQ(name, "kept");
  Status missing = readRecordField(*json, "name", name, "r.json", true);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "r.json: \"name\" is missing");
  int n = 0;
  Status wrong = readRecordField(*json, "n", n, "r.json");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message, "r.json: \"n\" must be an integer");
}

TEST(JsonTest, ReadsOnlyRegularFiles) {
  fs::path dir = fs::temp_directory_path() /
                 ("rlopt-json-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path fifo = dir / "config.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto json = readJsonFile(fifo.string());
  fs::remove_all(dir);
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().message,
            fifo.string() + ": cannot read file: a FIFO, not a regular file");
}

} // namespace

namespace {

TEST(JsonTest, ResumedRunKeepsTheRecordsUpToItsCheckpoint) {
  fs::path dir = fs::temp_directory_path() /
                 ("rlopt-records-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "metrics.jsonl").string();
  // Iteration 3 was written after the checkpoint; the last line was cut
  // short by a kill; one line was edited by hand.
  std::ofstream(path) << "{\"iteration\": 1, \"r\": 0.5}\n"
                         "{\"iteration\": \"2\"}\n"
                         "{\"iteration\": 2, \"r\": 0.7}\n"
                         "{\"iteration\": 3, \"r\": 0.9}\n"
                         "{\"iteration\": 4, \"r\"";
  auto last = keepRecordsUpToIteration(path, 2);
  std::ifstream in(path);
  std::string kept((std::istreambuf_iterator<char>(in)), {});
  fs::remove_all(dir);
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_EQ((*last)["r"], 0.7);
  EXPECT_EQ(kept, "{\"iteration\": 1, \"r\": 0.5}\n"
                  "{\"iteration\": 2, \"r\": 0.7}\n");
}

} // namespace

TEST(JsonTest, AByteOrderMarkIsSkippedNotMistakenForAnEmptyConfig) {
  auto json = parseJson("\xef\xbb\xbf{\"iterations\": 2}", "bom.json");
  ASSERT_TRUE(json.ok()) << json.error().message;
  EXPECT_EQ((*json)["iterations"], 2);
}
