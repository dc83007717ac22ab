#include "rlopt/eval/AgentSpec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rlopt::eval {

namespace {

constexpr const char *kRandom = "random:";
constexpr const char *kRandomTime = "random-time:";
constexpr const char *kPolicy = "policy:";
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
  return list + "or policy:PATH";
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
    return kPolicy + policyPath;
  }
  return fixed;
}

Result<AgentSpec> AgentSpec::parse(const std::string &text,
                                   const AgentChoices &choices) {
  AgentSpec spec;
  if (startsWith(text, kRandom)) {
    std::string count = text.substr(std::string(kRandom).size());
    char *end = nullptr;
    errno = 0;
    long long n = std::strtoll(count.c_str(), &end, 10);
    if (count.empty() || *end || errno || n < 1 || n > kMaxEpisodes)
      return makeError("agent '" + text + "': random:N needs N in 1.." +
                       std::to_string(kMaxEpisodes) + " episodes" +
                       (choices.timed ? " (random-time:SECONDS searches for "
                                        "a time)"
                                      : ""));
    spec.kind = Kind::Random;
    spec.episodes = n;
    return spec;
  }
  if (startsWith(text, kRandomTime) && choices.timed) {
    std::string value = text.substr(std::string(kRandomTime).size());
    char *end = nullptr;
    double seconds = std::strtod(value.c_str(), &end);
    if (value.empty() || *end || !std::isfinite(seconds) || seconds <= 0 ||
        seconds > kMaxSeconds)
      return makeError("agent '" + text +
                       "': random-time:SECONDS needs SECONDS in (0, 86400]");
    spec.kind = Kind::RandomTime;
    spec.seconds = seconds;
    return spec;
  }
  if (startsWith(text, kPolicy) && text.size() > std::string(kPolicy).size()) {
    spec.kind = Kind::Policy;
    spec.policyPath = policyPathOf(text);
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
  return parse(text, {{"naive", "heuristic"}, false});
}

std::string policyPathOf(const std::string &text) {
  return startsWith(text, kPolicy) ? text.substr(std::string(kPolicy).size())
                                   : "";
}

} // namespace rlopt::eval
