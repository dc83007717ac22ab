// Any bytes as a policy file: the loaders of both kinds of policy answer
// with a policy or a one-line error.
#include "FuzzInput.h"

#include "rlopt/agent/discrete/Policy.h"
#include "rlopt/agent/linalg/LinalgPolicy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace rlopt;
  std::string path = fuzz::asFile(data, size, ".pt");
  Spaces spaces;
  spaces.observation.shape = {56};
  spaces.action.nvec = {124};
  (void)agent::discrete::DiscretePolicy::load(path, spaces);
  (void)agent::LinalgPolicy::load(path, linalg::ActionLayout{});
  return 0;
}
