#ifndef RLOPT_AGENT_PPOUPDATESTATS_H
#define RLOPT_AGENT_PPOUPDATESTATS_H

// The diagnostics of PPO's minibatch updates that CleanRL logs, for the
// Linalg and the discrete PPO alike. Header-only: both torch libraries
// include it, and rlopt_agent, which they share, stays free of torch.

#include "rlopt/agent/UpdateStats.h"

#include <torch/torch.h>

namespace rlopt::agent {

/// Adds one minibatch update to `stats`: its mean entropy and losses, and
/// the probability ratios new/old (and their logs) of its samples.
inline void addPpoUpdate(UpdateStats &stats, const torch::Tensor &entropy,
                         const torch::Tensor &policyLoss,
                         const torch::Tensor &valueLoss,
                         const torch::Tensor &ratio,
                         const torch::Tensor &logRatio, double clip) {
  torch::NoGradGuard noGrad;
  stats.add("entropy", entropy.item<double>());
  stats.add("policy_loss", policyLoss.item<double>());
  stats.add("value_loss", valueLoss.item<double>());
  // The low-variance estimator of KL(old || new).
  stats.add("approx_kl", ((ratio - 1) - logRatio).mean().item<double>());
  stats.add("clip_fraction",
            ((ratio - 1).abs() > clip).to(torch::kFloat).mean().item<double>());
  stats.endUpdate();
}

} // namespace rlopt::agent

#endif
