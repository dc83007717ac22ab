//===- CostModel.cpp - XGBoost cost model of Linalg schedules -------------===//
//
// TVM's tuners rank candidate schedules with gradient-boosted trees for the
// same reasons that hold here: a few thousand labelled examples, features
// of mixed scales, and predictions needed for thousands of candidates in
// milliseconds. XGBoost's C API is the stable one; its handles are owned
// here and its errors become one-line messages.
//
//===----------------------------------------------------------------------===//

#include "rlopt/costmodel/CostModel.h"

#include "rlopt/core/File.h"
#include "rlopt/linalg/ScheduleFeatures.h"

#include <xgboost/c_api.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rlopt::costmodel {

namespace {

constexpr const char *kFormat = "rlopt-costmodel";
constexpr int kFormatVersion = 1;

/// XGBoost's last error without the stack trace it appends.
Error xgboostError(const std::string &what) {
  std::string message = XGBGetLastError();
  message = message.substr(0, message.find('\n'));
  return makeError(what + ": " + message);
}

/// A DMatrix from rows of equal length, freed on scope exit.
class Matrix {
public:
  explicit Matrix(const std::vector<std::vector<float>> &rows) {
    size_t columns = rows.empty() ? 0 : rows.front().size();
    std::vector<float> data;
    data.reserve(rows.size() * columns);
    for (const std::vector<float> &row : rows)
      data.insert(data.end(), row.begin(), row.end());
    if (XGDMatrixCreateFromMat(data.data(), rows.size(), columns, NAN,
                               &handle) != 0)
      handle = nullptr;
  }
  ~Matrix() {
    if (handle)
      XGDMatrixFree(handle);
  }
  Matrix(const Matrix &) = delete;
  Matrix &operator=(const Matrix &) = delete;
  DMatrixHandle get() const { return handle; }

private:
  DMatrixHandle handle = nullptr;
};

std::string xgboostObjective(const std::string &objective) {
  return objective == "ranking" ? "rank:pairwise" : "reg:squarederror";
}

} // namespace

CostModel::~CostModel() {
  if (booster)
    XGBoosterFree(booster);
}

CostModel::CostModel(CostModel &&other) noexcept
    : booster(other.booster), objectiveName(std::move(other.objectiveName)),
      samples(other.samples) {
  other.booster = nullptr;
}

CostModel &CostModel::operator=(CostModel &&other) noexcept {
  std::swap(booster, other.booster);
  std::swap(objectiveName, other.objectiveName);
  std::swap(samples, other.samples);
  return *this;
}

Result<CostModel> CostModel::train(const std::vector<CostSample> &all,
                                   const TrainOptions &options) {
  if (options.objective != "regression" && options.objective != "ranking")
    return makeError("cost model objective '" + options.objective +
                     "': expected regression or ranking");
  if (all.empty())
    return makeError("cost model: no labelled schedules to train on");
  // Ranking groups must be contiguous rows: order the samples by program.
  std::vector<const CostSample *> samples;
  for (const CostSample &s : all)
    samples.push_back(&s);
  std::stable_sort(samples.begin(), samples.end(),
                   [](const CostSample *a, const CostSample *b) {
                     return a->program < b->program;
                   });
  std::vector<std::vector<float>> rows;
  std::vector<float> labels;
  std::vector<unsigned> groups;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (samples[i]->features.size() != linalg::scheduleFeatureSize())
      return makeError("cost model: a sample of " + samples[i]->name +
                       " has the wrong number of features");
    rows.push_back(samples[i]->features);
    labels.push_back(static_cast<float>(samples[i]->logSpeedup));
    if (i == 0 || samples[i]->program != samples[i - 1]->program)
      groups.push_back(0);
    ++groups.back();
  }
  Matrix matrix(rows);
  if (!matrix.get())
    return xgboostError("cost model: cannot build the training matrix");
  if (XGDMatrixSetFloatInfo(matrix.get(), "label", labels.data(),
                            labels.size()) != 0 ||
      XGDMatrixSetUIntInfo(matrix.get(), "group", groups.data(),
                           groups.size()) != 0)
    return xgboostError("cost model: cannot label the training matrix");

  CostModel model;
  model.objectiveName = options.objective;
  model.samples = samples.size();
  DMatrixHandle matrices[] = {matrix.get()};
  if (XGBoosterCreate(matrices, 1, &model.booster) != 0)
    return xgboostError("cost model: cannot create the booster");
  std::map<std::string, std::string> params = {
      {"objective", xgboostObjective(options.objective)},
      {"max_depth", std::to_string(options.maxDepth)},
      {"eta", std::to_string(options.learningRate)},
      {"subsample", "0.8"},
      {"colsample_bytree", "0.8"},
      {"min_child_weight", "1"},
      {"tree_method", options.treeMethod},
      {"seed", std::to_string(options.seed)},
      // One thread: results do not depend on the machine's core count.
      {"nthread", "1"},
      {"verbosity", "0"}};
  for (const auto &[key, value] : params)
    if (XGBoosterSetParam(model.booster, key.c_str(), value.c_str()) != 0)
      return xgboostError("cost model: parameter " + key);
  for (int round = 0; round < options.rounds; ++round)
    if (XGBoosterUpdateOneIter(model.booster, round, matrix.get()) != 0)
      return xgboostError("cost model: training round " +
                          std::to_string(round));
  return model;
}

