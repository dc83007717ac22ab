#include "rlopt/linalg/Features.h"

#include <cmath>

namespace rlopt::linalg {

static constexpr unsigned kNumClasses = 8;
static constexpr unsigned kNumArith = 6;
static constexpr unsigned kNumFlags = 6;

static size_t divisibilityFeatureSize(const EnvConfig &c) {
  return c.featureVersion >= 2 ? c.maxLoops * (c.tileSizes.size() - 1) : 0;
}

size_t opFeatureSize(const EnvConfig &c) {
  return kNumClasses + 4 * c.maxLoops +
         c.maxOperands * c.maxRank * (c.maxLoops + 1) + kNumArith + kNumFlags +
         actionTransformations(c.extraTransformations).size() +
         divisibilityFeatureSize(c);
}

static float logScale(int64_t value) {
  return std::log2(1.0f + static_cast<float>(value)) / 16.0f;
}

/// One value per loop level and nonzero tile candidate (Features.h).
static void appendDivisibility(const EnvConfig &c, const OpState &op,
                               float *f) {
  if (divisibilityFeatureSize(c) == 0)
    return;
  size_t candidates = c.tileSizes.size() - 1;
  for (unsigned l = 0; l < c.maxLoops && l < op.numLoops(); ++l)
    for (size_t i = 0; i < candidates; ++i) {
      int64_t range = op.ranges[l], tile = c.tileSizes[i + 1];
      f[l * candidates + i] = tile > range ? -1.0f : range % tile == 0;
    }
}

void appendOpFeatures(const EnvConfig &c,
                      const std::vector<const Transformation *> &types,
                      const OpState *op, std::vector<float> &out) {
  size_t start = out.size();
  out.resize(start + opFeatureSize(c), 0.0f);
  if (!op)
    return;
  float *f = out.data() + start;
  const OpInfo &info = *op->info;
  f[static_cast<unsigned>(op->opClass)] = 1;
  f += kNumClasses;
  for (unsigned l = 0; l < c.maxLoops; ++l) {
    if (l < info.numLoops())
      f[l] = logScale(info.loopRanges[l]);
    if (l < op->numLoops()) {
      f[c.maxLoops + l] = logScale(op->ranges[l]);
      f[2 * c.maxLoops + l] = op->isReduction[l];
      f[3 * c.maxLoops + l] = op->partial[l];
    }
  }
  f += 4 * c.maxLoops;
  std::vector<const AccessMatrix *> matrices;
  for (const AccessMatrix &m : info.loads)
    matrices.push_back(&m);
  for (const AccessMatrix &m : info.stores)
    matrices.push_back(&m);
  for (unsigned m = 0; m < matrices.size() && m < c.maxOperands; ++m) {
    const AccessMatrix &matrix = *matrices[m];
    for (unsigned r = 0; r < matrix.size() && r < c.maxRank; ++r) {
      float *row = f + (m * c.maxRank + r) * (c.maxLoops + 1);
      const std::vector<int64_t> &coefficients = matrix[r];
      unsigned loops = coefficients.size() - 1;
      for (unsigned l = 0; l < loops && l < c.maxLoops; ++l)
        row[l] = static_cast<float>(coefficients[l]);
      row[c.maxLoops] = static_cast<float>(coefficients[loops]) / 8.0f;
    }
  }
  f += c.maxOperands * c.maxRank * (c.maxLoops + 1);
  const ArithCounts &a = info.arith;
  for (int count : {a.add, a.sub, a.mul, a.div, a.transcendental, a.other})
    *f++ = static_cast<float>(count) / 4.0f;
  for (bool flag : {op->generalized, op->parallelized, op->vectorized,
                    op->img2col, op->fusedInto >= 0, op->stopped})
    *f++ = flag;
  for (const TransformStep &step : op->history)
    for (size_t t = 0; t < types.size(); ++t)
      if (step.name == types[t]->name)
        f[t] += 1.0f / c.stepsPerOp;
  appendDivisibility(c, *op,
                     out.data() + start + opFeatureSize(c) -
                         divisibilityFeatureSize(c));
}

} // namespace rlopt::linalg
