#include "rlopt/agent/linalg/Batch.h"

namespace rlopt::agent {

std::vector<uint8_t> flatMask(const Observation &obs) {
  std::vector<uint8_t> flat;
  for (const auto &head : obs.masks)
    flat.insert(flat.end(), head.begin(), head.end());
  return flat;
}

torch::Tensor stackFloats(const std::vector<const std::vector<float> *> &rows) {
  int64_t width = rows.empty() ? 0 : rows[0]->size();
  torch::Tensor t = torch::empty({(int64_t)rows.size(), width});
  for (size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i]->begin(), rows[i]->end(), t[i].data_ptr<float>());
  return t;
}

torch::Tensor
stackBytes(const std::vector<const std::vector<uint8_t> *> &rows) {
  int64_t width = rows.empty() ? 0 : rows[0]->size();
  torch::Tensor t = torch::empty({(int64_t)rows.size(), width}, torch::kUInt8);
  for (size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i]->begin(), rows[i]->end(), t[i].data_ptr<uint8_t>());
  return t;
}

} // namespace rlopt::agent
