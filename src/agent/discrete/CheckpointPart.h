// A trainer names what its checkpoint holds once, as parts; DiscreteRun
// writes them at every checkpoint and reads them back on resume, so writing
// and reading cannot drift apart.
#ifndef RLOPT_SRC_AGENT_DISCRETE_CHECKPOINTPART_H
#define RLOPT_SRC_AGENT_DISCRETE_CHECKPOINTPART_H

#include "rlopt/core/Result.h"

#include <torch/torch.h>

#include <functional>
#include <string>

namespace rlopt::agent::discrete {

/// One part of a trainer's checkpoint under its key: written at every
/// checkpoint, read back when the run resumes.
struct CheckpointPart {
  std::function<void(torch::serialize::OutputArchive &)> write;
  std::function<Status(torch::serialize::InputArchive &,
                       const std::string &where)>
      read;
};
/// A network's parameters and buffers.
CheckpointPart moduleState(const std::string &key, torch::nn::Module &module);
/// An optimizer's state.
CheckpointPart optimizerState(const std::string &key,
                              torch::optim::Optimizer &optimizer);
/// A learned tensor outside any network (SAC's log temperature).
CheckpointPart tensorState(const std::string &key, torch::Tensor tensor);

} // namespace rlopt::agent::discrete

#endif
