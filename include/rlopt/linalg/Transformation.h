#ifndef RLOPT_LINALG_TRANSFORMATION_H
#define RLOPT_LINALG_TRANSFORMATION_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Analysis.h"
#include "rlopt/linalg/Schedule.h"
#include "rlopt/linalg/ScriptWriter.h"

#include <optional>
#include <string>
#include <vector>

namespace rlopt::measure {
struct CpuTarget;
}

namespace rlopt::linalg {

/// Limits every transformation respects; from the environment config.
struct TransformLimits {
  /// Largest vector (product of the op's ranges) vectorize may create:
  /// bigger vectors blow up compile time without running faster.
  int64_t maxVectorElements = 4096;
  /// Loop levels an op may have (the action heads' max_loops): pack adds
  /// loops.
  unsigned maxLoops = 8;
};

/// The scf.for loop a tiling made, as `unroll` finds it.
struct ForLoop {
  std::string handle; ///< empty: no scf.for tiles the loop innermost
  int64_t trips = 0;  ///< its iterations
  unsigned depth = 0; ///< larger: nested deeper among the op's loops
};

/// A loop that indexes an input dimension together with other loops (a
/// convolution's output row with its window row), and its coefficient there
/// (the stride, or the dilation).
struct WindowLoop {
  unsigned loop = 0;
  int64_t coefficient = 1;
};

/// The analysed op's windows: for each input dimension read by a sum of
/// loops, those loops and their coefficients.
std::vector<std::vector<WindowLoop>> analyzedWindows(const OpInfo &info);
/// Whether `loop` belongs to one of `windows`.
bool inWindow(const std::vector<std::vector<WindowLoop>> &windows,
              unsigned loop);

/// One op's loop nest as the schedule so far has left it.
struct OpState {
  const OpInfo *info = nullptr;
  std::string handle; ///< transform-dialect handle to the op
  std::string kind;   ///< current op name
  OpClass opClass = OpClass::Generic;
  std::vector<int64_t> ranges; ///< current (upper-bound) loop ranges
  std::vector<bool> isReduction;
  std::vector<bool> partial; ///< a tile size did not divide this loop
  /// After peel: each loop's remainder range (0 where nothing was peeled).
  std::vector<int64_t> rests;
  /// Per loop: the innermost scf.for that tiles it. Reset when a step
  /// changes what the loops are (img2col, pack, flatten, split_reduction);
  /// a forall tiling inside it hides it.
  std::vector<ForLoop> forLoops;
  unsigned loopsMade = 0; ///< loops tilings have made, for ForLoop::depth
  std::vector<TransformStep> history;
  bool generalized = false;
  bool parallelized = false;
  bool vectorized = false;
  bool img2col = false;
  bool splitReduction = false;
  bool peeled = false; ///< the handle holds a main part and remainders
  /// The loops peel split, in the order of its splits: the handle holds
  /// part i, the remainder along peeledLoops[j] where bit j of i is set,
  /// at position i.
  std::vector<unsigned> peeledLoops;
  bool unrolled = false;
  bool stopped = false;
  /// After pack of a convolution: the loops that index one input dimension
  /// together (output row and window row). The op is a linalg.generic that
  /// vectorizes once its unit loops fold away, so all but one loop of each
  /// group must be tiled to 1 first, and that one must step by 1.
  std::vector<std::vector<WindowLoop>> windows;
  int fusedInto = -1;       ///< consumer op index after fusion
  bool fusedOpaque = false; ///< fused, with ranges unknown statically

  unsigned numLoops() const { return ranges.size(); }
  /// The innermost scf.for that tiles `loop`; null when none does.
  const ForLoop *forLoop(unsigned loop) const;
  bool hasPartialTiles() const;
  int64_t iterationCount() const;
};

/// The state of a whole program under a schedule being built.
struct ScheduleState {
  ScheduleState(const std::vector<OpInfo> &ops, TransformLimits limits = {});

  std::vector<OpState> ops;
  ScriptWriter script;
  TransformLimits limits;
  bool lowerVectors = false;
  bool dropLeadingUnitDims = false;

