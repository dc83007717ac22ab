// PPO (Schulman et al. 2017) for environments with one Discrete action
// head, in the order of the paper's Algorithm 1 as CleanRL writes it: run
// the policy for whole episodes, compute GAE advantages, then optimize the
// clipped surrogate for several epochs over shuffled minibatches.
#include "rlopt/agent/discrete/Ppo.h"

#include "Trainers.h"

#include "rlopt/agent/PpoUpdateStats.h"
#include "rlopt/agent/RankExchange.h"
#include "rlopt/agent/TensorBytes.h"

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

/// The iteration's transitions, episode after episode.
struct Rollout {
  std::vector<float> features; ///< row-major [steps, observation size]
  std::vector<uint8_t> allowed;
  std::vector<int64_t> actions;
  std::vector<float> logProbs, values, rewards;
  std::vector<uint8_t> episodeEnded; ///< the episode ended at this step
  /// V(s') where an episode ended: 0 at a terminal state, the critic's
  /// estimate where it was truncated.
  std::vector<float> bootstrap;
  int64_t size() const { return actions.size(); }

  nlohmann::json toJson() const {
    return {{"features", features},  {"allowed", allowed},
            {"actions", actions},    {"log_probs", logProbs},
            {"values", values},      {"rewards", rewards},
            {"ended", episodeEnded}, {"bootstrap", bootstrap}};
  }
  /// Appends a rollout rank's batch (whole episodes) to this one.
  void append(const nlohmann::json &json) {
    auto extend = [&](auto &to, const char *key) {
      auto from = json.at(key).get<std::decay_t<decltype(to)>>();
      to.insert(to.end(), from.begin(), from.end());
    };
    extend(features, "features");
    extend(allowed, "allowed");
    extend(actions, "actions");
    extend(logProbs, "log_probs");
    extend(values, "values");
    extend(rewards, "rewards");
    extend(episodeEnded, "ended");
    extend(bootstrap, "bootstrap");
  }
};

/// Runs the policy for whole episodes until the batch holds `steps` steps.
Result<Rollout> collectEpisodes(EpisodeLoop &loop, Mlp &actor, Mlp &critic,
                                const DiscreteShape &shape, int64_t steps,
                                std::mt19937_64 &rng) {
  int64_t featureCount = shape.observationSize;
  int64_t actionCount = shape.actionCount;
  Rollout batch;
  while (batch.size() < steps) {
    auto state = loop.reset(rng);
    if (!state)
      return state.error();
    for (bool ended = false; !ended;) {
      torch::NoGradGuard noGrad;
      torch::Tensor features = floatRows(state->features, featureCount);
      MaskedCategorical policy(actor(features),
                               byteRows(state->allowed, actionCount));
      torch::Tensor action = policy.sample();
      auto step = loop.step(action.item<int64_t>());
      if (!step)
        return step.error();
      ended = step->ended;
      batch.features.insert(batch.features.end(), state->features.begin(),
                            state->features.end());
      batch.allowed.insert(batch.allowed.end(), state->allowed.begin(),
                           state->allowed.end());
      batch.actions.push_back(action.item<int64_t>());
      batch.logProbs.push_back(policy.logProb(action).item<float>());
      batch.values.push_back(critic(features).item<float>());
      batch.rewards.push_back(step->reward);
      batch.episodeEnded.push_back(ended);
      batch.bootstrap.push_back(
          ended && !step->terminated
              ? critic(floatRows(step->next.features, featureCount))
                    .item<float>()
              : 0.0f);
      state = std::move(step->next);
    }
  }
  return batch;
}

} // namespace

Status serveRolloutRank(const PpoConfig &config, EpisodeLoop &loop,
                        Cluster &cluster) {
  const DiscreteShape &shape = loop.shape();
  // Inference of one rank's few environments is small; LibTorch's thread
  // pool would only spin on the cores the environments need.
  torch::set_num_threads(1);
  torch::manual_seed(config.seed);
  Mlp actor = actorNetwork(shape, config.network);
  Mlp critic = criticNetwork(shape, config.network);
  auto answer = [&](const nlohmann::json &share) -> Result<nlohmann::json> {
    if (Status s = loadTensorBytes(parametersOf({actor, critic}),
                                   share.at("weights").get_binary());
        !s)
      return s.error();
    uint64_t seed = share.at("seed").get<uint64_t>();
    std::mt19937_64 rng(seed);
    torch::manual_seed(seed);
    auto batch = collectEpisodes(loop, actor, critic, shape,
                                 share.at("steps").get<int64_t>(), rng);
    if (!batch)
      return batch.error();
    IterationMetrics metrics;
    return nlohmann::json{{"batch", batch->toJson()},
                          {"episodes", loop.reportInto(metrics)},
                          {"weights_fingerprint",
                           tensorFingerprint(parametersOf({actor, critic}))}};
  };
  Status served = serveShares(cluster, answer, config.rankTimeoutSeconds);
  if (!served)
    return makeError("rollout rank " + std::to_string(cluster.rank()) + ": " +
                     served.error().message);
  return served;
}

