#ifndef RLOPT_LINALG_FEATURES_H
#define RLOPT_LINALG_FEATURES_H

#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Transformation.h"

#include <vector>

namespace rlopt::linalg {

/// Newest feature layout (EnvConfig::featureVersion); a policy records the
/// version it was trained with and refuses other layouts.
constexpr unsigned kLatestFeatureVersion = 2;

/// Size of one op's feature block.
size_t opFeatureSize(const EnvConfig &config);

/// Appends one op's features: class one-hot, log2 of the original and the
/// current loop ranges, reduction and partial-tile flags per level, access
/// matrices (loads then stores, padded), arithmetic counts, state flags and
/// the count of each of the environment's transformation `types` applied so
/// far. Version 2 then adds, per loop level and nonzero tile candidate, 1 if
/// the candidate divides the current range, -1 if it exceeds it, else 0: the
/// log2 of a range cannot tell 56 from 64, and which tiles divide is what a
/// tile choice turns on. `op` may be null (zeros).
void appendOpFeatures(const EnvConfig &config,
                      const std::vector<const Transformation *> &types,
                      const OpState *op, std::vector<float> &out);

} // namespace rlopt::linalg

#endif
