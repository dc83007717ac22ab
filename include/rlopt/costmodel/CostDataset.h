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

/// Splits by program: about `fraction` of the programs (chosen by their
/// hash, so the split is stable as the cache grows) are held out.
void splitByProgram(const std::vector<CostSample> &samples, double fraction,
                    std::vector<CostSample> &train,
                    std::vector<CostSample> &heldOut);

} // namespace rlopt::costmodel

#endif
