// A2C, the synchronous form of A3C (Mnih et al. 2016, Algorithm S3): run
// the policy for n steps, compute n-step returns bootstrapped with the
// critic, and take one gradient step on the policy-gradient, value and
// entropy terms.
#include "rlopt/agent/discrete/A2c.h"

#include "DiscreteRun.h"
#include "EpisodeLoop.h"

namespace rlopt::agent::discrete {

namespace {

using Clock = std::chrono::steady_clock;

/// Up to n steps of one episode.
struct Segment {
  std::vector<float> features;
  std::vector<uint8_t> allowed;
  std::vector<int64_t> actions;
  std::vector<float> rewards;
  int64_t size() const { return actions.size(); }
};

std::unique_ptr<torch::optim::Optimizer>
makeOptimizer(const A2cConfig &config, std::vector<torch::Tensor> parameters) {
  if (config.optimizer == "adam")
    return std::make_unique<torch::optim::Adam>(
        parameters, torch::optim::AdamOptions(config.learningRate)
                        .eps(config.optimizerEpsilon));
  return std::make_unique<torch::optim::RMSprop>(
      parameters, torch::optim::RMSpropOptions(config.learningRate)
                      .alpha(config.rmspropAlpha)
                      .eps(config.optimizerEpsilon));
}

} // namespace

Status trainA2c(const A2cConfig &config, Env &env,
                const std::vector<BenchmarkRef> &benchmarks,
                const std::string &runDir, const TrainOptions &options) {
  auto shape = trainingShape(env, benchmarks);
  if (!shape)
    return shape.error();
  auto opened = openRun(config, *shape, runDir, options);
  if (!opened)
    return opened.error();
  DiscreteRun &run = **opened;
  int64_t featureCount = shape->observationSize;
  int64_t actionCount = shape->actionCount;
  Mlp actor(featureCount, actionCount, config.network, /*outputGain=*/0.01);
  Mlp critic(featureCount, 1, config.network, /*outputGain=*/1.0);
  std::vector<torch::Tensor> parameters = parametersOf({actor, critic});
  std::unique_ptr<torch::optim::Optimizer> optimizer =
      makeOptimizer(config, parameters);
  if (auto *checkpoint = run.resumed()) {
    std::string where = run.checkpointPath();
    for (Status s :
         {readModule(*checkpoint, "actor", *actor, where),
          readModule(*checkpoint, "critic", *critic, where),
          readOptimizer(*checkpoint, "optimizer", *optimizer, where)})
      if (!s)
        return s;
  }
  auto writeState = [&](torch::serialize::OutputArchive &archive) {
    writeModule(archive, "actor", *actor);
    writeModule(archive, "critic", *critic);
    writeOptimizer(archive, "optimizer", *optimizer);
    return nlohmann::json::object();
  };
  EpisodeLoop loop(env, benchmarks, *shape, config.maxEpisodeSteps);

  for (int iteration = run.firstIteration(); iteration <= run.lastIteration();
       ++iteration) {
    std::mt19937_64 rng = run.beginIteration(iteration);
    IterationMetrics metrics;
    metrics.iteration = iteration;
    double learnSeconds = 0, entropySum = 0, policySum = 0, valueSum = 0;
    int updates = 0;

    int64_t steps = 0;
    while (steps < config.stepsPerIteration) {
      auto state = loop.reset(rng);
      if (!state)
        return state.error();
      for (bool ended = false; !ended;) {
        // 1. Run the policy for n steps, or to the end of the episode.
        Segment segment;
        bool terminated = false;
        while (!ended && segment.size() < config.nSteps) {
          torch::NoGradGuard noGrad;
          MaskedCategorical policy(
              actor(floatRows(state->features, featureCount)),
              byteRows(state->allowed, actionCount));
          int64_t action = policy.sample().item<int64_t>();
          auto step = loop.step(action);
          if (!step)
            return step.error();
          segment.features.insert(segment.features.end(),
                                  state->features.begin(),
                                  state->features.end());
          segment.allowed.insert(segment.allowed.end(), state->allowed.begin(),
                                 state->allowed.end());
          segment.actions.push_back(action);
          segment.rewards.push_back(step->reward);
          ended = step->ended;
          terminated = step->terminated;
          state = std::move(step->next);
          ++steps;
        }
        auto learnStart = Clock::now();

        // 2. n-step returns, bootstrapped from V(s_{t+n}) unless terminal.
        std::vector<float> returns(segment.size());
        float future = 0;
        if (!terminated) {
          torch::NoGradGuard noGrad;
          future =
              critic(floatRows(state->features, featureCount)).item<float>();
        }
        for (int64_t k = segment.size() - 1; k >= 0; --k) {
          future = segment.rewards[k] + config.gamma * future;
          returns[k] = future;
        }

        // 3. One step on −log π(a|s)·(R − V(s)) + c_v·(R − V(s))² − c_e·H.
        torch::Tensor features = floatRows(segment.features, featureCount);
        MaskedCategorical policy(actor(features),
                                 byteRows(segment.allowed, actionCount));
        torch::Tensor values = critic(features).squeeze(1);
        torch::Tensor advantage = torch::tensor(returns) - values;
        torch::Tensor policyLoss =
            -(advantage.detach() *
              policy.logProb(torch::tensor(segment.actions, torch::kInt64)))
                 .mean();
        torch::Tensor valueLoss = advantage.pow(2).mean();
        torch::Tensor entropy = policy.entropy().mean();
        torch::Tensor loss = policyLoss + config.valueCoef * valueLoss -
                             config.entropyCoef * entropy;
        optimizer->zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(parameters, config.maxGradNorm);
        optimizer->step();

        entropySum += entropy.item<double>();
        policySum += policyLoss.item<double>();
        valueSum += valueLoss.item<double>();
        ++updates;
        learnSeconds +=
            std::chrono::duration<double>(Clock::now() - learnStart).count();
      }
    }
    std::vector<nlohmann::json> episodes = loop.reportInto(metrics);
    metrics.learning = {{"entropy", entropySum / updates},
                        {"policy_loss", policySum / updates},
                        {"value_loss", valueSum / updates}};
    metrics.learnSeconds = learnSeconds;

    auto stop = run.endIteration(metrics, episodes, writeState);
    if (!stop)
      return stop.error();
    if (*stop)
      break;
  }
  return run.savePolicy(actor);
}

} // namespace rlopt::agent::discrete
