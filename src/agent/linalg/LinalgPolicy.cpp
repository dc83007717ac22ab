#include "rlopt/agent/linalg/LinalgPolicy.h"

#include "rlopt/agent/Archive.h"
#include "rlopt/agent/Limits.h"
#include "rlopt/core/ConfigFields.h"

#include <cstdio>

namespace rlopt::agent {

namespace {
constexpr const char *kPolicyFormat = "rlopt-linalg-policy";
} // namespace

template <typename Visit>
static void visitFields(PolicyConfig &c, Visit &&visit) {
  visit("embedding", c.embedding);
  visit("lstm", c.lstm);
  visit("dense", c.dense);
  visit("producer_context", c.producerContext);
}

static Status checkFields(const PolicyConfig &c, const std::string &where) {
  auto inRange = [](int size) { return size >= 1 && size <= kMaxLayerSize; };
  if (!inRange(c.embedding) || !inRange(c.lstm) || c.dense.empty())
    return makeError(where + ": sizes must be in 1.." +
                     std::to_string(kMaxLayerSize) + " and dense non-empty");
  for (int d : c.dense)
    if (!inRange(d))
      return makeError(where + ": dense: sizes must be in 1.." +
                       std::to_string(kMaxLayerSize));
  return Status::success();
}

RLOPT_CONFIG_JSON_FROM_FIELDS(PolicyConfig)

OpSequenceNetImpl::OpSequenceNetImpl(const linalg::ActionLayout &layout,
                                     const PolicyConfig &config, int outputs)
    : layout(layout), producerContext(config.producerContext) {
  embed = register_module(
      "embed", torch::nn::Linear(layout.opFeatureSize, config.embedding));
  lstm = register_module(
      "lstm",
      torch::nn::LSTM(torch::nn::LSTMOptions(config.embedding, config.lstm)
                          .batch_first(true)));
  int width = config.lstm + layout.extraFeatures;
  for (int size : config.dense) {
    backbone->push_back(torch::nn::Linear(width, size));
    backbone->push_back(torch::nn::ReLU());
    width = size;
  }
  backbone = register_module("backbone", backbone);
  head = register_module("head", torch::nn::Linear(width, outputs));
}

torch::Tensor OpSequenceNetImpl::forward(const torch::Tensor &observations) {
  int64_t f = layout.opFeatureSize;
  torch::Tensor consumer = torch::relu(embed(observations.narrow(1, 0, f)));
  torch::Tensor sequence;
  if (producerContext) {
    torch::Tensor producer = torch::relu(embed(observations.narrow(1, f, f)));
    sequence = torch::stack({producer, consumer}, 1);
  } else {
    sequence = consumer.unsqueeze(1);
  }
  auto [output, state] = lstm(sequence);
  torch::Tensor last = std::get<0>(state)[-1];
  torch::Tensor extra = observations.narrow(1, 2 * f, layout.extraFeatures);
  return head(backbone->forward(torch::cat({last, extra}, 1)));
}

LinalgPolicy::LinalgPolicy(const linalg::ActionLayout &layout,
                           const PolicyConfig &config)
    : layout(layout), cfg(config) {
  sizes.push_back(layout.numTypes);
  for (int l = 0; l < 2 * layout.maxLoops; ++l)
    sizes.push_back(layout.numTileSizes);
  sizes.push_back(layout.pointerChoices());
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  actor = OpSequenceNet(layout, config, total);
  critic = OpSequenceNet(layout, config, 1);
}

std::vector<torch::Tensor> LinalgPolicy::parameters() const {
  std::vector<torch::Tensor> all = actor->parameters();
  for (const torch::Tensor &p : critic->parameters())
    all.push_back(p);
  return all;
}

LinalgPolicy::Output LinalgPolicy::headsOutput(const torch::Tensor &logits,
                                               const torch::Tensor &masks,
                                               const torch::Tensor &obs,
                                               const torch::Tensor *given,
                                               bool greedy) {
  int64_t batch = logits.size(0);
  std::vector<torch::Tensor> actions, logProbs, entropies;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    torch::Tensor allowed = masks.narrow(1, offset, size).to(torch::kBool);
    torch::Tensor headLogits =
        logits.narrow(1, offset, size).masked_fill(~allowed, -1e9);
    offset += size;
    torch::Tensor logP = torch::log_softmax(headLogits, 1);
    torch::Tensor p = logP.exp();
    torch::Tensor action;
    if (given)
      action = given->select(1, actions.size()).unsqueeze(1);
    else if (greedy)
      action = headLogits.argmax(1, /*keepdim=*/true);
    else
      action = torch::multinomial(p, 1);
    actions.push_back(action.squeeze(1));
    logProbs.push_back(logP.gather(1, action).squeeze(1));
    entropies.push_back(
        -torch::where(allowed, p * logP, torch::zeros_like(p)).sum(1));
  }
  // Which heads the chosen transformation uses.
  torch::Tensor type = actions[0];
  auto isAny = [&](int first, int second, const std::vector<int> &more) {
    torch::Tensor any = (type == first) | (type == second);
    for (int t : more)
      any = any | (type == t);
    return any.to(torch::kFloat);
  };
  torch::Tensor usesTile =
      isAny(layout.tileType, layout.tileType, layout.extraTileTypes);
  torch::Tensor usesParallel =
      isAny(layout.parallelizeType, layout.fuseType, layout.extraParallelTypes);
  // Level pointers act in the interchange sub-steps; an enumerated
  // candidate is chosen together with the interchange type.
  torch::Tensor usesPointer =
      layout.enumeratedInterchange
          ? (type == layout.interchangeType).to(torch::kFloat)
          : (obs.select(1, layout.interchangeFlag) > 0.5).to(torch::kFloat);
  Output out;
  out.logProb = torch::zeros({batch});
  out.entropy = torch::zeros({batch});
  for (size_t h = 0; h < sizes.size(); ++h) {
    torch::Tensor weight = torch::ones({batch});
    if ((int)h == layout.pointerHead())
      weight = usesPointer;
    else if ((int)h >= layout.parallelHead(0))
      weight = usesParallel;
    else if ((int)h >= layout.tileHead(0))
      weight = usesTile;
    out.logProb = out.logProb + weight * logProbs[h];
    out.entropy = out.entropy + weight * entropies[h];
  }
  out.actions = torch::stack(actions, 1);
  return out;
}