Result<std::vector<double>>
CostModel::predict(const std::vector<std::vector<float>> &rows) const {
  std::vector<double> scores;
  if (rows.empty())
    return scores;
  for (const std::vector<float> &row : rows)
    if (row.size() != linalg::scheduleFeatureSize())
      return makeError("cost model: a candidate has the wrong number of "
                       "features");
  Matrix matrix(rows);
  if (!matrix.get())
    return xgboostError("cost model: cannot build the candidate matrix");
  bst_ulong length = 0;
  const float *out = nullptr;
  if (XGBoosterPredict(booster, matrix.get(), 0, 0, 0, &length, &out) != 0)
    return xgboostError("cost model: prediction failed");
  scores.assign(out, out + length);
  return scores;
}

Status CostModel::save(const std::string &path) const {
  bst_ulong length = 0;
  const char *buffer = nullptr;
  if (XGBoosterSaveModelToBuffer(booster, R"({"format": "json"})", &length,
                                 &buffer) != 0)
    return xgboostError("cannot write cost model " + path);
  nlohmann::json booster =
      nlohmann::json::parse(buffer, buffer + length, nullptr, false);
  if (booster.is_discarded())
    return makeError("cannot write cost model " + path +
                     ": XGBoost wrote a malformed model");
  nlohmann::json file = {{"format", kFormat},
                         {"version", kFormatVersion},
                         {"feature_version", linalg::kScheduleFeatureVersion},
                         {"features", linalg::scheduleFeatureSize()},
                         {"objective", objectiveName},
                         {"trained_on", samples},
                         {"xgboost", booster}};
  return writeFileAtomically(path, file.dump() + "\n");
}

Result<CostModel> CostModel::load(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return makeError(path + ": cannot read the cost model");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json file = nlohmann::json::parse(text.str(), nullptr, false);
  std::string prefix = path + ": ";
  if (file.is_discarded() || !file.is_object())
    return makeError(prefix + "not a cost model (expected a JSON object)");
  if (file.value("format", nlohmann::json()) != kFormat)
    return makeError(prefix + "not a cost model (\"format\" is not \"" +
                     kFormat + "\")");
  auto integer = [&](const char *key) -> std::optional<long> {
    auto it = file.find(key);
    if (it == file.end() || !it->is_number_integer())
      return std::nullopt;
    return it->get<long>();
  };
  if (integer("version") != kFormatVersion)
    return makeError(prefix + "cost model format version is not " +
                     std::to_string(kFormatVersion));
  if (integer("feature_version") != linalg::kScheduleFeatureVersion ||
      integer("features") != static_cast<long>(linalg::scheduleFeatureSize()))
    return makeError(prefix + "trained with another feature layout; "
                              "retrain it with `rlopt costmodel train`");
  auto objective = file.find("objective");
  auto booster = file.find("xgboost");
  if (objective == file.end() || !objective->is_string() ||
      booster == file.end() || !booster->is_object())
    return makeError(prefix + "cost model lacks \"objective\" or \"xgboost\"");

  CostModel model;
  model.objectiveName = objective->get<std::string>();
  model.samples = std::max(0l, integer("trained_on").value_or(0));
  if (XGBoosterCreate(nullptr, 0, &model.booster) != 0)
    return xgboostError(prefix + "cannot create the booster");
  std::string inner = booster->dump();
  if (XGBoosterLoadModelFromBuffer(model.booster, inner.data(), inner.size()) !=
      0)
    return xgboostError(prefix + "XGBoost cannot read the model");
  XGBoosterSetParam(model.booster, "nthread", "1");
  return model;
}

} // namespace rlopt::costmodel
