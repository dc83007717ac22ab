#include "rlopt/eval/ExternalBaselines.h"

#include "rlopt/eval/OnednnBaseline.h"
#include "rlopt/eval/TorchBaseline.h"

namespace rlopt::eval {

const std::vector<std::string> &externalBaselineNames() {
  static const std::vector<std::string> names = {"torch", "onednn"};
  return names;
}

Result<linalg::ExternalBaseline>
makeExternalBaseline(const std::string &name, const std::string &opClass,
                     const nlohmann::json &shapes, int threads) {
  if (name == "torch")
    return torchBaseline(opClass, shapes, threads);
  if (name == "onednn")
    return onednnBaseline(opClass, shapes, threads);
  return makeError("unknown baseline '" + name +
                   "' (expected torch or onednn)");
}

} // namespace rlopt::eval
