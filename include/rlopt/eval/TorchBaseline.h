#ifndef RLOPT_EVAL_TORCHBASELINE_H
#define RLOPT_EVAL_TORCHBASELINE_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/ExternalBaseline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rlopt::eval {

/// LibTorch eager (the C++ library behind PyTorch) running the op a suite
/// benchmark describes, from its manifest class and shapes: what a PyTorch
/// user would write. Weights are laid out once as PyTorch keeps them (not
/// timed); activations stay in the program's layout (channels-last views
/// for NHWC). Classes it does not cover give an error, never a guess.
Result<linalg::ExternalBaseline> torchBaseline(const std::string &opClass,
                                               const nlohmann::json &shapes,
                                               int threads);

/// LibTorch's build configuration: BLAS, oneDNN (MKLDNN) and OpenMP.
std::string torchConfiguration();

} // namespace rlopt::eval

#endif
