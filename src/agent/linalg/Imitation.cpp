// Behaviour cloning from a teacher's schedules (the heuristic's, or the
// winners of the cost model's search), the warm start that PPO then
// improves on.
#include "rlopt/agent/linalg/Imitation.h"

#include "rlopt/agent/linalg/Batch.h"
#include "rlopt/core/File.h"
#include "rlopt/core/Json.h"
#include "rlopt/core/Worker.h"
#include "rlopt/costmodel/ScheduleSearch.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <chrono>
#include <cmath>
#include <optional>

namespace rlopt::agent {

nlohmann::json ImitationReport::toJson() const {
  return {{"demonstrations", demonstrations},
          {"skipped", skipped},
          {"steps", steps},
          {"demonstration_geomean_speedup", demonstrationGeomean},
          {"action_probability", actionProbability},
          {"value_loss", valueLoss},
          {"time", {{"collect_s", collectSeconds}, {"learn_s", learnSeconds}}}};
}

/// The search's winner on `program`, searched among schedules the
/// environment's actions can express.
static Result<linalg::Schedule>
searchWinner(const linalg::Program &program, const linalg::EnvConfig &config,
             const Teacher &teacher, const costmodel::CostModel *model,
             measure::Cache *cache, uint64_t seed) {
  costmodel::SearchOptions search;
  search.budget = teacher.searchBudget;
  search.seed = seed;
  search.model = model;
  search.heuristic.threads = config.measure.threads;
  search.heuristic.limits = config.measure.transformLimits;
  search.heuristic.extraTransformations = config.extraTransformations;
  auto found =
      costmodel::searchSchedule(program, search, config.measure, cache);
  if (!found)
    return makeError("search: " + found.error().message);
  return found->schedule;
}

/// The child's job: demonstrate every `stride`-th program from `first`,
/// one message each; a message with "fatal" when it cannot start.
static int demonstrateShare(WorkerChannel &channel,
                            const linalg::EnvConfig &config,
                            const Teacher &teacher,
                            const std::vector<std::string> &programs,
                            size_t first, size_t stride) {
  linalg::LinalgEnv env(config);
  std::optional<costmodel::CostModel> model;
  std::shared_ptr<measure::Cache> cache;
  if (teacher.searchBudget > 0) {
    std::string problem;
    if (!teacher.costModelPath.empty() && teacher.costModelPath != "none") {
      auto loaded = costmodel::CostModel::load(teacher.costModelPath);
      if (loaded)
        model = std::move(*loaded);
      else
        problem = loaded.error().message;
    }
    auto opened = measure::Cache::openOrDefault(config.cachePath);
    if (opened)
      cache = std::move(*opened);
    else if (problem.empty())
      problem = opened.error().message;
    if (!problem.empty())
      return channel.send(nlohmann::json{{"fatal", problem}}.dump()) ? 0 : 1;
  }
  for (size_t i = first; i < programs.size(); i += stride) {
    linalg::ScheduleFor scheduleFor; // empty: the heuristic's
    if (!teacher.schedules.empty())
      scheduleFor = [&](const linalg::Program &) {
        return linalg::parseSchedule(teacher.schedules[i]);
      };
    else if (teacher.searchBudget > 0)
      scheduleFor = [&](const linalg::Program &program) {
        return searchWinner(program, config, teacher, model ? &*model : nullptr,
                            cache.get(), teacher.seed + i);
      };
    auto demo = scheduleFor ? linalg::demonstrateSchedule(env, {programs[i]},
                                                          scheduleFor)
                            : linalg::demonstrateHeuristic(env, {programs[i]});
    nlohmann::json message =
        demo ? nlohmann::json{{"demonstration", demo->toJson()}}
             : nlohmann::json{{"error", demo.error().message}};
    if (!channel.send(message.dump()))
      return 1;
  }
  return 0;
}

Result<std::vector<linalg::Demonstration>>
collectDemonstrations(const linalg::EnvConfig &env,
                      const std::vector<std::string> &programs, int workers,
                      const Teacher &teacher,
                      const std::atomic<bool> *stopRequested) {
  size_t stride =
      std::max<size_t>(1, std::min<size_t>(workers, programs.size()));
  WorkerLimits limits;
  limits.timeoutSeconds = 3600;
  limits.memoryBytes = 0; // measurement workers set their own limits
  std::vector<Worker> children;
  for (size_t w = 0; w < stride; ++w) {
    auto child = Worker::spawn(
        [&, w](WorkerChannel &channel) {
          return demonstrateShare(channel, env, teacher, programs, w, stride);
        },
        limits);
    if (!child)
      return child.error();
    children.push_back(std::move(*child));
  }
  // Program i comes from child i % stride, in order.
  std::vector<linalg::Demonstration> demos;
  for (size_t i = 0; i < programs.size(); ++i) {
    if (stopRequested && stopRequested->load())
      return makeError("stopped while collecting demonstrations; nothing "
                       "was trained");
    auto message = children[i % stride].receive();
    if (!message)
      return makeError(programs[i] +
                       ": demonstration: " + message.error().message);
    std::string malformed =
        programs[i] + ": demonstration: the worker sent a malformed message";
    auto json = nlohmann::json::parse(*message, nullptr, false);
    if (!json.is_object())
      return makeError(malformed);
    if (json.contains("fatal") && json["fatal"].is_string())
      return makeError("demonstrations: " + json["fatal"].get<std::string>());
    linalg::Demonstration demo;
    try {
      if (json.contains("demonstration"))
        demo = linalg::Demonstration::fromJson(json["demonstration"]);
      else
        demo.error = json.value("error", "no demonstration");
    } catch (const nlohmann::json::exception &) {
      return makeError(malformed);
    }
    demos.push_back(std::move(demo));
  }
  for (Worker &child : children)
    child.finish();
  return demos;
}

std::string
demonstrationsToJsonLines(const std::vector<std::string> &programs,
                          const std::vector<linalg::Demonstration> &demos) {
  std::string text;
  for (size_t i = 0; i < demos.size(); ++i) {
    nlohmann::json line = demos[i].toJson();
    line["program"] = programs[i];
    text += line.dump() + "\n";
  }
  return text;
}

/// Why `demo` does not fit `env`'s actions or has observations of another
/// size than `featureSize`, or empty.
static std::string misfit(const linalg::Demonstration &demo, const Spaces &env,
                          size_t featureSize) {
  for (const Observation &obs : demo.observations) {
    if (obs.features.size() != featureSize)
      return "observations of " + std::to_string(obs.features.size()) +
             " and " + std::to_string(featureSize) + " features";
    if (obs.masks.size() != env.action.nvec.size())
      return "masks of " + std::to_string(obs.masks.size()) +
             " action heads where the environment has " +
             std::to_string(env.action.nvec.size());
    for (size_t h = 0; h < obs.masks.size(); ++h)
      if ((int64_t)obs.masks[h].size() != env.action.nvec[h])
        return "a mask of head " + std::to_string(h) + " of size " +
               std::to_string(obs.masks[h].size()) + ", not " +
               std::to_string(env.action.nvec[h]);
  }
  for (const Action &action : demo.actions)
    if (auto outside = Env::whyOutsideSpace(action, env.action))
      return *outside;
  if (demo.actions.size() != demo.observations.size() ||
      demo.rewards.size() != demo.actions.size())
    return "unequal numbers of observations, actions and rewards";
  return "";
}

Result<SavedDemonstrations> loadDemonstrations(const std::string &path,
                                               const Spaces &env) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  SavedDemonstrations saved;
  std::optional<size_t> featureSize;
  size_t lineNumber = 0, begin = 0;
  while (begin < text->size()) {
    size_t end = text->find('\n', begin);
    if (end == std::string::npos)
      end = text->size();
    std::string line = text->substr(begin, end - begin);
    begin = end + 1;
    ++lineNumber;
    if (line.empty())
      continue;
    std::string where = path + ":" + std::to_string(lineNumber);
    auto json = parseJson(line, where);
    if (!json)
      return json.error();
    if (!json->is_object())
      return makeError(where + ": not a JSON object");
    where += ": ";
    linalg::Demonstration demo;
    std::string program;
    try {
      demo = linalg::Demonstration::fromJson(*json);
      program = json->value("program", "");
    } catch (const nlohmann::json::exception &) {
      return makeError(where + "not a demonstration (steps with features, "
                               "masks, action and reward)");
    }
    if (program.empty())
      return makeError(where + "no \"program\"");
    if (!featureSize && !demo.observations.empty())
      featureSize = demo.observations[0].features.size();
    std::string problem = misfit(demo, env, featureSize.value_or(0));
    if (!problem.empty())
      return makeError(where +
                       "demonstrated in another action space: " + problem);
    saved.programs.push_back(program);
    saved.demos.push_back(std::move(demo));
  }
  if (saved.demos.empty())
    return makeError(path + ": no demonstrations");
  saved.otherFeatures =
      featureSize && (int64_t)*featureSize != env.observation.size();
  return saved;
}

