#ifndef RLOPT_AGENT_DISCRETE_NETWORK_H
#define RLOPT_AGENT_DISCRETE_NETWORK_H

#include "rlopt/agent/discrete/NetworkConfig.h"

#include <torch/torch.h>

#include <initializer_list>
#include <vector>

namespace rlopt::agent::discrete {

/// Feature normalization, then ReLU hidden layers, then a linear output.
/// Orthogonal initialization as in CleanRL: hidden layers with gain √2, the
/// output layer with `outputGain` (0.01 makes a fresh actor near-uniform).
class MlpImpl : public torch::nn::Module {
public:
  MlpImpl(int64_t inputs, int64_t outputs, const NetworkConfig &config,
          double outputGain = 1.0);
  torch::Tensor forward(torch::Tensor features);

private:
  bool logScale;
  torch::nn::Sequential layers;
};
TORCH_MODULE(Mlp);

/// The parameters of `nets` in order: what one optimizer steps.
std::vector<torch::Tensor> parametersOf(std::initializer_list<Mlp> nets);

/// `scores` with −inf wherever `allowed` is 0, so that argmax and max never
/// pick a masked action.
torch::Tensor maskScores(const torch::Tensor &scores,
                         const torch::Tensor &allowed);

/// Each row of `allowed` that allows nothing (the state after a terminal
/// step) allowing everything instead, so that its masked max or softmax
/// stays finite; such rows are multiplied by (1 − done) afterwards.
torch::Tensor allowSomething(const torch::Tensor &allowed);

/// A categorical distribution over the allowed actions only: masked logits
/// are −inf, so their probability is exactly 0.
class MaskedCategorical {
public:
  MaskedCategorical(const torch::Tensor &logits, const torch::Tensor &allowed);

  /// [B, A]; 0 where masked.
  const torch::Tensor &probs() const { return p; }
  /// [B, A]; 0 (not −inf) where masked, so that p · log p has a gradient.
  const torch::Tensor &logProbs() const { return logP; }
  torch::Tensor sample() const;
  torch::Tensor greedy() const;
  torch::Tensor logProb(const torch::Tensor &actions) const;
  torch::Tensor entropy() const;

private:
  torch::Tensor masked, p, logP;
};

/// A [rows, width] tensor copied from row-major `values`.
torch::Tensor floatRows(const std::vector<float> &values, int64_t width);
torch::Tensor byteRows(const std::vector<uint8_t> &values, int64_t width);

/// Target-network updates: a copy, and Polyak averaging
/// to ← τ·from + (1 − τ)·to.
void copyParameters(torch::nn::Module &from, torch::nn::Module &to);
void polyakUpdate(torch::nn::Module &from, torch::nn::Module &to, double tau);

} // namespace rlopt::agent::discrete

#endif
