#ifndef RLOPT_AGENT_LINALG_BATCH_H
#define RLOPT_AGENT_LINALG_BATCH_H

#include "rlopt/core/Env.h"

#include <torch/torch.h>

#include <vector>

namespace rlopt::agent {

/// The per-head masks of `obs` in one row, heads in order.
std::vector<uint8_t> flatMask(const Observation &obs);

/// Rows of equal length stacked into a [rows, width] tensor.
torch::Tensor stackFloats(const std::vector<const std::vector<float> *> &rows);
torch::Tensor stackBytes(const std::vector<const std::vector<uint8_t> *> &rows);

} // namespace rlopt::agent

#endif
