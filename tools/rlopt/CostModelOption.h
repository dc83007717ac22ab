#ifndef RLOPT_TOOLS_COSTMODELOPTION_H
#define RLOPT_TOOLS_COSTMODELOPTION_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt::tool {

/// The model file `--cost-model` names: the shipped one when `text` is
/// empty, none (empty) for "none"; an error when the file does not exist,
/// which suggests `noModel`, how the setting asks for none.
Result<std::string>
costModelPath(const std::string &text,
              const std::string &noModel = "--cost-model none");

} // namespace rlopt::tool

#endif
