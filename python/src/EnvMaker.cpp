#include "EnvMaker.h"

#include "rlopt/data/Suite.h"
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/graph/Parser.h"
#include "rlopt/graph/RewriteCheck.h"
#include "rlopt/linalg/LinalgEnv.h"
#include "rlopt/linalg/Measurement.h"
#include "rlopt/measure/Cache.h"
#include "rlopt/measure/Peak.h"
#include "rlopt/passes/Benchmark.h"
#include "rlopt/passes/PassesEnv.h"

#include <filesystem>

namespace rlopt::python {

namespace fs = std::filesystem;

namespace {

const std::string kDataDir = RLOPT_DATA_DIR;

std::string where(EnvKind kind) {
  return std::string("rlopt.make('") + envIdOf(kind) + "')";
}

passes::BenchmarkSources passesSources() {
  passes::BenchmarkSources sources;
  sources.dataDir = kDataDir;
  return sources;
}

graph::GraphEnvConfig bundledGraphs() {
  graph::GraphEnvConfig config;
  config.graphDir = kDataDir + "/hlo";
  return config;
}

/// A suite by name under data/suites, or a suite directory.
std::string linalgSuiteDir(const std::string &suite) {
  fs::path bundled = fs::path(kDataDir) / "suites" / suite;
  std::error_code ec;
  return fs::is_directory(bundled, ec) ? bundled.string() : suite;
}

Result<std::vector<std::string>> linalgBenchmarks(const std::string &suite,
                                                  const std::string &split) {
  auto loaded = data::loadSuite(linalgSuiteDir(suite));
  if (!loaded)
    return loaded.error();
  const auto &splits = data::splitNames();
  if (split != "all" &&
      std::find(splits.begin(), splits.end(), split) == splits.end())
    return makeError("split '" + split +
                     "': expected train, validation, test or all");
  std::vector<std::string> uris;
  for (const auto &benchmark : loaded->benchmarks)
    if (split == "all" || benchmark.split == split)
      uris.push_back("file://" + loaded->path(benchmark));
  return uris;
}

/// Each environment's id and the suite its episodes draw from by default.
struct KindNames {
  EnvKind kind;
  const char *id, *defaultSuite;
};
constexpr KindNames kKinds[] = {{EnvKind::Linalg, "linalg-v0", "ops-small"},
                                {EnvKind::Llvm, "llvm-v0", "rlopt-v0"},
                                {EnvKind::Graph, "graph-v0", "hlo"}};

const KindNames &namesOf(EnvKind kind) {
  for (const KindNames &names : kKinds)
    if (names.kind == kind)
      return names;
  return kKinds[0];
}

const char *defaultSuite(EnvKind kind) { return namesOf(kind).defaultSuite; }

/// Takes `key` out of `options` as a string; `fallback` when absent.
Result<std::string> takeString(nlohmann::json &options, const char *key,
                               const std::string &fallback,
                               const std::string &where) {
  auto it = options.find(key);
  if (it == options.end())
    return fallback;
  if (it->is_null()) {
    options.erase(it);
    return fallback;
  }
  if (!it->is_string())
    return makeError(where + ": '" + key + "' must be a string");
  std::string value = it->get<std::string>();
  options.erase(it);
  return value;
}

Result<std::unique_ptr<Env>>
buildEnv(EnvKind kind, const nlohmann::json &config, const std::string &where) {
  switch (kind) {
  case EnvKind::Linalg: {
    auto parsed = linalg::EnvConfig::fromJson(config, where);
    if (!parsed)
      return parsed.error();
    return std::unique_ptr<Env>(new linalg::LinalgEnv(*parsed));
  }
  case EnvKind::Llvm: {
    auto parsed = passes::PassesEnvConfig::fromJson(config, where);
    if (!parsed)
      return parsed.error();
    auto env = passes::PassesEnv::create(*parsed, passesSources());
    if (!env)
      return env.error();
    return std::unique_ptr<Env>(env.takeValue());
  }
  case EnvKind::Graph: {
    auto parsed = graph::GraphEnvConfig::fromJson(config, where);
    if (!parsed)
      return parsed.error();
    if (parsed->graphDir.empty())
      parsed->graphDir = bundledGraphs().graphDir;
    // As the CLI does: a roofline reward without a roofline times this
    // machine.
    if (parsed->usesRoofline() && parsed->roofline.gflops == 0 &&
        parsed->roofline.gbps == 0) {
      parsed->roofline.gflops = measure::measureFp32Peak().gflops;
      parsed->roofline.gbps = measure::measureTriadBandwidth().gbps;
    }
    auto env = graph::GraphEnv::create(*parsed);
    if (!env)
      return env.error();
    return std::unique_ptr<Env>(env.takeValue());
  }
  }
  return makeError(where + ": unknown environment");
}

} // namespace

Result<EnvKind> parseEnvId(const std::string &id) {
  std::string name = id.rfind("rlopt/", 0) == 0 ? id.substr(6) : id;
  for (const KindNames &names : kKinds)
    if (name == names.id)
      return names.kind;
  return makeError("unknown environment '" + id +
                   "': expected linalg-v0, llvm-v0 or graph-v0");
}

const char *envIdOf(EnvKind kind) { return namesOf(kind).id; }

Result<std::vector<std::string>> listBenchmarks(EnvKind kind,
                                                const std::string &suite,
                                                const std::string &split) {
  std::string chosen = suite.empty() ? defaultSuite(kind) : suite;
  switch (kind) {
  case EnvKind::Linalg:
    return linalgBenchmarks(chosen, split);
  case EnvKind::Llvm: {
    passes::BenchmarkLoader loader(passesSources());
    return loader.suitesSplit(chosen, split);
  }
  case EnvKind::Graph: {
    if (chosen != "hlo")
      return makeError("suite '" + chosen +
                       "': the graph environment has one suite, hlo");
    auto env = graph::GraphEnv::create(bundledGraphs());
    if (!env)
      return env.error();
    return (*env)->splitUris(split);
  }
  }
  return makeError("unknown environment");
}

Result<MadeEnv> makeEnv(EnvKind kind, nlohmann::json options) {
  std::string at = where(kind);
  if (options.is_null())
    options = nlohmann::json::object();
  if (!options.is_object())
    return makeError(at + ": options must be keyword arguments");
  auto benchmark = takeString(options, "benchmark", "", at);
  auto suite = takeString(options, "suite", "", at);
  auto split = takeString(options, "split", "train", at);
  for (const auto *taken : {&benchmark, &suite, &split})
    if (!*taken)
      return taken->error();
  if (!benchmark->empty() && !suite->empty())
    return makeError(at + ": give 'benchmark' or 'suite', not both");

  MadeEnv made{kind, nullptr, {}};
  if (!benchmark->empty()) {
    made.benchmarks = {*benchmark};
  } else {
    auto listed = listBenchmarks(kind, *suite, *split);
    if (!listed)
      return makeError(at + ": " + listed.error().message);
    if (listed->empty())
      return makeError(at + ": suite '" +
                       (suite->empty() ? defaultSuite(kind) : *suite) +
                       "' has no '" + *split + "' programs");
    made.benchmarks = listed.takeValue();
  }
  auto env = buildEnv(kind, options, at);
  if (!env)
    return env.error();
  made.env = env.takeValue();
  return made;
}

Result<nlohmann::json> validateEpisode(EnvKind kind, Env &env) {
  switch (kind) {
  case EnvKind::Llvm: {
    auto &passesEnv = static_cast<passes::PassesEnv &>(env);
    if (passesEnv.benchmarkUri().empty())
      return makeError(std::string("validate: ") + Env::kNoEpisode);
    return passesEnv.validate().toJson();
  }
  case EnvKind::Graph: {
    auto &graphEnv = static_cast<graph::GraphEnv &>(env);
    if (graphEnv.benchmarkUri().empty())
      return makeError(std::string("validate: ") + Env::kNoEpisode);
    auto path = graphEnv.resolve(graphEnv.benchmarkUri());
    if (!path)
      return path.error();
    auto original = graph::parseModuleFile(*path);
    if (!original)
      return original.error();
    return graph::checkRewrite(*original, graphEnv.module()).toJson();
  }
  case EnvKind::Linalg: {
    auto &linalgEnv = static_cast<linalg::LinalgEnv &>(env);
    const linalg::Program *program = linalgEnv.program();
    if (!program)
      return makeError(std::string("validate: ") + Env::kNoEpisode);
    auto cache = measure::Cache::openOrDefault(linalgEnv.config().cachePath);
    auto measured = linalg::measureSchedule(*program, linalgEnv.schedule(),
                                            linalgEnv.config().measure,
                                            cache ? cache->get() : nullptr);
    if (!measured)
      return measured.error();
    nlohmann::json report = measured->toJson();
    report["ok"] = measured->correct;
    report["checked"] = "the scheduled program's outputs against the naive "
                        "program's, on random inputs";
    return report;
  }
  }
  return makeError("unknown environment");
}

namespace {

/// The pass-ordering environments record the same episode.
template <typename PassEnv> nlohmann::json passEpisode(const Env &env) {
  const auto &passEnv = static_cast<const PassEnv &>(env);
  return {{"benchmark", passEnv.benchmarkUri()},
          {"actions", passEnv.actionHistory()},
          {"reward", passEnv.episodeReward()}};
}

} // namespace

nlohmann::json describeEpisode(EnvKind kind, const Env &env) {
  switch (kind) {
  case EnvKind::Llvm:
    return passEpisode<passes::PassesEnv>(env);
  case EnvKind::Graph:
    return passEpisode<graph::GraphEnv>(env);
  case EnvKind::Linalg: {
    const auto &linalgEnv = static_cast<const linalg::LinalgEnv &>(env);
    return {{"schedule",
             linalgEnv.program() ? linalgEnv.schedule().str() : std::string()}};
  }
  }
  return nlohmann::json::object();
}

} // namespace rlopt::python
