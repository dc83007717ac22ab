// What a DiscretePolicy holds; shared by Policy.cpp and the trainers that
// write policy.pt.
#ifndef RLOPT_SRC_AGENT_DISCRETE_POLICYIMPL_H
#define RLOPT_SRC_AGENT_DISCRETE_POLICYIMPL_H

#include "rlopt/agent/discrete/Network.h"
#include "rlopt/agent/discrete/Policy.h"

namespace rlopt::agent::discrete {

struct DiscretePolicy::Impl {
  Mlp net{nullptr}; ///< scores every action: logits or Q-values
  DiscreteShape shape;
  NetworkConfig network;
  std::string algorithm;
  nlohmann::json config;
};

} // namespace rlopt::agent::discrete

#endif
