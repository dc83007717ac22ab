#ifndef RLOPT_LINALG_HEURISTIC_H
#define RLOPT_LINALG_HEURISTIC_H

#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Schedule.h"
#include "rlopt/linalg/Transformation.h"
#include "rlopt/measure/MachineInfo.h"

namespace rlopt::linalg {

struct HeuristicOptions {
  /// When > 1, one parallel loop is split among the threads: the outermost,
  /// or, for a contraction whose threads would each read more than their L2
  /// whole there, the one that leaves them least to read (B's columns when
  /// A has fewer rows). An op whose schedule without that split begins
  /// with `fuse` over at least four tiles a thread keeps that schedule:
  /// fuse's loop is the threads' (a convolution's fill fused into its
  /// register tiles, which with threads it always is where it can be).
  int threads = 1;
  TransformLimits limits;
  /// The CPU the tiles are sized for: register tiles by its vector unit,
  /// cache tiles by its caches.
  measure::CpuTarget target = measure::hostMachine().target;
  /// Opt-in transformations the schedule may use: every registered one by
  /// default; an environment's own list when the schedule demonstrates
  /// actions in it.
  std::vector<std::string> extraTransformations = allExtraTransformations();
};

/// A fixed, hand-written schedule a user could write without learning: per
/// op class, a cache tile and a register tile that divide the loops (sized
/// for the target's vector registers and caches), then
/// vectorize (2-D convolutions via their 1-D decomposition, 1 x 1 NCHW
/// ones over few channels directly with their fill fused, other NCHW ones
/// with their filters packed or via img2col, long row reductions after
/// split_reduction), and with threads
/// one parallel loop (see HeuristicOptions::threads). Every step passes the
/// same checks the environment's masks use; a step that does not is left out.
Schedule heuristicSchedule(const Program &program,
                           const HeuristicOptions &options = {});

} // namespace rlopt::linalg

#endif
