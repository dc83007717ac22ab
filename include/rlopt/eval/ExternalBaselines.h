#ifndef RLOPT_EVAL_EXTERNALBASELINES_H
#define RLOPT_EVAL_EXTERNALBASELINES_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/ExternalBaseline.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::eval {

/// The names `rlopt eval --baselines` accepts: "torch" (LibTorch eager) and
/// "onednn" (oneDNN called directly).
const std::vector<std::string> &externalBaselineNames();

/// The baseline `name` for one benchmark of a suite, from its manifest
/// class and shapes, or why it cannot run it.
Result<linalg::ExternalBaseline>
makeExternalBaseline(const std::string &name, const std::string &opClass,
                     const nlohmann::json &shapes, int threads);

} // namespace rlopt::eval

#endif
