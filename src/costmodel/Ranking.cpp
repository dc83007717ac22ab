#include "rlopt/costmodel/Ranking.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace rlopt::costmodel {

double kendallTau(const std::vector<double> &a, const std::vector<double> &b) {
  double concordant = 0, discordant = 0, tiesA = 0, tiesB = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j) {
      double da = a[i] - a[j], db = b[i] - b[j];
      if (da == 0 && db == 0)
        continue;
      if (da == 0)
        ++tiesA;
      else if (db == 0)
        ++tiesB;
      else if ((da > 0) == (db > 0))
        ++concordant;
      else
        ++discordant;
    }
  double denominator = std::sqrt((concordant + discordant + tiesA) *
                                 (concordant + discordant + tiesB));
  return denominator > 0 ? (concordant - discordant) / denominator : 0;
}

/// best / (the best of the k highest scored) - 1, in speedup terms.
static double topKRegret(const std::vector<double> &scores,
                         const std::vector<double> &logSpeedups, size_t k) {
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return scores[x] > scores[y]; });
  double picked = -INFINITY;
  for (size_t i = 0; i < std::min(k, order.size()); ++i)
    picked = std::max(picked, logSpeedups[order[i]]);
  double best = *std::max_element(logSpeedups.begin(), logSpeedups.end());
  return std::exp(best - picked) - 1;
}

Result<RankingQuality> rankingQuality(const CostModel &model,
                                      const std::vector<CostSample> &samples) {
  std::vector<std::vector<float>> rows;
  for (const CostSample &s : samples)
    rows.push_back(s.features);
  auto scores = model.predict(rows);
  if (!scores)
    return scores.error();
  return rankingQuality(*scores, samples);
}

RankingQuality rankingQuality(const std::vector<double> &scores,
                              const std::vector<CostSample> &samples) {
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>>
      byProgram;
  for (size_t i = 0; i < samples.size(); ++i) {
    auto &[predicted, measured] = byProgram[samples[i].program];
    predicted.push_back(scores[i]);
    measured.push_back(samples[i].logSpeedup);
  }
  RankingQuality quality;
  for (const auto &[program, pair] : byProgram) {
    const auto &[predicted, measured] = pair;
    if (predicted.size() < 2)
      continue;
    ++quality.programs;
    quality.samples += predicted.size();
    quality.kendallTau += kendallTau(predicted, measured);
    quality.top1Regret += topKRegret(predicted, measured, 1);
    quality.top5Regret += topKRegret(predicted, measured, 5);
  }
  if (quality.programs > 0) {
    quality.kendallTau /= quality.programs;
    quality.top1Regret /= quality.programs;
    quality.top5Regret /= quality.programs;
  }
  return quality;
}

} // namespace rlopt::costmodel
