#include "rlopt/eval/AgentSpec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace rlopt::eval {

namespace {

constexpr const char *kRandom = "random:";
constexpr const char *kRandomTime = "random-time:";
constexpr const char *kPolicy = "policy:";
constexpr const char *kGuided = "guided:";
constexpr const char *kGuidedTime = "guided-time:";
constexpr const char *kSearch = "search:";
/// More episodes or seconds than any evaluation here needs; the bound also
/// keeps `inf`, `1e400` and overflowing counts out.
constexpr int64_t kMaxEpisodes = 1000000;
constexpr double kMaxSeconds = 86400;

bool startsWith(const std::string &text, const char *prefix) {
  return text.rfind(prefix, 0) == 0;
}

std::string expected(const AgentChoices &choices) {
  std::string list;
  for (const std::string &name : choices.fixed)
    list += name + ", ";
  list += "random:N, ";
  if (choices.timed)
    list += "random-time:SECONDS, ";
  if (choices.guided)
    list += "guided:K:PATH, guided-time:SECONDS:PATH, ";
  if (choices.searched)
    list += "search:N, search:N:PATH, ";
  return list + "or policy:PATH";
}

/// `text` as a count in 1..kMaxEpisodes, if it is one.
std::optional<int64_t> parseCount(const std::string &text) {
  char *end = nullptr;
  errno = 0;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || n < 1 || n > kMaxEpisodes)
    return std::nullopt;
  return n;
}

/// What follows `prefix` in `text`: a budget, then `:PATH` if there is a
/// colon (the path may itself hold colons).
struct BudgetAndPath {
  std::string budget, path;
  bool hasPath = false;
};

BudgetAndPath splitBudget(const std::string &text, const char *prefix) {
  std::string rest = text.substr(std::string(prefix).size());
  size_t colon = rest.find(':');
  if (colon == std::string::npos)
    return {rest, "", false};
  return {rest.substr(0, colon), rest.substr(colon + 1), true};
}

/// `text` as seconds in (0, kMaxSeconds], if it is that.
std::optional<double> parseSeconds(const std::string &text) {
  char *end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > kMaxSeconds)
    return std::nullopt;
  return seconds;
}

} // namespace

std::string AgentSpec::name() const {
  char seconds[32];
  switch (kind) {
  case Kind::Fixed:
    return fixed;
  case Kind::Random:
    return kRandom + std::to_string(episodes);
  case Kind::RandomTime:
    std::snprintf(seconds, sizeof(seconds), "%g", this->seconds);
    return kRandomTime + std::string(seconds);
  case Kind::Policy:
    if (this->seconds > 0) {
      std::snprintf(seconds, sizeof(seconds), "%g", this->seconds);
      return kGuidedTime + std::string(seconds) + ":" + policyPath;
    }
    if (episodes > 1)
      return kGuided + std::to_string(episodes) + ":" + policyPath;
    return kPolicy + policyPath;
  case Kind::Search:
    return kSearch + std::to_string(episodes) +
           (policyPath.empty() ? "" : ":" + policyPath);
  }
  return fixed;
}

Result<AgentSpec> AgentSpec::parse(const std::string &text,
                                   const AgentChoices &choices) {
  AgentSpec spec;
  if (startsWith(text, kRandom)) {
    auto n = parseCount(text.substr(std::string(kRandom).size()));
    if (!n)
      return makeError("agent '" + text + "': random:N needs N in 1.." +
                       std::to_string(kMaxEpisodes) + " episodes" +
                       (choices.timed ? " (random-time:SECONDS searches for "
                                        "a time)"
                                      : ""));
    spec.kind = Kind::Random;
    spec.episodes = *n;
    return spec;
  }
  if (startsWith(text, kSearch) && choices.searched) {
    BudgetAndPath parts = splitBudget(text, kSearch);
    auto n = parseCount(parts.budget);
    if (!n || (parts.hasPath && parts.path.empty()))
      return makeError("agent '" + text + "': search:N[:PATH] needs N in 1.." +
                       std::to_string(kMaxEpisodes) +
                       " measured schedules (and PATH a policy file)");
    spec.kind = Kind::Search;
    spec.episodes = *n;
    spec.policyPath = parts.path;
    return spec;
  }
  if (startsWith(text, kRandomTime) && choices.timed) {
    auto seconds = parseSeconds(text.substr(std::string(kRandomTime).size()));
    if (!seconds)
      return makeError("agent '" + text +
                       "': random-time:SECONDS needs SECONDS in (0, 86400]");
    spec.kind = Kind::RandomTime;
    spec.seconds = *seconds;
    return spec;
  }
  if (startsWith(text, kGuidedTime) && choices.guided) {
    BudgetAndPath parts = splitBudget(text, kGuidedTime);
    auto seconds = parseSeconds(parts.budget);
    if (parts.path.empty() || !seconds)
      return makeError("agent '" + text +
                       "': guided-time:SECONDS:PATH needs SECONDS in "
                       "(0, 86400] and a policy file");
    spec.kind = Kind::Policy;
    spec.episodes = 1;
    spec.seconds = *seconds;
    spec.policyPath = parts.path;
    return spec;
  }
  if (startsWith(text, kPolicy) && text.size() > std::string(kPolicy).size()) {
    spec.kind = Kind::Policy;
    spec.episodes = 1;
    spec.policyPath = text.substr(std::string(kPolicy).size());
    return spec;
  }
  if (startsWith(text, kGuided) && choices.guided) {
    BudgetAndPath parts = splitBudget(text, kGuided);
    auto n = parseCount(parts.budget);
    if (parts.path.empty() || !n)
      return makeError("agent '" + text + "': guided:K:PATH needs K in 1.." +
                       std::to_string(kMaxEpisodes) +
                       " episodes and a policy file");
    spec.kind = Kind::Policy;
    spec.episodes = *n;
    spec.policyPath = parts.path;
    return spec;
  }
  for (const std::string &name : choices.fixed)
    if (text == name) {
      spec.fixed = name;
      return spec;
    }
  return makeError("unknown agent '" + text + "' (expected " +
                   expected(choices) + ")");
}

Result<AgentSpec> AgentSpec::parse(const std::string &text) {
  return parse(text, {{"naive", "heuristic"}, false, false, true});
}

std::string policyPathOf(const std::string &text) {
  // Every form that names a policy, parsed by the one grammar.
  auto spec = AgentSpec::parse(text, {{}, false, true});
  return spec && spec->kind == AgentSpec::Kind::Policy ? spec->policyPath : "";
}

} // namespace rlopt::eval
