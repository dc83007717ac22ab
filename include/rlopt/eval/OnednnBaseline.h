#ifndef RLOPT_EVAL_ONEDNNBASELINE_H
#define RLOPT_EVAL_ONEDNNBASELINE_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/ExternalBaseline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rlopt::eval {

/// oneDNN (the vendor library, called directly) running the op a suite
/// benchmark describes, from its manifest class and shapes: matmul,
/// batch_matmul, conv_2d (nhwc_hwcf and nchw_fchw), depthwise_conv_2d
/// (nhwc_hwc), max_pool and avg_pool (nhwc), f32. It reads and writes the
/// program's own tensors; convolution weights are reordered once, untimed,
/// into the layout oneDNN picks. The baseline's `info` names the oneDNN
/// implementation that runs. Other classes give an error, never a guess.
Result<linalg::ExternalBaseline> onednnBaseline(const std::string &opClass,
                                                const nlohmann::json &shapes,
                                                int threads);

/// oneDNN's version and threading runtime, e.g. "oneDNN 2.6.3 (OpenMP)".
std::string onednnConfiguration();

} // namespace rlopt::eval

#endif
