#ifndef RLOPT_AGENT_TENSORBYTES_H
#define RLOPT_AGENT_TENSORBYTES_H

// A network's weights as one block of float32 bytes, as the learner sends
// them to the rollout ranks of a distributed run every iteration.

#include "rlopt/core/Result.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace rlopt::agent {

inline std::vector<uint8_t>
tensorBytes(const std::vector<torch::Tensor> &tensors) {
  std::vector<uint8_t> bytes;
  for (const torch::Tensor &tensor : tensors) {
    torch::Tensor flat = tensor.detach().to(torch::kFloat).contiguous();
    const auto *data = reinterpret_cast<const uint8_t *>(flat.data_ptr());
    bytes.insert(bytes.end(), data, data + flat.numel() * sizeof(float));
  }
  return bytes;
}

/// Copies `bytes` into `tensors`: every tensor filled, every byte used.
inline Status loadTensorBytes(const std::vector<torch::Tensor> &tensors,
                              const std::vector<uint8_t> &bytes) {
  size_t needed = 0;
  for (const torch::Tensor &tensor : tensors)
    needed += tensor.numel() * sizeof(float);
  if (needed != bytes.size())
    return makeError("the learner's weights (" + std::to_string(bytes.size()) +
                     " bytes) do not fit this rank's network (" +
                     std::to_string(needed) + " bytes)");
  torch::NoGradGuard noGrad;
  size_t offset = 0;
  for (torch::Tensor tensor : tensors) {
    tensor.copy_(torch::from_blob(const_cast<uint8_t *>(bytes.data() + offset),
                                  tensor.sizes(), torch::kFloat));
    offset += tensor.numel() * sizeof(float);
  }
  return Status::success();
}

/// A fingerprint of weights as tensorBytes encodes them, with which a
/// rollout rank tells the learner which weights it rolled out with (every
/// rank runs the same binary, so std::hash agrees).
inline uint64_t bytesFingerprint(const std::vector<uint8_t> &bytes) {
  return std::hash<std::string_view>()(std::string_view(
      reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

inline uint64_t tensorFingerprint(const std::vector<torch::Tensor> &tensors) {
  return bytesFingerprint(tensorBytes(tensors));
}

} // namespace rlopt::agent

#endif
