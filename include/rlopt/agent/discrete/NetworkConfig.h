#ifndef RLOPT_AGENT_DISCRETE_NETWORKCONFIG_H
#define RLOPT_AGENT_DISCRETE_NETWORKCONFIG_H

#include "rlopt/core/Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::agent::discrete {

/// The MLP every discrete agent builds its actor, critic or Q-networks from.
struct NetworkConfig {
  /// Hidden layer widths (ReLU). The XLA pass-ordering paper uses
  /// {2048, 2048}; {256, 256} trains much faster on observations of a few
  /// dozen counts.
  std::vector<int> hidden = {256, 256};
  /// "log1p" maps every feature x to sign(x)·log(1 + |x|) before the first
  /// layer: compiler observations are counts that differ by orders of
  /// magnitude between programs, and a fixed transform needs no running
  /// statistics that drift between benchmarks or must be checkpointed.
  /// "none" feeds the features unchanged.
  std::string normalization = "log1p";

  nlohmann::json toJson() const;
  static Result<NetworkConfig> fromJson(const nlohmann::json &json,
                                        const std::string &where);
};

} // namespace rlopt::agent::discrete

#endif
