#ifndef RLOPT_LINALG_ACTIONLAYOUT_H
#define RLOPT_LINALG_ACTIONLAYOUT_H

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlopt::linalg {

/// The Linalg environment's observation and action layout as plain numbers,
/// so that policies (agent/linalg) need no MLIR header.
struct ActionLayout {
  int featureVersion = 0;
  int opFeatureSize = 0;   ///< consumer block, then producer block
  int extraFeatures = 0;   ///< interchange state and progress, at the end
  int interchangeFlag = 0; ///< index of the "choosing interchange" flag
  int numTypes = 0, maxLoops = 0, numTileSizes = 0;
  int tileType = 0, parallelizeType = 0, fuseType = 0, interchangeType = 0;
  /// Choices of the interchange head: maxLoops for level pointers, or the
  /// number of enumerated candidates.
  int interchangeChoices = 0;
  bool enumeratedInterchange = false;
  /// Opt-in transformations after the base set (EnvConfig), and which of
  /// them read the tile or the parallel heads.
  std::vector<std::string> extraTransformations;
  std::vector<int> extraTileTypes, extraParallelTypes;
  int pointerChoices() const {
    return interchangeChoices > 0 ? interchangeChoices : maxLoops;
  }

  int observationSize() const { return 2 * opFeatureSize + extraFeatures; }
  int tileHead(int level) const { return 1 + level; }
  int parallelHead(int level) const { return 1 + maxLoops + level; }
  int pointerHead() const { return 1 + 2 * maxLoops; }
  int numHeads() const { return 2 + 2 * maxLoops; }

  nlohmann::json toJson() const;
  static ActionLayout fromJson(const nlohmann::json &json);
  bool operator==(const ActionLayout &other) const {
    return toJson() == other.toJson();
  }
};

inline nlohmann::json ActionLayout::toJson() const {
  nlohmann::json json = {{"feature_version", featureVersion},
                         {"op_feature_size", opFeatureSize},
                         {"extra_features", extraFeatures},
                         {"interchange_flag", interchangeFlag},
                         {"num_types", numTypes},
                         {"max_loops", maxLoops},
                         {"num_tile_sizes", numTileSizes},
                         {"tile_type", tileType},
                         {"parallelize_type", parallelizeType},
                         {"fuse_type", fuseType},
                         {"interchange_type", interchangeType},
                         {"interchange_choices", interchangeChoices},
                         {"enumerated_interchange", enumeratedInterchange}};
  // Written only when present, so that base-set layouts read as before.
  if (!extraTransformations.empty()) {
    json["extra_transformations"] = extraTransformations;
    json["extra_tile_types"] = extraTileTypes;
    json["extra_parallel_types"] = extraParallelTypes;
  }
  return json;
}

inline ActionLayout ActionLayout::fromJson(const nlohmann::json &json) {
  ActionLayout l;
  l.featureVersion = json.value("feature_version", 0);
  l.opFeatureSize = json.value("op_feature_size", 0);
  l.extraFeatures = json.value("extra_features", 0);
  l.interchangeFlag = json.value("interchange_flag", 0);
  l.numTypes = json.value("num_types", 0);
  l.maxLoops = json.value("max_loops", 0);
  l.numTileSizes = json.value("num_tile_sizes", 0);
  l.tileType = json.value("tile_type", 0);
  l.parallelizeType = json.value("parallelize_type", 0);
  l.fuseType = json.value("fuse_type", 0);
  l.interchangeType = json.value("interchange_type", 0);
  // Layouts written before the enumerated ablation have no such key: their
  // interchange head picked among the loop levels.
  l.interchangeChoices = json.value("interchange_choices", l.maxLoops);
  l.enumeratedInterchange = json.value("enumerated_interchange", false);
  l.extraTransformations =
      json.value("extra_transformations", std::vector<std::string>{});
  l.extraTileTypes = json.value("extra_tile_types", std::vector<int>{});
  l.extraParallelTypes = json.value("extra_parallel_types", std::vector<int>{});
  return l;
}

} // namespace rlopt::linalg

#endif
