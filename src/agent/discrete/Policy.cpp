#include "PolicyImpl.h"

#include "rlopt/agent/Archive.h"
#include "rlopt/core/Json.h"

#include <algorithm>
#include <cstdio>

namespace rlopt::agent::discrete {

namespace {

constexpr const char *kPolicyFormat = "rlopt-discrete-policy";

} // namespace

Result<DiscreteShape> discreteShape(const Spaces &spaces) {
  if (spaces.action.nvec.size() != 1)
    return makeError("the environment has " +
                     std::to_string(spaces.action.nvec.size()) +
                     " action heads; discrete agents need exactly one");
  DiscreteShape shape{spaces.observation.size(), spaces.action.nvec[0]};
  if (shape.observationSize < 1 || shape.actionCount < 1)
    return makeError("the environment has an empty observation or action "
                     "space");
  return shape;
}

DiscretePolicy::DiscretePolicy(std::unique_ptr<Impl> impl)
    : state(std::move(impl)) {}
DiscretePolicy::DiscretePolicy(DiscretePolicy &&) noexcept = default;
DiscretePolicy &DiscretePolicy::operator=(DiscretePolicy &&) noexcept = default;
DiscretePolicy::~DiscretePolicy() = default;

const DiscreteShape &DiscretePolicy::shape() const { return state->shape; }
const std::string &DiscretePolicy::algorithm() const {
  return state->algorithm;
}
const nlohmann::json &DiscretePolicy::trainingConfig() const {
  return state->config;
}

Result<DiscretePolicy> DiscretePolicy::create(const Spaces &spaces,
                                              const NetworkConfig &network,
                                              uint64_t seed) {
  auto shape = discreteShape(spaces);
  if (!shape)
    return shape.error();
  torch::manual_seed(seed);
  auto impl = std::make_unique<Impl>();
  impl->net = Mlp(shape->observationSize, shape->actionCount, network);
  impl->shape = *shape;
  impl->network = network;
  impl->algorithm = "untrained";
  impl->config = nlohmann::json::object();
  return DiscretePolicy(std::move(impl));
}

Status DiscretePolicy::save(const std::string &path) const {
  torch::serialize::OutputArchive archive;
  nlohmann::json meta = {{"format", kPolicyFormat},
                         {"algorithm", state->algorithm},
                         {"observation_size", state->shape.observationSize},
                         {"action_count", state->shape.actionCount},
                         {"network", state->network.toJson()},
                         {"config", state->config}};
  writeArchiveMeta(archive, meta);
  for (const auto &item : state->net->named_parameters())
    archive.write("net." + item.key(), item.value());
  return saveArchive(archive, path, "policy");
}

Result<DiscretePolicy> DiscretePolicy::load(const std::string &path,
                                            const Spaces &spaces) {
  auto expected = discreteShape(spaces);
  if (!expected)
    return makeError(path + ": " + expected.error().message);
  torch::serialize::InputArchive archive;
  auto loaded = loadArchiveWithMeta(archive, path, "policy", kPolicyFormat,
                                    "not a discrete-agent policy");
  if (!loaded)
    return loaded.error();
  nlohmann::json &meta = *loaded;
  int64_t observationSize = -1, actionCount = -1;
  std::string algorithm;
  for (Status s : {readField(meta, "observation_size", observationSize, path),
                   readField(meta, "action_count", actionCount, path),
                   readField(meta, "algorithm", algorithm, path)})
    if (!s)
      return makeError(s.error().message + " in the policy's metadata");
  if (observationSize != expected->observationSize ||
      actionCount != expected->actionCount)
    return makeError(path + ": trained on " + std::to_string(observationSize) +
                     " features and " + std::to_string(actionCount) +
                     " actions; this environment has " +
                     std::to_string(expected->observationSize) +
                     " features and " + std::to_string(expected->actionCount) +
                     " actions");
  auto network = NetworkConfig::fromJson(meta["network"], path + ": network");
  if (!network)
    return network.error();
  auto impl = std::make_unique<Impl>();
  impl->net = Mlp(observationSize, actionCount, *network);
  impl->shape = *expected;
  impl->network = *network;
  impl->algorithm = algorithm;
  impl->config = meta["config"];
  torch::NoGradGuard noGrad;
  for (auto &item : impl->net->named_parameters()) {
    torch::Tensor stored;
    if (!archive.try_read("net." + item.key(), stored) ||
        !stored.sizes().equals(item.value().sizes()))
      return makeError(path + ": weights do not match the network config (" +
                       item.key() + ")");
    item.value().copy_(stored);
  }
  return DiscretePolicy(std::move(impl));
}

namespace {

/// The policy's scores for `obs`, with masked actions at -inf.
Result<torch::Tensor> allowedScores(const DiscretePolicy &policy,
                                    const Observation &obs) {
  const DiscreteShape &shape = policy.shape();
  if ((int64_t)obs.features.size() != shape.observationSize)
    return makeError("the observation has " +
                     std::to_string(obs.features.size()) +
                     " features; the policy expects " +
                     std::to_string(shape.observationSize));
  std::vector<uint8_t> allowed(shape.actionCount, 1);
  if (!obs.masks.empty()) {
    if (obs.masks.size() != 1 ||
        (int64_t)obs.masks[0].size() != shape.actionCount)
      return makeError("the observation's mask does not have one head of " +
                       std::to_string(shape.actionCount) + " actions");
    allowed = obs.masks[0];
  }
  if (std::find(allowed.begin(), allowed.end(), 1) == allowed.end())
    return makeError("every action is masked");
  torch::NoGradGuard noGrad;
  torch::Tensor scores = policy.impl().net->forward(
      floatRows(obs.features, shape.observationSize));
  return maskScores(scores,
                    byteRows(allowed, shape.actionCount).to(torch::kBool));
}

} // namespace

Result<int64_t> act(const DiscretePolicy &policy, const Observation &obs) {
  auto scores = allowedScores(policy, obs);
  if (!scores)
    return scores.error();
  return scores->argmax(1).item<int64_t>();
}

Result<int64_t> sampleAction(const DiscretePolicy &policy,
                             const Observation &obs, std::mt19937_64 &random) {
  auto scores = allowedScores(policy, obs);
  if (!scores)
    return scores.error();
  torch::Tensor probabilities =
      torch::softmax(scores->to(torch::kDouble), 1).contiguous();
  const double *p = probabilities.data_ptr<double>();
  std::discrete_distribution<int64_t> pick(p, p + probabilities.size(1));
  return pick(random);
}

Result<GreedyEpisode> runGreedyEpisode(const DiscretePolicy &policy, Env &env,
                                       const BenchmarkRef &benchmark,
                                       uint64_t seed, int maxSteps,
                                       std::mt19937_64 *sample) {
  auto shape = discreteShape(env.spaces());
  if (!shape)
    return shape.error();
  if (shape->observationSize != policy.shape().observationSize ||
      shape->actionCount != policy.shape().actionCount)
    return makeError(benchmark.uri + ": the policy was trained on another "
                                     "observation or action space");
  auto started = env.tryReset(benchmark, seed);
  if (!started)
    return started.error();
  Observation obs = started.takeValue();
  GreedyEpisode episode;
  while (maxSteps <= 0 || (int)episode.actions.size() < maxSteps) {
    auto action =
        sample ? sampleAction(policy, obs, *sample) : act(policy, obs);
    if (!action)
      return makeError(benchmark.uri + ": step " +
                       std::to_string(episode.actions.size()) + ": " +
                       action.error().message);
    StepResult step = env.step(Action{{*action}});
    episode.actions.push_back(*action);
    episode.totalReward += step.reward;
    episode.finalInfo = step.info;
    if (step.terminated || step.truncated)
      break;
    obs = std::move(step.obs);
  }
  return episode;
}

} // namespace rlopt::agent::discrete
