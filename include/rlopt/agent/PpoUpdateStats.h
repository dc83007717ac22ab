#ifndef RLOPT_AGENT_PPOUPDATESTATS_H
#define RLOPT_AGENT_PPOUPDATESTATS_H

// The diagnostics of PPO's minibatch updates that CleanRL logs, summed over
// an iteration and reported as means, for the Linalg and the discrete PPO
// alike. Header-only: both torch libraries include it, and rlopt_agent,
// which they share, stays free of torch.

#include <torch/torch.h>

#include <map>
#include <string>

namespace rlopt::agent {

class PpoUpdateStats {
public:
  /// Adds one minibatch update: its mean entropy and losses, and the
  /// probability ratios new/old (and their logs) of its samples.
  void add(const torch::Tensor &entropy, const torch::Tensor &policyLoss,
           const torch::Tensor &valueLoss, const torch::Tensor &ratio,
           const torch::Tensor &logRatio, double clip) {
    torch::NoGradGuard noGrad;
    sums["entropy"] += entropy.item<double>();
    sums["policy_loss"] += policyLoss.item<double>();
    sums["value_loss"] += valueLoss.item<double>();
    // The low-variance estimator of KL(old || new).
    sums["approx_kl"] += ((ratio - 1) - logRatio).mean().item<double>();
    sums["clip_fraction"] +=
        ((ratio - 1).abs() > clip).to(torch::kFloat).mean().item<double>();
    ++updates;
  }

  /// Each statistic's mean over the updates into `learning`; nothing
  /// without updates.
  void writeInto(std::map<std::string, double> &learning) const {
    for (const auto &[key, sum] : sums)
      learning[key] = sum / updates;
  }

private:
  std::map<std::string, double> sums;
  int updates = 0;
};

} // namespace rlopt::agent

#endif
