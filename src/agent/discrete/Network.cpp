#include "rlopt/agent/discrete/Network.h"

#include <cmath>
#include <limits>

namespace rlopt::agent::discrete {

MlpImpl::MlpImpl(int64_t inputs, int64_t outputs, const NetworkConfig &config,
                 double outputGain)
    : logScale(config.normalization == "log1p") {
  int64_t width = inputs;
  for (int size : config.hidden) {
    torch::nn::Linear layer(width, size);
    torch::nn::init::orthogonal_(layer->weight, std::sqrt(2.0));
    torch::nn::init::zeros_(layer->bias);
    layers->push_back(layer);
    layers->push_back(torch::nn::ReLU());
    width = size;
  }
  torch::nn::Linear output(width, outputs);
  torch::nn::init::orthogonal_(output->weight, outputGain);
  torch::nn::init::zeros_(output->bias);
  layers->push_back(output);
  layers = register_module("layers", layers);
}

torch::Tensor MlpImpl::forward(torch::Tensor features) {
  if (logScale)
    features = torch::sign(features) * torch::log1p(torch::abs(features));
  return layers->forward(features);
}

torch::Tensor maskScores(const torch::Tensor &scores,
                         const torch::Tensor &allowed) {
  return scores.masked_fill(allowed.logical_not(),
                            -std::numeric_limits<float>::infinity());
}

torch::Tensor allowSomething(const torch::Tensor &allowed) {
  torch::Tensor none = allowed.logical_not().all(1, /*keepdim=*/true);
  return allowed.to(torch::kBool) | none;
}

MaskedCategorical::MaskedCategorical(const torch::Tensor &logits,
                                     const torch::Tensor &allowed) {
  torch::Tensor ok = allowed.to(torch::kBool);
  masked = maskScores(logits, ok);
  torch::Tensor logSoftmax = torch::log_softmax(masked, 1);
  p = logSoftmax.exp();
  logP = logSoftmax.masked_fill(ok.logical_not(), 0);
}

torch::Tensor MaskedCategorical::sample() const {
  return torch::multinomial(p, 1).squeeze(1);
}

torch::Tensor MaskedCategorical::greedy() const { return masked.argmax(1); }

torch::Tensor MaskedCategorical::logProb(const torch::Tensor &actions) const {
  return logP.gather(1, actions.unsqueeze(1)).squeeze(1);
}

torch::Tensor MaskedCategorical::entropy() const { return -(p * logP).sum(1); }

torch::Tensor floatRows(const std::vector<float> &values, int64_t width) {
  int64_t rows = width ? values.size() / width : 0;
  if (values.empty())
    return torch::empty({rows, width});
  return torch::from_blob(const_cast<float *>(values.data()), {rows, width},
                          torch::kFloat)
      .clone();
}

torch::Tensor byteRows(const std::vector<uint8_t> &values, int64_t width) {
  int64_t rows = width ? values.size() / width : 0;
  if (values.empty())
    return torch::empty({rows, width}, torch::kUInt8);
  return torch::from_blob(const_cast<uint8_t *>(values.data()), {rows, width},
                          torch::kUInt8)
      .clone();
}

std::vector<torch::Tensor> parametersOf(std::initializer_list<Mlp> nets) {
  std::vector<torch::Tensor> all;
  for (const Mlp &net : nets)
    for (const torch::Tensor &p : net->parameters())
      all.push_back(p);
  return all;
}

void copyParameters(torch::nn::Module &from, torch::nn::Module &to) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> source = from.parameters();
  std::vector<torch::Tensor> target = to.parameters();
  for (size_t i = 0; i < source.size(); ++i)
    target[i].copy_(source[i]);
}

void polyakUpdate(torch::nn::Module &from, torch::nn::Module &to, double tau) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> source = from.parameters();
  std::vector<torch::Tensor> target = to.parameters();
  for (size_t i = 0; i < source.size(); ++i)
    target[i].mul_(1 - tau).add_(source[i], tau);
}

} // namespace rlopt::agent::discrete
