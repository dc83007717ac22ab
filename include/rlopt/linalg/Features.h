#ifndef RLOPT_LINALG_FEATURES_H
#define RLOPT_LINALG_FEATURES_H

#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Transformation.h"

#include <vector>

namespace rlopt::linalg {

/// Version of the feature layout below; a policy records the version it was
/// trained with and refuses other layouts.
constexpr int kFeatureLayoutVersion = 1;

/// Size of one op's feature block.
size_t opFeatureSize(const EnvConfig &config);

/// Appends one op's features: class one-hot, log2 of the original and the
/// current loop ranges, reduction and partial-tile flags per level, access
/// matrices (loads then stores, padded), arithmetic counts, state flags and
/// the count of each of the environment's transformation `types` applied so
/// far. `op` may be null (zeros).
void appendOpFeatures(const EnvConfig &config,
                      const std::vector<const Transformation *> &types,
                      const OpState *op, std::vector<float> &out);

} // namespace rlopt::linalg

#endif
