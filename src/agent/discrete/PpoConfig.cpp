#include "rlopt/agent/discrete/Ppo.h"

#include "rlopt/agent/TrainerFields.h"

namespace rlopt::agent::discrete {

template <typename Visit> static void visitFields(PpoConfig &c, Visit &&visit) {
  visitPpoUpdateFields(c, visit);
  visitDiscreteRunFields(c, visit);
  visit("adam_epsilon", c.adamEpsilon);
  visit("minibatch_size", c.minibatchSize);
  visit("normalize_advantages", c.normalizeAdvantages);
  visit("rank_timeout_seconds", c.rankTimeoutSeconds);
}

static Status checkFields(const PpoConfig &c, const std::string &where) {
  return firstError({
      checkPpoUpdateFields(c, where),
      checkDiscreteRunFields(c, where),
      require(c.adamEpsilon > 0, where, "adam_epsilon", "positive"),
      require(c.minibatchSize >= 1, where, "minibatch_size", "at least 1"),
      require(c.rankTimeoutSeconds > 0, where, "rank_timeout_seconds",
              "positive"),
  });
}

RLOPT_CONFIG_JSON_FROM_FIELDS(PpoConfig)

} // namespace rlopt::agent::discrete
