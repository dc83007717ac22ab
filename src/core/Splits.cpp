#include "rlopt/core/Splits.h"
#include "rlopt/core/Json.h"

#include <set>

namespace rlopt {

Result<std::vector<std::string>>
Splits::of(const std::string &split,
           const std::vector<std::string> &names) const {
  if (split == "all")
    return names;
  if (split == "train")
    return train;
  if (split == "test")
    return test;
  return makeError("split '" + split + "': expected train, test or all");
}

Result<Splits> readSplits(const std::string &path,
                          const std::vector<std::string> &names) {
  auto json = readJsonFile(path);
  if (!json)
    return json.error();
  if (!json->is_object())
    return makeError(path + ": expected an object with train and test arrays");
  const std::set<std::string> known(names.begin(), names.end());
  std::set<std::string> inTrain, inTest;
  for (const auto &[key, value] : json->items()) {
    if (key == "about") {
      if (!value.is_string())
        return makeError(path + ": about: expected a string");
      continue;
    }
    if (key != "train" && key != "test")
      return makeError(path + ": unknown key '" + key +
                       "' (expected train, test and about)");
    if (!value.is_array())
      return makeError(path + ": " + key + ": expected an array of names");
    std::set<std::string> &split = key == "train" ? inTrain : inTest;
    for (const auto &name : value) {
      if (!name.is_string() || !known.count(name.get<std::string>()))
        return makeError(path + ": " + key + ": " + name.dump() +
                         " is not a program of the dataset");
      std::string text = name.get<std::string>();
      if (inTrain.count(text) || inTest.count(text))
        return makeError(path + ": " + name.dump() + " is in two splits");
      split.insert(text);
    }
  }
  bool hasTrain = json->contains("train"), hasTest = json->contains("test");
  if (!hasTrain && !hasTest)
    return makeError(path + ": expected a train or a test array");
  // In the dataset's order; a split left out is the rest of the dataset.
  Splits splits;
  for (const std::string &name : names) {
    if (inTest.count(name) || (!hasTest && !inTrain.count(name)))
      splits.test.push_back(name);
    else if (inTrain.count(name) || !hasTrain)
      splits.train.push_back(name);
  }
  return splits;
}

} // namespace rlopt
