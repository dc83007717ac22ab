#ifndef RLOPT_COSTMODEL_RANKING_H
#define RLOPT_COSTMODEL_RANKING_H

#include "rlopt/costmodel/CostModel.h"

#include <vector>

namespace rlopt::costmodel {

/// How well scores order the candidates of each program, averaged over the
/// programs with two or more candidates (TpuGraphs' layout metrics).
struct RankingQuality {
  size_t programs = 0;
  size_t samples = 0;
  double kendallTau = 0; ///< mean over programs; 1: same order as measured
  /// Mean over programs of best / best-among-the-top-k-scored - 1: how much
  /// slower the fastest of the k candidates the model picks is than the
  /// fastest measured one. 0 is perfect.
  double top1Regret = 0;
  double top5Regret = 0;
};

/// Kendall's tau-b of two equally long sequences; 0 when either is constant.
double kendallTau(const std::vector<double> &a, const std::vector<double> &b);

/// Compares each program's order by `scores` (one per sample) with the
/// measured one.
RankingQuality rankingQuality(const std::vector<double> &scores,
                              const std::vector<CostSample> &samples);

/// Scores `samples` with `model`, then rankingQuality(scores, samples).
Result<RankingQuality> rankingQuality(const CostModel &model,
                                      const std::vector<CostSample> &samples);

} // namespace rlopt::costmodel

#endif