LinalgPolicy::Output LinalgPolicy::act(const torch::Tensor &observations,
                                       const torch::Tensor &masks,
                                       bool greedy) {
  torch::NoGradGuard noGrad;
  Output out = headsOutput(actor->forward(observations), masks, observations,
                           nullptr, greedy);
  out.value = critic->forward(observations).squeeze(1);
  return out;
}

LinalgPolicy::Output LinalgPolicy::evaluate(const torch::Tensor &observations,
                                            const torch::Tensor &masks,
                                            const torch::Tensor &actions) {
  Output out = headsOutput(actor->forward(observations), masks, observations,
                           &actions, false);
  out.value = critic->forward(observations).squeeze(1);
  return out;
}

Status LinalgPolicy::save(const std::string &path,
                          const nlohmann::json &extra) const {
  torch::serialize::OutputArchive archive;
  nlohmann::json meta = {{"format", kPolicyFormat},
                         {"layout", layout.toJson()},
                         {"policy", cfg.toJson()},
                         {"extra", extra}};
  writeArchiveMeta(archive, meta);
  for (const auto &item : actor->named_parameters())
    archive.write("actor." + item.key(), item.value());
  for (const auto &item : critic->named_parameters())
    archive.write("critic." + item.key(), item.value());
  return saveArchive(archive, path, "policy");
}

Result<std::unique_ptr<LinalgPolicy>>
LinalgPolicy::load(const std::string &path,
                   const linalg::ActionLayout &expected,
                   nlohmann::json *extra) {
  torch::serialize::InputArchive archive;
  auto loaded = loadArchiveWithMeta(archive, path, "policy", kPolicyFormat,
                                    "not an rlopt Linalg policy");
  if (!loaded)
    return loaded.error();
  nlohmann::json &meta = *loaded;
  linalg::ActionLayout layout;
  try {
    layout = linalg::ActionLayout::fromJson(meta["layout"]);
  } catch (const nlohmann::json::exception &) {
    return makeError(path + ": not an rlopt policy (malformed layout "
                            "metadata)");
  }
  if (!(layout == expected))
    return makeError(
        path + ": trained on feature layout " + meta["layout"].dump() +
        ", which differs from this environment's " + expected.toJson().dump());
  auto config = PolicyConfig::fromJson(meta["policy"], path);
  if (!config)
    return config.error();
  auto policy = std::make_unique<LinalgPolicy>(layout, *config);
  torch::NoGradGuard noGrad;
  for (auto &[prefix, net] :
       {std::pair<std::string, OpSequenceNet>{"actor.", policy->actor},
        std::pair<std::string, OpSequenceNet>{"critic.", policy->critic}}) {
    for (auto &item : net->named_parameters()) {
      torch::Tensor stored;
      if (!archive.try_read(prefix + item.key(), stored) ||
          !stored.sizes().equals(item.value().sizes()))
        return makeError(path + ": weights do not match the policy config (" +
                         prefix + item.key() + ")");
      item.value().copy_(stored);
    }
  }
  if (extra)
    *extra = meta["extra"];
  return policy;
}

} // namespace rlopt::agent