std::vector<std::string> replaySchedules(const SavedDemonstrations &saved,
                                         Teacher &teacher) {
  std::vector<std::string> programs;
  teacher.schedules.clear();
  for (size_t i = 0; i < saved.demos.size(); ++i) {
    const linalg::Demonstration &demo = saved.demos[i];
    if (!demo.error.empty() || demo.speedup <= 0)
      continue; // failed demonstrations stay left out
    programs.push_back(saved.programs[i]);
    teacher.schedules.push_back(demo.schedule);
  }
  return programs;
}

ImitationReport imitate(LinalgPolicy &policy,
                        torch::optim::Optimizer &optimizer,
                        const std::vector<linalg::Demonstration> &demos,
                        const ImitationOptions &options) {
  auto start = std::chrono::steady_clock::now();
  ImitationReport report;
  std::vector<const std::vector<float> *> obsRows;
  std::vector<std::vector<uint8_t>> masks;
  std::vector<int64_t> flatActions;
  std::vector<float> returns;
  double logSum = 0;
  for (const linalg::Demonstration &demo : demos) {
    if (demo.error.empty() && demo.actions.empty())
      continue; // nothing to schedule
    if (!demo.error.empty() || demo.speedup <= 0) {
      ++report.skipped;
      continue;
    }
    ++report.demonstrations;
    logSum += std::log(demo.speedup);
    std::vector<float> toGo(demo.rewards.size());
    double running = 0;
    for (size_t k = demo.rewards.size(); k-- > 0;)
      toGo[k] = running = demo.rewards[k] + options.gamma * running;
    for (size_t k = 0; k < demo.actions.size(); ++k) {
      obsRows.push_back(&demo.observations[k].features);
      masks.push_back(flatMask(demo.observations[k]));
      flatActions.insert(flatActions.end(), demo.actions[k].values.begin(),
                         demo.actions[k].values.end());
      returns.push_back(toGo[k]);
    }
  }
  report.steps = obsRows.size();
  if (report.demonstrations)
    report.demonstrationGeomean = std::exp(logSum / report.demonstrations);
  if (obsRows.empty())
    return report;

  std::vector<const std::vector<uint8_t> *> maskRows;
  for (const auto &m : masks)
    maskRows.push_back(&m);
  int64_t batch = obsRows.size();
  torch::Tensor obsT = stackFloats(obsRows);
  torch::Tensor maskT = stackBytes(maskRows);
  torch::Tensor actT =
      torch::from_blob(flatActions.data(),
                       {batch, (int64_t)flatActions.size() / batch},
                       torch::kInt64)
          .clone();
  torch::Tensor retT = torch::tensor(returns);
  int64_t minibatch = std::max(1, options.minibatchSize);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    if (options.stopRequested && options.stopRequested->load()) {
      report.stopped = true;
      break;
    }
    torch::Tensor order = torch::randperm(batch);
    for (int64_t begin = 0; begin < batch; begin += minibatch) {
      torch::Tensor idx =
          order.narrow(0, begin, std::min(minibatch, batch - begin));
      auto out =
          policy.evaluate(obsT.index_select(0, idx), maskT.index_select(0, idx),
                          actT.index_select(0, idx));
      torch::Tensor valueLoss =
          0.5 * (out.value - retT.index_select(0, idx)).pow(2).mean();
      torch::Tensor loss = -out.logProb.mean() -
                           options.entropyCoef * out.entropy.mean() +
                           options.valueCoef * valueLoss;
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(policy.parameters(),
                                        options.maxGradNorm);
      optimizer.step();
    }
  }
  torch::NoGradGuard noGrad;
  auto out = policy.evaluate(obsT, maskT, actT);
  report.actionProbability = out.logProb.exp().mean().item<double>();
  report.valueLoss = (0.5 * (out.value - retT).pow(2).mean()).item<double>();
  report.learnSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return report;
}

} // namespace rlopt::agent
