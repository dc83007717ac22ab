#ifndef RLOPT_CORE_SPLITS_H
#define RLOPT_CORE_SPLITS_H

#include "rlopt/core/Result.h"

#include <string>
#include <vector>

namespace rlopt {

/// A dataset's train and test split, as its splits.json lists them:
/// `{"about": "...", "train": [names], "test": [names]}`. A split left out
/// holds every name the other does not; at least one is given.
struct Splits {
  std::vector<std::string> train, test;

  /// The names of `split` ("train", "test" or "all": `names` as given).
  Result<std::vector<std::string>>
  of(const std::string &split, const std::vector<std::string> &names) const;
};

/// Reads the splits.json at `path`, whose entries must be among `names`,
/// none in both splits; an unknown key, a wrong type or a stray name is a
/// one-line error naming the file.
Result<Splits> readSplits(const std::string &path,
                          const std::vector<std::string> &names);

} // namespace rlopt

#endif
