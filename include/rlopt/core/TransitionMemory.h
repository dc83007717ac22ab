#ifndef RLOPT_CORE_TRANSITIONMEMORY_H
#define RLOPT_CORE_TRANSITIONMEMORY_H

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace rlopt {

/// What each action did during one episode of a deterministic environment,
/// with states named by a hash of their content. An action taken before
/// from the current state leads where it led then: to the same state (it
/// changes nothing) or to another state the episode has already been in (a
/// cycle, such as sink, loop-fusion, sink, ...). Either wastes a step, so
/// an environment may mask such actions.
class TransitionMemory {
public:
  /// A new episode starts in `state`.
  void reset(uint64_t state) {
    transitions.clear();
    current = state;
  }

  /// `action` took the episode from the current state to `after`.
  void record(int action, uint64_t after) {
    transitions[{current, action}] = after;
    current = after;
  }

  /// Where `action` leads from the current state, if it was taken there.
  std::optional<uint64_t> known(int action) const {
    auto it = transitions.find({current, action});
    if (it == transitions.end())
      return std::nullopt;
    return it->second;
  }

  uint64_t state() const { return current; }

  /// It was taken from the current state and changed nothing.
  bool knownUnchanged(int action) const { return known(action) == current; }

  /// Clears `mask` where an action is known to change nothing or, with
  /// `revisits`, known to lead to any state seen before. A mask that would
  /// allow nothing is left as it was: when every action is a known no-op
  /// the episode can still run to its length.
  void maskKnown(std::vector<uint8_t> &mask, bool revisits) const {
    std::vector<uint8_t> masked = mask;
    for (size_t a = 0; a < masked.size(); ++a) {
      std::optional<uint64_t> to = known(static_cast<int>(a));
      if (to && (revisits || *to == current))
        masked[a] = 0;
    }
    for (uint8_t allowed : masked)
      if (allowed) {
        mask = std::move(masked);
        return;
      }
  }

private:
  std::map<std::pair<uint64_t, int>, uint64_t> transitions;
  uint64_t current = 0;
};

} // namespace rlopt

#endif