  /// The transform-dialect module for everything applied so far.
  std::string transformScript() const;
};

enum class ParamKind {
  None,             ///< `vectorize`
  PerLoop,          ///< one integer per loop: `tile(32,0,16)`; tile heads
  PerParallelLoop,  ///< one per loop, reductions 0: `parallelize(8,0)`;
                    ///< parallel heads
  PerReductionLoop, ///< one per loop, parallel loops 0:
                    ///< `split_reduction(0,32)`; the reduction loops'
                    ///< tile heads
  Permutation,      ///< a permutation of the loops: `interchange(0,2,1)`
};

/// Whether the parameters are one integer per loop.
inline bool isPerLoop(ParamKind kind) {
  return kind == ParamKind::PerLoop || kind == ParamKind::PerParallelLoop ||
         kind == ParamKind::PerReductionLoop;
}

/// A transformation is one entry in `transformations()`: its name, how its
/// parameters look, when it applies, and the transform-dialect ops it emits.
struct Transformation {
  const char *name;
  ParamKind params;
  const char *summary;
  /// Why `params` cannot apply to op `index`; nullopt when they can.
  std::optional<std::string> (*check)(const ScheduleState &state,
                                      unsigned index,
                                      const std::vector<int64_t> &params);
  /// Emits the transform ops and updates the op states.
  void (*emit)(ScheduleState &state, unsigned index,
               const std::vector<int64_t> &params);
  /// Offered to an environment only when its config lists it under
  /// `extra_transformations`: policies trained on the base set keep their
  /// action space.
  bool extra = false;
  /// Rounds the per-loop sizes the action heads chose to parameters that
  /// apply (0 = leave the loop), so that no unmasked action fails; all 0 is
  /// a no-op step. Null: the sizes are taken as they are.
  void (*fromHeads)(const OpState &op, std::vector<int64_t> &params) = nullptr;
  /// A head's non-zero size only picks its loop, and fromHeads chooses the
  /// parameter (`unroll`): the sizes are no tile sizes, and size 1, which
  /// every loop offers, picks a loop as well as any.
  bool headsPickLoops = false;
};

/// Every registered transformation, the base set first.
const std::vector<Transformation> &transformations();
const Transformation *findTransformation(const std::string &name);
/// An environment's transformation types, in action-space order: the base
/// set, then `extras` in the order given. Names must be registered extras
/// (EnvConfig checks them).
std::vector<const Transformation *>
actionTransformations(const std::vector<std::string> &extras);
/// The registered extras' names.
std::vector<std::string> allExtraTransformations();
/// The same, comma-separated, for error messages.
std::string extraTransformationNames();

/// Checks common rules (op not finished, parameter count and bounds) and
/// then the transformation's own.
std::optional<std::string> checkStep(const ScheduleState &state, unsigned index,
                                     const Transformation &transformation,
                                     const std::vector<int64_t> &params);
/// checkStep, then emit; the error reads `op3: tile(...): why`.
Status applyStep(ScheduleState &state, unsigned index,
                 const TransformStep &step);
/// Applies a whole schedule to a fresh state.
Status applySchedule(ScheduleState &state, const Schedule &schedule);

/// The handles a transform.structured.pad of an op yields.
struct PaddedHandles {
  std::string padded; // the op, now on the copies
  std::string copies; // the pads (or copies) of its operands
};

/// Emits a transform.structured.pad of op `index` over all its loops, with
/// zeros of each operand's element type as padding. `packPaddings` (one
/// entry per operand, empty for the default) keeps copies that pad nothing;
/// `copyBackOp` is "linalg.copy" or "none".
PaddedHandles emitStructuredPad(ScheduleState &state, unsigned index,
                                const std::vector<bool> &packPaddings,
                                const std::string &copyBackOp);

/// Why `step`, which copies the op's operands, cannot apply to op `index`
/// while it takes part in a fusion: fused into its consumer, or with
/// producers fused into its own loops.
std::optional<std::string> fusionRefusal(const ScheduleState &state,
                                         unsigned index,
                                         const std::string &step);

// Helpers shared by the transformation entries.
std::vector<int64_t> tiledRanges(const OpState &op,
                                 const std::vector<int64_t> &sizes);
/// Updates the op's ranges for tiles of `sizes`; `forLoops` names the
/// scf.for loops of a tile_using_for (one per non-zero size), empty for a
/// forall tiling.
void recordTiling(OpState &op, const std::vector<int64_t> &sizes,
                  const std::string &forLoops = "");
/// Forgets the op's scf.for loops: a step changed what its loops are.
void forgetForLoops(OpState &op);
/// Bytes of one element of the op's result (4 for f32, 8 for f64).
int64_t elementBytes(const OpState &op);
/// Elements of the op's type in one vector register of the target.
int64_t lanesOf(const OpState &op, const measure::CpuTarget &target);
std::optional<std::string> checkTileSizes(const OpState &op,
                                          const std::vector<int64_t> &sizes);
/// The producers `fuse` moves into op `index`'s loop, consumers first.
std::vector<unsigned> fusableProducers(const ScheduleState &state,
                                       unsigned index);

} // namespace rlopt::linalg

#endif