Status train(const PpoConfig &config, DiscreteRun &run, EpisodeLoop &loop) {
  Cluster &cluster = Cluster::get();
  const DiscreteShape &shape = run.shape();
  int64_t featureCount = shape.observationSize;
  int64_t actionCount = shape.actionCount;
  Mlp actor = actorNetwork(shape, config.network);
  Mlp critic = criticNetwork(shape, config.network);
  std::vector<torch::Tensor> parameters = parametersOf({actor, critic});
  torch::optim::Adam optimizer(
      parameters,
      torch::optim::AdamOptions(config.learningRate).eps(config.adamEpsilon));
  if (Status s = run.keepInCheckpoint({moduleState("actor", *actor),
                                       moduleState("critic", *critic),
                                       optimizerState("optimizer", optimizer)});
      !s)
    return s;

  for (int iteration = run.firstIteration(); run.continues(iteration);
       ++iteration) {
    auto [rng, metrics] = run.beginIteration(iteration);

    // 1. Run the policy for whole episodes until the batch is full: here,
    // or under mpirun on the rollout ranks, each a share of the steps.
    Rollout batch;
    std::vector<nlohmann::json> episodes;
    if (!cluster.distributed()) {
      auto collected = collectEpisodes(loop, actor, critic, shape,
                                       config.stepsPerIteration, rng);
      if (!collected)
        return collected.error();
      batch = std::move(*collected);
      episodes = loop.reportInto(metrics);
    } else {
      auto start = Clock::now();
      int ranks = cluster.size() - 1;
      std::vector<uint8_t> bytes = tensorBytes(parametersOf({actor, critic}));
      uint64_t fingerprint = bytesFingerprint(bytes);
      nlohmann::json weights = nlohmann::json::binary(std::move(bytes));
      std::vector<nlohmann::json> shares;
      for (int r = 1; r <= ranks; ++r)
        shares.push_back(
            {{"steps", (config.stepsPerIteration + ranks - 1) / ranks},
             {"seed", rng()},
             {"weights", weights}});
      auto answers = shareWork(cluster, shares, config.rankTimeoutSeconds);
      if (!answers) {
        // A lost rank ends the run; the checkpoint lets --resume go on.
        if (run.saveCheckpoint(iteration - 1))
          return makeError(
              answers.error().message + "; checkpoint of iteration " +
              std::to_string(iteration - 1) + " saved, --resume continues");
        return answers.error();
      }
      for (size_t i = 0; i < answers->size(); ++i) {
        const nlohmann::json &answer = (*answers)[i];
        if (answer.value("weights_fingerprint", uint64_t(0)) != fingerprint)
          return makeError("rollout rank " + std::to_string(i + 1) +
                           " rolled out with other weights than the "
                           "learner's");
        batch.append(answer.at("batch"));
        for (const nlohmann::json &episode : answer.at("episodes"))
          episodes.push_back(episode);
      }
      summarizeEpisodes(episodes, metrics);
      metrics.steps = batch.size();
      metrics.environmentSeconds =
          std::chrono::duration<double>(Clock::now() - start).count();
    }
    auto learnStart = Clock::now();

    // 2. Advantages by GAE(γ, λ), backwards through each episode.
    int64_t n = batch.size();
    std::vector<float> advantages(n), returns(n);
    float gae = 0;
    for (int64_t t = n - 1; t >= 0; --t) {
      float continues = batch.episodeEnded[t] ? 0 : 1;
      float nextValue = continues ? batch.values[t + 1] : batch.bootstrap[t];
      float delta =
          batch.rewards[t] + config.gamma * nextValue - batch.values[t];
      gae = delta + config.gamma * config.gaeLambda * continues * gae;
      advantages[t] = gae;
      returns[t] = gae + batch.values[t];
    }

    // 3. Optimize the clipped surrogate for `epochs` passes over shuffled
    // minibatches.
    torch::Tensor features = floatRows(batch.features, featureCount);
    torch::Tensor allowed = byteRows(batch.allowed, actionCount);
    torch::Tensor actions = torch::tensor(batch.actions, torch::kInt64);
    torch::Tensor oldLogProbs = torch::tensor(batch.logProbs);
    torch::Tensor advantageT = torch::tensor(advantages);
    torch::Tensor returnT = torch::tensor(returns);
    UpdateStats stats;
    for (int epoch = 0; epoch < config.epochs; ++epoch) {
      torch::Tensor order = torch::randperm(n);
      for (int64_t begin = 0; begin < n; begin += config.minibatchSize) {
        torch::Tensor rows = order.narrow(
            0, begin, std::min<int64_t>(config.minibatchSize, n - begin));
        torch::Tensor mbFeatures = features.index_select(0, rows);
        MaskedCategorical policy(actor(mbFeatures),
                                 allowed.index_select(0, rows));
        torch::Tensor logRatio = policy.logProb(actions.index_select(0, rows)) -
                                 oldLogProbs.index_select(0, rows);
        torch::Tensor ratio = logRatio.exp();
        torch::Tensor advantage = advantageT.index_select(0, rows);
        if (config.normalizeAdvantages && advantage.numel() > 1)
          advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8);
        torch::Tensor policyLoss =
            torch::max(-advantage * ratio,
                       -advantage * torch::clamp(ratio, 1 - config.clip,
                                                 1 + config.clip))
                .mean();
        torch::Tensor valueLoss = 0.5 * (critic(mbFeatures).squeeze(1) -
                                         returnT.index_select(0, rows))
                                            .pow(2)
                                            .mean();
        torch::Tensor entropy = policy.entropy().mean();
        torch::Tensor loss = policyLoss - config.entropyCoef * entropy +
                             config.valueCoef * valueLoss;
        optimizer.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(parameters, config.maxGradNorm);
        optimizer.step();

        addPpoUpdate(stats, entropy, policyLoss, valueLoss, ratio, logRatio,
                     config.clip);
      }
    }
    stats.writeInto(metrics.learning);
    metrics.learnSeconds =
        std::chrono::duration<double>(Clock::now() - learnStart).count();

    if (Status s = run.endIteration(metrics, episodes, actor, loop); !s)
      return s;
  }
  return run.savePolicy(actor);
}

} // namespace rlopt::agent::discrete
