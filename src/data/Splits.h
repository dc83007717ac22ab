// Train/validation/test over shape keys, shared by the suites that draw
// splits.
#ifndef RLOPT_SRC_DATA_SPLITS_H
#define RLOPT_SRC_DATA_SPLITS_H

#include "Rng.h"

#include <map>
#include <string>
#include <vector>

namespace rlopt::data::detail {

/// One benchmark's class (an index below `numClasses`) and shape key.
struct KeyedItem {
  size_t classIndex = 0;
  std::string shapeKey;
};

/// Draws a split for every shape key of `items`, class by class. Each
/// class takes test and validation keys so that the running totals stay at
/// 15 % each of the keys seen so far, and at least one of each once it has
/// 3 (test) or 6 (validation) keys; it always keeps one training key. A key
/// already given a split by an earlier class keeps it, so no key spans two
/// splits. Classes with few keys go first: they have the least room.
std::map<std::string, std::string>
drawSplits(const std::vector<KeyedItem> &items, size_t numClasses, Rng &rng);

} // namespace rlopt::data::detail

#endif
