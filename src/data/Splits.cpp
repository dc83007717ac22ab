#include "Splits.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rlopt::data::detail {

std::map<std::string, std::string>
drawSplits(const std::vector<KeyedItem> &items, size_t numClasses, Rng &rng) {
  constexpr double kShare = 0.15;
  std::vector<std::vector<std::string>> keysOf(numClasses);
  for (const KeyedItem &item : items) {
    std::vector<std::string> &keys = keysOf[item.classIndex];
    if (std::find(keys.begin(), keys.end(), item.shapeKey) == keys.end())
      keys.push_back(item.shapeKey);
  }
  std::vector<size_t> order;
  for (size_t cls = 0; cls < numClasses; ++cls)
    order.push_back(cls);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return keysOf[a].size() < keysOf[b].size();
  });

  std::map<std::string, std::string> splitOf;
  std::set<std::string> seen;
  std::map<std::string, long> total; // keys per split so far
  for (size_t cls : order) {
    std::vector<std::string> fresh;
    std::map<std::string, long> mine;
    for (const std::string &key : keysOf[cls]) {
      seen.insert(key);
      auto it = splitOf.find(key);
      if (it == splitOf.end())
        fresh.push_back(key);
      else
        ++mine[it->second];
    }
    size_t n = keysOf[cls].size();
    long expected = std::lround(kShare * double(seen.size()));
    long wantTest =
        std::max(expected - total["test"], long(n >= 3 && mine["test"] == 0));
    long wantValidation = std::max(expected - total["validation"],
                                   long(n >= 6 && mine["validation"] == 0));
    long room = long(fresh.size()) - (mine["train"] == 0 ? 1 : 0);
    rng.shuffle(fresh);
    for (const std::string &key : fresh) {
      std::string split = "train";
      if (wantTest > 0 && room > 0) {
        split = "test";
        --wantTest;
        --room;
      } else if (wantValidation > 0 && room > 0) {
        split = "validation";
        --wantValidation;
        --room;
      }
      splitOf[key] = split;
      ++total[split];
    }
  }
  return splitOf;
}

} // namespace rlopt::data::detail
