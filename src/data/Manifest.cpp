// Suites on disk: DIR/manifest.json plus one DIR/NAME.mlir per benchmark.
#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/data/Suite.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>
#include <unistd.h>

namespace rlopt::data {

namespace fs = std::filesystem;

namespace {

constexpr int kManifestFormat = 1;
const char *kManifest = "manifest.json";

/// Names become file names: letters, digits, '_', '-' and '.', not
/// starting with '.'.
bool isValidName(const std::string &name) {
  if (name.empty() || name.front() == '.' || name.size() > 200)
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' &&
        c != '.')
      return false;
  return true;
}

/// Integral counts are written as integers.
nlohmann::json number(double value) {
  if (std::fabs(value) < 9e15 && value == std::floor(value))
    return static_cast<int64_t>(value);
  return value;
}

/// `{"key": value, ...}` on one line, keys in the given order.
std::string orderedObject(
    const std::vector<std::pair<std::string, nlohmann::json>> &fields) {
  std::string text = "{";
  for (size_t i = 0; i < fields.size(); ++i)
    text += (i ? ", " : "") + nlohmann::json(fields[i].first).dump() + ": " +
            fields[i].second.dump();
  return text + "}";
}

/// One line per benchmark, so that the manifest reads (and diffs) as a
/// table.
std::string entryLine(const BenchmarkSpec &b) {
  return orderedObject({{"name", b.name},
                        {"file", b.name + ".mlir"},
                        {"op_class", b.opClass},
                        {"split", b.split},
                        {"shape_key", b.shapeKey},
                        {"source", b.source},
                        {"flops", number(b.flops)},
                        {"bytes", number(b.bytes)},
                        {"estimated_ms", std::round(b.estimatedMs * 10) / 10},
                        {"shapes", b.shapes}});
}

/// The names an existing manifest lists; empty if it cannot be read.
std::vector<std::string> listedNames(const fs::path &manifest) {
  std::vector<std::string> names;
  auto json = readJsonFile(manifest.string());
  if (!json || !json->is_object() || !json->contains("benchmarks") ||
      !(*json)["benchmarks"].is_array())
    return names;
  for (const auto &entry : (*json)["benchmarks"])
    if (entry.is_object() && entry.contains("name") &&
        entry["name"].is_string())
      names.push_back(entry["name"].get<std::string>());
  return names;
}

} // namespace

const std::vector<std::string> &splitNames() {
  static const std::vector<std::string> names = {"train", "validation", "test"};
  return names;
}

std::string Suite::path(const BenchmarkSpec &benchmark) const {
  return (fs::path(dir) / (benchmark.name + ".mlir")).string();
}

Status writeSuite(const std::vector<BenchmarkSpec> &benchmarks,
                  const std::string &dir, const nlohmann::json &info) {
  std::set<std::string> names;
  for (const BenchmarkSpec &b : benchmarks) {
    if (!isValidName(b.name))
      return makeError(dir + ": benchmark name '" + b.name +
                       "' is not a valid file name");
    if (!names.insert(b.name).second)
      return makeError(dir + ": benchmark name '" + b.name + "' appears twice");
  }

  fs::path root(dir);
  fs::path manifestPath = root / kManifest;
  std::error_code ec;
  std::vector<std::string> oldNames;
  bool created = false;
  if (fs::exists(root, ec)) {
    if (!fs::is_directory(root, ec))
      return makeError(dir + ": exists and is not a directory");
    bool empty = fs::is_empty(root, ec);
    if (ec)
      return makeError(dir + ": cannot read the directory: " + ec.message());
    if (!empty && !fs::exists(manifestPath, ec))
      return makeError(dir + ": not empty and holds no " + kManifest +
                       "; refusing to write a suite into it");
    oldNames = listedNames(manifestPath);
  } else if (!fs::create_directories(root, ec) || ec) {
    return makeError(dir + ": cannot create the directory" +
                     (ec ? ": " + ec.message() : ""));
  } else {
    created = true;
  }

  for (const BenchmarkSpec &b : benchmarks) {
    if (Status s =
            writeFileAtomically((root / (b.name + ".mlir")).string(), b.mlir);
        !s) {
      // A directory this call made is removed again, so that a retry does
      // not find a non-empty directory without a manifest.
      if (created)
        fs::remove_all(root, ec);
      return s;
    }
  }

  nlohmann::json header = info.is_object() ? info : nlohmann::json::object();
  header["format"] = kManifestFormat;
  header["count"] = benchmarks.size();
  nlohmann::json splits = nlohmann::json::object();
  for (const std::string &split : splitNames())
    splits[split] = 0;
  for (const BenchmarkSpec &b : benchmarks)
    if (splits.contains(b.split))
      splits[b.split] = splits[b.split].get<int>() + 1;
  header["splits"] = splits;
  header.erase("benchmarks");
  std::string text = "{\n";
  for (const auto &[key, value] : header.items())
    text += "  " + nlohmann::json(key).dump() + ": " + value.dump() + ",\n";
  text += "  \"benchmarks\": [";
  for (size_t i = 0; i < benchmarks.size(); ++i)
    text += std::string(i ? "," : "") + "\n    " + entryLine(benchmarks[i]);
  text += benchmarks.empty() ? "]\n}\n" : "\n  ]\n}\n";
  if (Status s = writeFileAtomically(manifestPath.string(), text); !s) {
    if (created)
      fs::remove_all(root, ec);
    return s;
  }

  // Programs of the previous suite that this one no longer has.
  for (const std::string &old : oldNames)
    if (isValidName(old) && !names.count(old))
      fs::remove(root / (old + ".mlir"), ec);
  return Status::success();
}

