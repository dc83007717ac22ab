// PPO for the Linalg environment, in the order of the paper's algorithm:
// collect whole-program rollouts, compute GAE advantages, then optimize the
// clipped surrogate for several epochs over minibatches.
#include "rlopt/agent/linalg/Ppo.h"

#include "rlopt/agent/Archive.h"
#include "rlopt/agent/EnvServer.h"
#include "rlopt/agent/PpoUpdateStats.h"
#include "rlopt/agent/linalg/Batch.h"
#include "rlopt/agent/linalg/DistributedRollout.h"
#include "rlopt/agent/linalg/PredictedReward.h"
#include "rlopt/agent/linalg/Rollout.h"
#include "rlopt/core/Json.h"
#include "rlopt/core/Memory.h"
#include "rlopt/linalg/LinalgEnv.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>

namespace rlopt::agent {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void setLearningRate(torch::optim::Adam &optimizer, double rate) {
  for (auto &group : optimizer.param_groups())
    static_cast<torch::optim::AdamOptions &>(group.options()).lr(rate);
}

double geomeanSpeedup(const std::vector<Trajectory> &trajectories) {
  double logSum = 0;
  int n = 0;
  for (const Trajectory &t : trajectories)
    if (!t.failed && t.speedup > 0) {
      logSum += std::log(t.speedup);
      ++n;
    }
  return n ? std::exp(logSum / n) : 0;
}

/// `count` Linalg environments, each in its own process. Spawn them first:
/// they fork before LibTorch starts threads.
Result<std::vector<EnvServer>> spawnServers(const linalg::EnvConfig &config,
                                            int count) {
  std::vector<EnvServer> servers;
  for (int w = 0; w < count; ++w) {
    auto server = EnvServer::spawn([config] {
      return std::unique_ptr<Env>(new linalg::LinalgEnv(config));
    });
    if (!server)
      return server.error();
    servers.push_back(std::move(*server));
  }
  return servers;
}

/// A rollout rank of a distributed run: its environment processes, then
/// the policy the learner's weights are loaded into before every batch.
Status serveRolloutRank(const PpoConfig &config, Cluster &cluster) {
  auto spawned = spawnServers(config.env, config.workers);
  if (!spawned)
    return spawned.error();
  std::vector<EnvServer> &servers = *spawned;
  // Inference of one rank's few environments is small; LibTorch's thread
  // pool would only spin on the cores the environments need.
  torch::set_num_threads(1);
  keepFreedHeapMemory();
  LinalgPolicy policy(linalg::LinalgEnv(config.env).actionLayout(),
                      config.policy);
  Status served =
      serveRollouts(cluster, servers, policy, config.rankTimeoutSeconds);
  for (EnvServer &server : servers)
    server.close();
  if (!served)
    return makeError("rollout rank " + std::to_string(cluster.rank()) + ": " +
                     served.error().message);
  return served;
}

} // namespace

