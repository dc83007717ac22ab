#ifndef RLOPT_AGENT_LINALG_LINALGPOLICY_H
#define RLOPT_AGENT_LINALG_LINALGPOLICY_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/ActionLayout.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <string>
#include <vector>

namespace rlopt::agent {

/// Network sizes. The MLIR RL paper's defaults: LSTM 512, three dense
/// layers of 512.
struct PolicyConfig {
  int embedding = 512;
  int lstm = 512;
  std::vector<int> dense = {512, 512, 512};
  /// Run the producer and the consumer through the LSTM (paper); false =
  /// consumer features only (ablation).
  bool producerContext = true;

  nlohmann::json toJson() const;
  static Result<PolicyConfig> fromJson(const nlohmann::json &json,
                                       const std::string &where);
};

/// Embeds each op's features, runs producer then consumer through an LSTM,
/// appends the environment's extra features and applies the dense backbone.
class OpSequenceNetImpl : public torch::nn::Module {
public:
  OpSequenceNetImpl(const linalg::ActionLayout &layout,
                    const PolicyConfig &config, int outputs);
  torch::Tensor forward(const torch::Tensor &observations);

private:
  linalg::ActionLayout layout;
  bool producerContext;
  torch::nn::Linear embed{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Sequential backbone;
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(OpSequenceNet);

/// Actor and critic of the same shape. Masks are applied to the logits of
/// every head before sampling; heads the chosen transformation does not use
/// add nothing to the log-probability or the entropy.
class LinalgPolicy {
public:
  LinalgPolicy(const linalg::ActionLayout &layout, const PolicyConfig &config);

  struct Output {
    torch::Tensor actions; ///< [B, heads] int64
    torch::Tensor logProb; ///< [B]
    torch::Tensor entropy; ///< [B]
    torch::Tensor value;   ///< [B]
  };

  /// Samples (or takes the argmax of, when `greedy`) every head.
  Output act(const torch::Tensor &observations, const torch::Tensor &masks,
             bool greedy);
  /// Log-probability, entropy and value of given actions (for PPO).
  Output evaluate(const torch::Tensor &observations, const torch::Tensor &masks,
                  const torch::Tensor &actions);

  std::vector<torch::Tensor> parameters() const;
  const linalg::ActionLayout &actionLayout() const { return layout; }
  const PolicyConfig &config() const { return cfg; }
  /// Sizes of the heads, in the environment's order.
  const std::vector<int64_t> &headSizes() const { return sizes; }

  /// Saves weights with the config and action/feature layout inside.
  Status save(const std::string &path, const nlohmann::json &extra = {}) const;
  /// Loads a policy; refuses one trained on another feature layout.
  static Result<std::unique_ptr<LinalgPolicy>>
  load(const std::string &path, const linalg::ActionLayout &expected,
       nlohmann::json *extra = nullptr);

  OpSequenceNet actor{nullptr}, critic{nullptr};

private:
  Output headsOutput(const torch::Tensor &logits, const torch::Tensor &masks,
                     const torch::Tensor &observations,
                     const torch::Tensor *given, bool greedy);

  linalg::ActionLayout layout;
  PolicyConfig cfg;
  std::vector<int64_t> sizes;
};

} // namespace rlopt::agent

#endif
