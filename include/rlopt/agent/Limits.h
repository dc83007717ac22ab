#ifndef RLOPT_AGENT_LIMITS_H
#define RLOPT_AGENT_LIMITS_H

namespace rlopt::agent {

/// The widest layer a policy config may ask for. The papers' networks use
/// at most 2048; a typo such as 1e9 must be an error, not a request to
/// LibTorch for terabytes.
constexpr int kMaxLayerSize = 16384;

} // namespace rlopt::agent

#endif