Status
trainPpo(const PpoConfig &config, const TrainOptions &options,
         const std::function<void(const IterationMetrics &)> &onIteration) {
  if (options.trainPrograms.empty())
    return makeError("no training programs");
  Cluster &cluster = Cluster::get();
  if (!cluster.learner())
    return serveRolloutRank(config, cluster);
  // However the learner ends, the rollout ranks are told to stop.
  struct StopRanks {
    Cluster &cluster;
    ~StopRanks() { stopRolloutRanks(cluster); }
  } stopRanks{cluster};

  // The reward model is checked before the run directory is touched.
  std::optional<PredictedReward> predictedReward;
  if (!config.rewardModel.empty()) {
    if (cluster.distributed())
      return makeError("reward_model: predicted rewards are not available "
                       "under mpirun; train on one machine");
    auto loaded = PredictedReward::load(config.rewardModel);
    if (!loaded)
      return loaded.error();
    predictedReward = std::move(*loaded);
  }

  RunSettings settings;
  settings.config = config.toJson();
  settings.iterations = config.iterations;
  settings.checkpointEvery = config.checkpointEvery;
  settings.stateFiles = {"checkpoint.pt", "optimizer.pt", "imitation.json",
                         "demonstrations.jsonl"};
  settings.stopRequested = options.stopRequested;
  settings.onIteration = onIteration;
  auto opened = TrainingRun::open(options.runDir, std::move(settings));
  if (!opened)
    return opened.error();
  TrainingRun &run = **opened;

  // Environment processes first: they fork before LibTorch starts threads.
  // Under mpirun the rollout ranks hold them and the learner none.
  linalg::ActionLayout layout = linalg::LinalgEnv(config.env).actionLayout();
  auto spawned =
      spawnServers(config.env, cluster.distributed() ? 0 : config.workers);
  if (!spawned)
    return spawned.error();
  std::vector<EnvServer> servers = std::move(*spawned);
  // Iterations with predicted rewards run in environments that measure
  // nothing; the learner scores their schedules with the cost model.
  std::vector<EnvServer> predictingServers;
  if (predictedReward) {
    linalg::EnvConfig unmeasured = config.env;
    unmeasured.reward = linalg::RewardMode::None;
    auto predicting = spawnServers(unmeasured, config.workers);
    if (!predicting)
      return predicting.error();
    predictingServers = std::move(*predicting);
  }

  std::string checkpointPath = run.path("checkpoint.pt");
  std::string optimizerPath = run.path("optimizer.pt");
  bool resuming = options.resume && run.hasCheckpoint();

  // Demonstrations are measured in forked processes, also before LibTorch.
  std::vector<linalg::Demonstration> demonstrations;
  std::string demonstrationLines; // saved once the run has started
  double collectSeconds = 0;
  if (config.imitationEpochs > 0 && !resuming) {
    auto collectStart = Clock::now();
    Result<std::vector<linalg::Demonstration>> collected =
        std::vector<linalg::Demonstration>();
    Teacher teacher;
    teacher.searchBudget = config.imitationSearchBudget;
    teacher.costModelPath = config.imitationCostModel;
    teacher.seed = config.seed;
    std::vector<std::string> programs = options.trainPrograms;
    bool collect = config.imitationDemonstrations.empty();
    if (!collect) {
      auto saved = loadDemonstrations(config.imitationDemonstrations,
                                      linalg::LinalgEnv(config.env).spaces());
      if (!saved)
        return saved.error();
      if (saved->otherFeatures) {
        // Another feature layout: replaying the schedules observes anew,
        // and the measurement cache makes their ends cheap.
        collect = true;
        programs = replaySchedules(*saved, teacher);
      } else {
        collected = std::move(saved->demos);
      }
    }
    if (collect) {
      collected = collectDemonstrations(config.env, programs, config.workers,
                                        teacher, options.stopRequested);
      if (collected)
        demonstrationLines = demonstrationsToJsonLines(programs, *collected);
    }
    if (!collected)
      return collected.error();
    demonstrations = std::move(*collected);
    collectSeconds = secondsSince(collectStart);
  }

  // Every update allocates and frees the same large activations; without
  // this a resumed run, whose heap never grew large, learned 5x slower.
  keepFreedHeapMemory();
  torch::manual_seed(config.seed);
  LinalgPolicy policy(layout, config.policy);
  torch::optim::Adam optimizer(
      policy.parameters(),
      torch::optim::AdamOptions(config.learningRate).eps(1e-5));
  // Optimizer first, policy last: the policy checkpoint names the iteration
  // a resumed run continues after.
  auto saveCheckpoint = [&](int iteration) -> Status {
    torch::serialize::OutputArchive archive;
    optimizer.save(archive);
    if (Status s = saveArchive(archive, optimizerPath, "optimizer state"); !s)
      return s;
    return policy.save(checkpointPath, {{"iteration", iteration}});
  };
  if (resuming) {
    nlohmann::json extra;
    auto loaded = LinalgPolicy::load(checkpointPath, layout, &extra);
    if (!loaded)
      return loaded.error();
    if ((*loaded)->config().toJson() != config.policy.toJson())
      return makeError(checkpointPath + ": trained with policy " +
                       (*loaded)->config().toJson().dump() +
                       ", but the config now says " +
                       config.policy.toJson().dump() +
                       "; resume with the run's config.json");
    torch::NoGradGuard noGrad;
    auto source = (*loaded)->parameters();
    auto target = policy.parameters();
    for (size_t i = 0; i < source.size(); ++i)
      target[i].copy_(source[i]);
    if (std::filesystem::exists(optimizerPath)) {
      torch::serialize::InputArchive archive;
      if (Status s = loadArchive(archive, optimizerPath, "optimizer state"); !s)
        return s;
      try {
        optimizer.load(archive);
      } catch (const std::exception &) {
        return makeError(optimizerPath +
                         ": not the optimizer state of this run's policy");
      }
    }
    // The saved state carries the rate it was saved with.
    setLearningRate(optimizer, config.learningRate);
    int iteration = 0;
    if (Status s = readField(extra, "iteration", iteration, checkpointPath); !s)
      return makeError(s.error().message + " in the checkpoint's metadata");
    if (Status s = run.resumeAfter(iteration); !s)
      return s;
  } else if (Status s = run.startFresh(); !s) {
    return s;
  }

  if (!demonstrations.empty()) {
    ImitationOptions imitation;
    imitation.epochs = config.imitationEpochs;
    imitation.minibatchSize = config.imitationMinibatchSize;
    imitation.gamma = config.gamma;
    imitation.valueCoef = config.valueCoef;
    imitation.entropyCoef = config.imitationEntropyCoef;
    imitation.maxGradNorm = config.maxGradNorm;
    imitation.stopRequested = options.stopRequested;
    setLearningRate(optimizer, config.imitationLearningRate);
    ImitationReport report =
        imitate(policy, optimizer, demonstrations, imitation);
    if (report.stopped)
      return makeError("stopped while learning from the demonstrations; "
                       "nothing was saved");
    setLearningRate(optimizer, config.learningRate);
    report.collectSeconds = collectSeconds;
    if (!demonstrationLines.empty())
      if (Status s = writeFileAtomically(run.path("demonstrations.jsonl"),
                                         demonstrationLines);
          !s)
        return s;
    if (Status s = writeFileAtomically(run.path("imitation.json"),
                                       report.toJson().dump(2) + "\n");
        !s)
      return s;
    // Iteration 0: a resumed run does not clone again.
    if (Status s = saveCheckpoint(0); !s)
      return s;
    if (options.onImitation)
      options.onImitation(report);
  }

  // Episodes from this process's servers, or from the rollout ranks: the
  // learner then draws the programs and the ranks roll them out.
  auto collect = [&](const std::vector<std::string> &programs, int episodes,
                     std::mt19937_64 &rng, bool greedy, bool sequential,
                     bool predicted = false) -> Result<RolloutResult> {
    if (predicted) {
      auto rolled = rollout(predictingServers, policy, programs, episodes, rng,
                            greedy, sequential);
      if (rolled)
        if (Status s = predictedReward->assign(rolled->trajectories,
                                               config.env.failureReward);
            !s)
          return s.error();
      return rolled;
    }
    if (!cluster.distributed())
      return rollout(servers, policy, programs, episodes, rng, greedy,
                     sequential);
    std::vector<std::string> chosen;
    for (int e = 0; e < episodes; ++e)
      chosen.push_back(sequential ? programs[e % programs.size()]
                                  : programs[rng() % programs.size()]);
    return rolloutOnRanks(cluster, policy, chosen, rng(), greedy,
                          config.rankTimeoutSeconds);
  };

  for (int iteration = run.firstIteration(); iteration <= config.iterations;
       ++iteration) {
    // Stopped after cloning: checkpoint 0 is saved, --resume starts here.
    if (run.stopRequested())
      break;
    IterationMetrics m;
    m.iteration = iteration;
    std::optional<Error> lostRank; // during validation, under mpirun
    // Seeded per iteration, so a resumed run continues the same sequence.
    std::mt19937_64 rng(config.seed * 1000003 + iteration);
    torch::manual_seed(config.seed * 1000003 + iteration);

    bool predicted = predictedReward && iteration % config.measuredEvery != 0;
    auto rolled = collect(options.trainPrograms, config.programsPerIteration,
                          rng, false, false, predicted);
    if (!rolled) {
      // A lost rank ends the run; the checkpoint lets --resume go on.
      if (cluster.distributed() && saveCheckpoint(iteration - 1))
        return makeError(rolled.error().message + "; checkpoint of iteration " +
                         std::to_string(iteration - 1) +
                         " saved, --resume continues");
      return rolled.error();
    }
    std::vector<Trajectory> &trajectories = rolled->trajectories;
    m.inferenceSeconds = rolled->inferenceSeconds;
    m.environmentSeconds = rolled->environmentSeconds;
    m.compileSeconds = rolled->compileSeconds;

    // GAE over each episode; the episode ends in a terminal state.
    std::vector<const std::vector<float> *> obsRows;
    std::vector<const std::vector<uint8_t> *> maskRows;
    std::vector<int64_t> flatActions;
    std::vector<float> oldLogProbs, advantages, returns;
    double rewardSum = 0;
    for (const Trajectory &t : trajectories) {
      size_t n = t.rewards.size();
      std::vector<float> adv(n);
      float next = 0, running = 0;
      for (size_t k = n; k-- > 0;) {
        float delta = t.rewards[k] + config.gamma * next - t.values[k];
        running = delta + config.gamma * config.gaeLambda * running;
        adv[k] = running;
        next = t.values[k];
      }
      double episodeReturn = 0;
      for (size_t k = 0; k < n; ++k) {
        obsRows.push_back(&t.observations[k]);
        maskRows.push_back(&t.masks[k]);
        flatActions.insert(flatActions.end(), t.actions[k].begin(),
                           t.actions[k].end());
        oldLogProbs.push_back(t.logProbs[k]);
        advantages.push_back(adv[k]);
        returns.push_back(adv[k] + t.values[k]);
        episodeReturn += t.rewards[k];
      }
      rewardSum += episodeReturn;
      m.bestReturn = &t == &trajectories.front()
                         ? episodeReturn
                         : std::max(m.bestReturn, episodeReturn);
      m.failures += t.failed;
    }
    m.episodes = trajectories.size();
    m.steps = obsRows.size();
    m.meanReward = m.episodes ? rewardSum / m.episodes : 0;
    // Only measured speedups count as such; estimates are reported apart.
    m.geomeanSpeedup = predicted ? -1 : geomeanSpeedup(trajectories);

    // Clipped-surrogate optimization.
    auto learnStart = Clock::now();
    torch::Tensor obsT = stackFloats(obsRows);
    torch::Tensor maskT = stackBytes(maskRows);
    torch::Tensor actT =
        torch::from_blob(flatActions.data(),
                         {(int64_t)obsRows.size(), (int64_t)layout.numHeads()},
                         torch::kInt64)
            .clone();
    torch::Tensor oldLogP = torch::tensor(oldLogProbs);
    torch::Tensor advT = torch::tensor(advantages);
    torch::Tensor retT = torch::tensor(returns);
    int64_t batch = obsRows.size();
    int64_t minibatch =
        std::max<int64_t>(1, batch / std::max(1, config.minibatches));
    UpdateStats stats;
    for (int epoch = 0; epoch < config.epochs; ++epoch) {
      torch::Tensor order = torch::randperm(batch);
      for (int64_t begin = 0; begin < batch; begin += minibatch) {
        torch::Tensor idx =
            order.narrow(0, begin, std::min(minibatch, batch - begin));
        auto out = policy.evaluate(obsT.index_select(0, idx),
                                   maskT.index_select(0, idx),
                                   actT.index_select(0, idx));
        torch::Tensor logRatio = out.logProb - oldLogP.index_select(0, idx);
        torch::Tensor ratio = logRatio.exp();
        torch::Tensor adv = advT.index_select(0, idx);
        if (adv.numel() > 1)
          adv = (adv - adv.mean()) / (adv.std() + 1e-8);
        torch::Tensor policyLoss =
            torch::max(-adv * ratio, -adv * torch::clamp(ratio, 1 - config.clip,
                                                         1 + config.clip))
                .mean();
        torch::Tensor valueLoss =
            0.5 * (out.value - retT.index_select(0, idx)).pow(2).mean();
        torch::Tensor entropy = out.entropy.mean();
        torch::Tensor loss = policyLoss - config.entropyCoef * entropy +
                             config.valueCoef * valueLoss;
        optimizer.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(policy.parameters(),
                                          config.maxGradNorm);
        optimizer.step();
        addPpoUpdate(stats, entropy, policyLoss, valueLoss, ratio, logRatio,
                     config.clip);
      }
    }
    stats.writeInto(m.learning);
    if (predicted)
      m.learning["predicted_speedup"] = geomeanSpeedup(trajectories);
    if (predictedReward && !predicted && config.refitRewardModel) {
      auto refit = predictedReward->refit(
          config.env.cachePath, config.env.measure.threads, config.seed);
      if (!refit)
        return refit.error();
      m.learning["reward_model_samples"] = static_cast<double>(*refit);
    }
    m.learnSeconds = secondsSince(learnStart);

    if (config.evalEvery > 0 && iteration % config.evalEvery == 0 &&
        !options.validationPrograms.empty()) {
      int n =
          std::min<int>(config.evalPrograms, options.validationPrograms.size());
      std::vector<std::string> programs(options.validationPrograms.begin(),
                                        options.validationPrograms.begin() + n);
      auto evaluated = collect(programs, n, rng, true, true);
      if (evaluated)
        m.validationGeomean = geomeanSpeedup(evaluated->trajectories);
      else if (cluster.distributed())
        lostRank = evaluated.error(); // the iteration is kept, then it stops
      else
        return evaluated.error();
    }
    std::vector<nlohmann::json> episodes;
    for (const Trajectory &t : trajectories)
      episodes.push_back({{"program", t.program},
                          {"schedule", t.schedule},
                          {"speedup", t.speedup},
                          {"failed", t.failed},
                          {"predicted", predicted}});
    auto stopped = run.endIteration(m, episodes, saveCheckpoint);
    if (!stopped)
      return stopped.error();
    if (lostRank) {
      if (saveCheckpoint(iteration))
        return makeError(lostRank->message + "; checkpoint of iteration " +
                         std::to_string(iteration) +
                         " saved, --resume continues");
      return *lostRank;
    }
    if (*stopped)
      break;
  }
  if (Status s =
          policy.save(run.path("policy.pt"), {{"config", config.toJson()}});
      !s)
    return s;
  for (EnvServer &server : servers)
    server.close();
  for (EnvServer &server : predictingServers)
    server.close();
  return Status::success();
}

} // namespace rlopt::agent
