// rlopt passes dataset install|list: programs users bring, as benchmark
// specs, installed so that benchmark://NAME/PROGRAM and --suite NAME work.
#include "Args.h"
#include "Commands.h"
#include "EnvOptions.h"

#include "rlopt/passes/Dataset.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rlopt::tool {

int runPassesDatasetInstall(int argc, char **argv) {
  Args args({"name"}, {"replace", "quiet"});
  if (auto error = args.parse(argc, argv, 4))
    return fail("passes dataset install: " + *error);
  if (args.positional().size() != 1)
    return fail("passes dataset install: expected one directory of "
                "benchmark specs");
  passes::DatasetInstall request;
  request.sourceDir = args.positional()[0];
  request.name = args.get("name");
  request.replace = args.has("replace");
  if (!args.has("quiet"))
    request.progress = [](const std::string &program) {
      std::fprintf(stderr, "building %s\n", program.c_str());
    };
  auto installed = passes::installDataset(request, passesSources());
  if (!installed)
    return fail("passes dataset install: " + installed.error().message);
  std::printf("installed %zu programs as dataset %s in %s\n",
              installed->programs.size(), installed->name.c_str(),
              installed->dir.c_str());
  if (!installed->programs.empty())
    std::printf("  benchmark://%s/%s ... (rlopt passes eval --suite %s)\n",
                installed->name.c_str(), installed->programs[0].c_str(),
                installed->name.c_str());
  return ExitOk;
}

int runPassesDatasetList(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, 4))
    return fail("passes dataset list: " + *error);
  passes::BenchmarkLoader loader(passesSources());
  nlohmann::json out = nlohmann::json::object();
  for (const auto &suite : loader.installedDatasets()) {
    auto uris = loader.suiteSplit(suite, "all");
    out[suite] = uris ? nlohmann::json(*uris) : nlohmann::json::array();
  }
  if (args.has("json")) {
    std::cout << out.dump(2) << "\n";
    return ExitOk;
  }
  std::printf("datasets in %s:\n", loader.sources().datasetsDir.c_str());
  if (out.empty())
    std::printf("  none (rlopt passes dataset install DIR adds one)\n");
  for (const auto &[suite, uris] : out.items())
    std::printf("  %-24s %zu programs\n", suite.c_str(), uris.size());
  return ExitOk;
}

} // namespace rlopt::tool