Result<Suite> loadSuite(const std::string &dir) {
  fs::path root(dir);
  std::error_code ec;
  if (!fs::exists(root, ec))
    return makeError(dir + ": no such directory");
  if (!fs::is_directory(root, ec))
    return makeError(dir + ": not a directory");
  fs::path manifestPath = root / kManifest;
  std::string where = manifestPath.string();
  if (!fs::exists(manifestPath, ec))
    return makeError(dir + ": no " + kManifest + " (not a suite directory)");
  auto json = readJsonFile(where);
  if (!json)
    return json.error();
  if (!json->is_object() || !json->contains("benchmarks") ||
      !(*json)["benchmarks"].is_array())
    return makeError(where + ": expected an object with a \"benchmarks\" "
                             "array");

  Suite suite;
  suite.dir = dir;
  std::set<std::string> names;
  const nlohmann::json &entries = (*json)["benchmarks"];
  for (size_t i = 0; i < entries.size(); ++i) {
    const nlohmann::json &e = entries[i];
    std::string at = where + ": benchmarks[" + std::to_string(i) + "]";
    if (!e.is_object())
      return makeError(at + ": not an object");
    BenchmarkSpec b;
    for (auto [key, out] :
         {std::pair<const char *, std::string *>{"name", &b.name},
          {"op_class", &b.opClass},
          {"split", &b.split}}) {
      if (!e.contains(key) || !e[key].is_string())
        return makeError(at + ": missing string \"" + key + "\"");
      *out = e[key].get<std::string>();
    }
    at = where + ": benchmark '" + b.name + "'";
    if (!isValidName(b.name))
      return makeError(at + ": not a valid file name");
    if (!names.insert(b.name).second)
      return makeError(at + ": listed twice");
    if (std::find(splitNames().begin(), splitNames().end(), b.split) ==
        splitNames().end())
      return makeError(at + ": unknown split '" + b.split +
                       "' (expected train, validation or test)");
    for (auto [key, out] :
         {std::pair<const char *, std::string *>{"shape_key", &b.shapeKey},
          {"source", &b.source}}) {
      if (Status s = readField(e, key, *out, at); !s)
        return s.error();
    }
    for (auto [key, out] :
         {std::pair<const char *, double *>{"flops", &b.flops},
          {"bytes", &b.bytes},
          {"estimated_ms", &b.estimatedMs}}) {
      if (Status s = readField(e, key, *out, at); !s)
        return s.error();
    }
    if (e.contains("shapes"))
      b.shapes = e["shapes"];
    fs::path program = root / (b.name + ".mlir");
    if (!fs::is_regular_file(program, ec))
      return makeError(at + ": " + program.string() + " is missing");
    suite.benchmarks.push_back(std::move(b));
  }
  suite.info = *json;
  suite.info.erase("benchmarks");
  return suite;
}

} // namespace rlopt::data
