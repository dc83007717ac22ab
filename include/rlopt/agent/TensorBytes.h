#ifndef RLOPT_AGENT_TENSORBYTES_H
#define RLOPT_AGENT_TENSORBYTES_H

// A network's weights as one block of float32 bytes, as the learner sends
// them to the rollout ranks of a distributed run every iteration.

#include "rlopt/core/Result.h"

#include <torch/torch.h>

#include <cstdint>
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

/// Copies `bytes` into `tensors`, which must have the sender's shapes.
inline Status loadTensorBytes(const std::vector<torch::Tensor> &tensors,
                              const std::vector<uint8_t> &bytes) {
  torch::NoGradGuard noGrad;
  size_t offset = 0;
  for (torch::Tensor tensor : tensors) {
    size_t size = tensor.numel() * sizeof(float);
    if (offset + size > bytes.size())
      break;
    tensor.copy_(torch::from_blob(const_cast<uint8_t *>(bytes.data() + offset),
                                  tensor.sizes(), torch::kFloat));
    offset += size;
  }
  if (offset != bytes.size())
    return makeError("the learner's weights do not fit this rank's network");
  return Status::success();
}

} // namespace rlopt::agent

#endif
