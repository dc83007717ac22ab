// rlopt costmodel train --db DB --out MODEL [--threads N]
//                       [--objective regression|ranking] [--rounds N]
//                       [--folds K] [--seed S]
// rlopt costmodel eval --db DB --model MODEL [--threads N] [--json]
// Fits gradient-boosted trees to the schedules a measurement cache holds
// for this machine, and reports how well a model ranks them.
#include "Args.h"
#include "Commands.h"
#include "CostModelOption.h"

#include "rlopt/costmodel/CostDataset.h"
#include "rlopt/costmodel/Ranking.h"
#include "rlopt/measure/MachineInfo.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rlopt::tool {

Result<std::string> costModelPath(const std::string &text,
                                  const std::string &noModel) {
  if (text == "none")
    return std::string();
  std::string path =
      text.empty() ? std::string(RLOPT_DATA_DIR) + "/costmodels/default.json"
                   : text;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return makeError("cost model " + path + " does not exist (" + noModel +
                     " searches without one)");
  return path;
}

namespace {

/// The labelled schedules of `--db` measured on this machine with
/// `--threads`.
Result<costmodel::CostDataset> loadDataset(const Args &args, long threads) {
  auto cache = measure::Cache::open(args.get("db"));
  if (!cache)
    return cache.error();
  auto dataset = costmodel::loadCostDataset(
      **cache, measure::hostMachine().fingerprint(static_cast<int>(threads)));
  if (!dataset)
    return dataset.error();
  if (dataset->samples.empty())
    return makeError(args.get("db") +
                     ": no schedule of this machine with a program and a "
                     "correct result (measure some with `rlopt eval --agent "
                     "search:N --cost-model none`)");
  return dataset;
}

/// Parses the options after `costmodel VERB`: no positionals, and every one
/// of `required` given.
std::optional<std::string>
parseArgs(Args &args, int argc, char **argv,
          std::initializer_list<const char *> required) {
  if (auto error = args.parse(argc, argv, 3))
    return error;
  if (!args.positional().empty())
    return "unexpected argument '" + args.positional()[0] + "'";
  for (const char *name : required)
    if (!args.has(name))
      return std::string("--") + name + " is required";
  return std::nullopt;
}

nlohmann::json qualityJson(const costmodel::RankingQuality &q) {
  return {{"programs", q.programs},
          {"samples", q.samples},
          {"kendall_tau", q.kendallTau},
          {"top1_regret", q.top1Regret},
          {"top5_regret", q.top5Regret}};
}

void printQuality(const char *what, const costmodel::RankingQuality &q) {
  std::printf("%s: %zu programs, %zu schedules: Kendall tau %.3f, top-1 "
              "regret %.1f%%, top-5 regret %.1f%%\n",
              what, q.programs, q.samples, q.kendallTau, 100 * q.top1Regret,
              100 * q.top5Regret);
}

} // namespace

int runCostModelTrain(int argc, char **argv) {
  Args args({"db", "out", "threads", "objective", "rounds", "folds", "seed"},
            {});
  if (auto error = parseArgs(args, argc, argv, {"db", "out"}))
    return fail("costmodel train: " + *error);
  std::string error;
  long threads = args.getInt("threads", 1, 1, 1024, error);
  long rounds = args.getInt("rounds", 400, 1, 100000, error);
  long seed = args.getInt("seed", 0, 0, 1l << 40, error);
  long folds = args.getInt("folds", 5, 0, 1000, error);
  if (error.empty() && folds == 1)
    error = "--folds expects 0 (no cross-validation) or at least 2";
  if (!error.empty())
    return fail("costmodel train: " + error);
  costmodel::TrainOptions options;
  options.objective = args.get("objective", "ranking");
  options.rounds = static_cast<int>(rounds);
  options.seed = static_cast<uint64_t>(seed);
  if (options.objective != "regression" && options.objective != "ranking")
    return fail("costmodel train: --objective expects regression or "
                "ranking, got '" +
                options.objective + "'");

  auto dataset = loadDataset(args, threads);
  if (!dataset)
    return fail("costmodel train: " + dataset.error().message);
  std::printf("%zu schedules of %zu programs (%zu rows skipped)\n",
              dataset->samples.size(), dataset->programs, dataset->skipped);
  if (folds >= 2) {
    // Cross-validation by program: every program is scored by a model that
    // never saw it.
    std::vector<costmodel::CostSample> scored;
    std::vector<double> scores;
    for (long fold = 0; fold < folds; ++fold) {
      std::vector<costmodel::CostSample> train, heldOut;
      costmodel::splitByProgram(dataset->samples, fold, folds, train, heldOut);
      if (train.empty() || heldOut.empty())
        continue;
      auto model = costmodel::CostModel::train(train, options);
      if (!model)
        return fail("costmodel train: " + model.error().message, ExitFailure);
      std::vector<std::vector<float>> rows;
      for (const costmodel::CostSample &s : heldOut)
        rows.push_back(s.features);
      auto predicted = model->predict(rows);
      if (!predicted)
        return fail("costmodel train: " + predicted.error().message,
                    ExitFailure);
      scored.insert(scored.end(), heldOut.begin(), heldOut.end());
      scores.insert(scores.end(), predicted->begin(), predicted->end());
    }
    printQuality(("held-out programs (" + std::to_string(folds) +
                  "-fold cross-validation)")
                     .c_str(),
                 costmodel::rankingQuality(scores, scored));
  }
  // The model written learns from every program.
  auto model = costmodel::CostModel::train(dataset->samples, options);
  if (!model)
    return fail("costmodel train: " + model.error().message, ExitFailure);
  auto seen = costmodel::rankingQuality(*model, dataset->samples);
  if (!seen)
    return fail("costmodel train: " + seen.error().message, ExitFailure);
  printQuality("training programs", *seen);
  if (Status saved = model->save(args.get("out")); !saved)
    return fail(saved.error().message, ExitFailure);
  std::printf("wrote %s (%s, %zu schedules)\n", args.get("out").c_str(),
              model->objective().c_str(), model->trainedOn());
  return ExitOk;
}

int runCostModelEval(int argc, char **argv) {
  Args args({"db", "model", "threads"}, {"json"});
  if (auto error = parseArgs(args, argc, argv, {"db", "model"}))
    return fail("costmodel eval: " + *error);
  std::string error;
  long threads = args.getInt("threads", 1, 1, 1024, error);
  if (!error.empty())
    return fail("costmodel eval: " + error);
  auto model = costmodel::CostModel::load(args.get("model"));
  if (!model)
    return fail(model.error().message);
  auto dataset = loadDataset(args, threads);
  if (!dataset)
    return fail("costmodel eval: " + dataset.error().message);
  auto quality = costmodel::rankingQuality(*model, dataset->samples);
  if (!quality)
    return fail("costmodel eval: " + quality.error().message, ExitFailure);
  if (args.has("json"))
    std::cout << qualityJson(*quality).dump(2) << "\n";
  else
    printQuality(args.get("db").c_str(), *quality);
  return ExitOk;
}

} // namespace rlopt::tool
