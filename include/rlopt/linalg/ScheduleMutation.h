#ifndef RLOPT_LINALG_SCHEDULEMUTATION_H
#define RLOPT_LINALG_SCHEDULEMUTATION_H

#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Schedule.h"

#include <optional>
#include <random>
#include <vector>

namespace rlopt::linalg {

/// The heuristic's schedules for nearby machines: the host's register count
/// and cache sizes halved and doubled, with and without the opt-in
/// transformations. Distinct schedules only, the host's own first.
std::vector<Schedule> heuristicVariants(const Program &program,
                                        const HeuristicOptions &options);

/// One random local change of `schedule`: a tile size doubled or halved, a
/// loop tiled or left whole, two loops swapped (in an interchange, or a new
/// one), one more tiling level, a step removed, or vectorize added. Nullopt
/// when the change does not apply to `program` (the caller draws again).
std::optional<Schedule> mutateSchedule(const Program &program,
                                       const Schedule &schedule,
                                       std::mt19937_64 &rng);

} // namespace rlopt::linalg

#endif
