#ifndef RLOPT_COSTMODEL_COSTDATASET_H
#define RLOPT_COSTMODEL_COSTDATASET_H

#include "rlopt/costmodel/CostModel.h"
#include "rlopt/measure/Cache.h"

#include <string>
#include <vector>

namespace rlopt::costmodel {

struct CostDataset {
  std::vector<CostSample> samples;
  size_t programs = 0;
  /// Rows that could not become samples: written before rows named their
  /// schedule, wrong results, programs that no longer load.
  size_t skipped = 0;
};

/// The labelled schedules of a measurement cache: every correct Linalg
/// measurement taken on `machine` (a MachineInfo fingerprint; empty: any)
/// whose row names its program and schedule. Repeated measurements of one
/// schedule become one sample labelled with their mean log speedup.
Result<CostDataset> loadCostDataset(measure::Cache &cache,
                                    const std::string &machine);

/// Fold `fold` of `folds` by program: the programs whose hash falls in the
/// fold are held out (stable as the cache grows), the others train.
void splitByProgram(const std::vector<CostSample> &samples, unsigned fold,
                    unsigned folds, std::vector<CostSample> &train,
                    std::vector<CostSample> &heldOut);

} // namespace rlopt::costmodel

#endif
