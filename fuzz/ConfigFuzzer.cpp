// Any text through every JSON config reader: each answers with a config or
// a one-line error, never a crash, an abort or an exception.
#include "FuzzInput.h"

#include "rlopt/agent/discrete/A2c.h"
#include "rlopt/agent/discrete/Dqn.h"
#include "rlopt/agent/discrete/Ppo.h"
#include "rlopt/agent/discrete/Sac.h"
#include "rlopt/agent/linalg/Ppo.h"
#include "rlopt/core/Json.h"
#include "rlopt/eval/AgentSpec.h"
#include "rlopt/graph/GraphEnv.h"
#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/passes/PassesEnv.h"

#include <cstdlib>
#include <type_traits>
#include <utility>

namespace {

template <typename T, typename = void> struct HasToJson : std::false_type {};
template <typename T>
struct HasToJson<T, std::void_t<decltype(std::declval<T>().toJson())>>
    : std::true_type {};

template <typename Config> void read(const nlohmann::json &json) {
  auto config = Config::fromJson(json, "fuzz.json");
  // A config it accepted, written out, is accepted again.
  if constexpr (HasToJson<Config>::value)
    if (config && !Config::fromJson(config->toJson(), "again.json"))
      std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace rlopt;
  std::string text = fuzz::asText(data, size);
  (void)eval::AgentSpec::parse(text);
  auto json = parseJson(text, "fuzz.json");
  if (!json)
    return 0;
  read<passes::PassesEnvConfig>(*json);
  read<graph::GraphEnvConfig>(*json);
  read<linalg::EnvConfig>(*json);
  read<agent::discrete::PpoConfig>(*json);
  read<agent::discrete::A2cConfig>(*json);
  read<agent::discrete::DqnConfig>(*json);
  read<agent::discrete::SacConfig>(*json);
  read<agent::PpoConfig>(*json);
  return 0;
}
